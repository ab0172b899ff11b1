import type { ActivityDto, ActivityState, DataItem } from '@trasa/domain';
import type { QueuedItem } from '../offline/queueDb';

/**
 * The requests of the three changes a screen may make without signal (activity data, a comment, documents),
 * as method, path (under /api) and body (`requestOfChange`): the page sends them through the API client
 * (offline/queue.ts sendChange), the service worker with fetch (offline/backgroundSync.ts) — the same
 * requests either way (docs/api/activities.md). No `window`, no
 * local storage: the worker imports this module.
 */

const seg = encodeURIComponent;

export type JsonRequest = { method: 'PATCH' | 'POST'; path: string; json: unknown };
export type FormRequest = { method: 'PATCH'; path: string; form: FormData };
export type ChangeRequest = JsonRequest | FormRequest;

/**
 * PATCH /api/activity/{id}: upserts data items by key (and ref); an empty vrednost removes the item. With
 * `stanje` the server refuses it (409) when the activity has moved on.
 */
export function dataRequest(id: string, podaci: DataItem[], stanje?: ActivityState): JsonRequest {
  return { method: 'PATCH', path: `/activity/${seg(id)}`, json: stanje ? { podaci, stanje } : { podaci } };
}

/** POST /api/comment/{id} → 201 { message, komentar }; with `stanje` only on the state it was written on (else 409). */
export function commentRequest(activityId: string, komentar: string, stanje?: ActivityState): JsonRequest {
  return { method: 'POST', path: `/comment/${seg(activityId)}`, json: stanje ? { komentar, stanje } : { komentar } };
}

export type UploadTarget = Pick<ActivityDto, '_id' | 'kratakNaziv' | 'kontrolna' | 'version'> & { locationId: string };

/**
 * The multipart PATCH /api/activity/{code}/{locationId}/{activityId}/{controlFlag}/{version}/{requiredFlag}
 * with fields isRequiredFile and userInput and the files named fajl1…fajlN; `stanje` in the query.
 */
export function uploadRequest(
  target: UploadTarget,
  files: readonly { name: string; blob: Blob }[],
  options: { isRequired: boolean; userInput?: string; stanje?: ActivityState },
): FormRequest {
  const form = new FormData();
  form.append('isRequiredFile', String(options.isRequired));
  if (options.userInput !== undefined) form.append('userInput', options.userInput);
  files.forEach((file, i) => {
    form.append(`fajl${i + 1}`, file.blob, file.name);
  });
  const path = [
    '/activity',
    seg(target.kratakNaziv),
    seg(target.locationId),
    seg(target._id),
    String(target.kontrolna),
    String(target.version),
    String(options.isRequired),
  ].join('/');
  const query = options.stanje
    ? `?${new URLSearchParams({ status: options.stanje.status, revizija: String(options.stanje.revizija) }).toString()}`
    : '';
  return { method: 'PATCH', path: path + query, form };
}

/** The request of a change as the queue keeps it (offline/queueDb.ts), whoever sends it. */
export function requestOfChange(item: Pick<QueuedItem, 'activityId' | 'stanje' | 'change'>): ChangeRequest {
  const { change } = item;
  switch (change.kind) {
    case 'data':
      return dataRequest(item.activityId, change.podaci, item.stanje);
    case 'comment':
      return commentRequest(item.activityId, change.komentar, item.stanje);
    case 'upload':
      return uploadRequest(
        {
          _id: item.activityId,
          kratakNaziv: change.upload.kratakNaziv,
          kontrolna: change.upload.kontrolna,
          version: change.upload.version,
          locationId: change.upload.locationId,
        },
        change.files,
        { isRequired: change.upload.isRequired, userInput: change.upload.userInput, stanje: item.stanje },
      );
  }
}
