import type { ActivityDto, ActivityState, DataItem } from '@trasa/domain';
import type { QueuedItem } from '../offline/queueDb';

/**
 * The requests of the three changes a screen may make without signal (activity data, a comment, documents),
 * as method, path (under /api) and body (`requestOfChange`): the page sends them through the API client
 * (offline/queue.ts sendChange), the service worker with fetch (offline/backgroundSync.ts) — the same
 * requests either way (docs/api/activities.md), each with the change's Idempotency-Key. No `window`, no
 * local storage: the worker imports this module.
 */

const seg = encodeURIComponent;

export type JsonRequest = { method: 'PATCH' | 'POST'; path: string; json: unknown };
export type FormRequest = { method: 'PATCH'; path: string; form: FormData };
/** `headers`: what the request carries besides the sender's own (the token, the script): the change's key. */
export type ChangeRequest = (JsonRequest | FormRequest) & { headers: Record<string, string> };

/**
 * The header naming one change (docs/decisions.md "Offline"): the server applies a change once per user and
 * key, and answers a repeat with the first answer (`Idempotent-Replayed: true`).
 */
export const IDEMPOTENCY_HEADER = 'Idempotency-Key';

/**
 * A new change's key: a random UUID (version 4). crypto.randomUUID where the page is a secure context (https,
 * localhost), else the same from crypto.getRandomValues (a plain-http address on a local network).
 */
export function newChangeKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = ((b[6] ?? 0) & 0x0f) | 0x40;
  b[8] = ((b[8] ?? 0) & 0x3f) | 0x80;
  const hex = [...b].map((x) => x.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

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

/**
 * The request of a change as the queue keeps it (offline/queueDb.ts), whoever sends it: with the change's
 * Idempotency-Key when it has one.
 */
export function requestOfChange(item: Pick<QueuedItem, 'activityId' | 'stanje' | 'change' | 'key'>): ChangeRequest {
  const headers: Record<string, string> = item.key ? { [IDEMPOTENCY_HEADER]: item.key } : {};
  return { ...bodyOfChange(item), headers };
}

function bodyOfChange(item: Pick<QueuedItem, 'activityId' | 'stanje' | 'change'>): JsonRequest | FormRequest {
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
