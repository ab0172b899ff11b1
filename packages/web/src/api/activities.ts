import type {
  ActivityCommentDto,
  ActivityDetailResponse,
  ActivityDto,
  ActivityFileDto,
  ActivityState,
  ConnectedActivityDto,
  DataItem,
  MessageResponse,
} from '@trasa/domain';
import { api, download, sendForm } from './client';
import { statusOf } from './errors';

/** The activity workflow of spec 3 §7 "Activities", "Files", "Comments" (docs/api/activities.md). */

export type { ActivityCommentDto, ActivityDetailResponse, ActivityDto, ActivityFileDto, ActivityState, ConnectedActivityDto, DataItem };

export type ActivityAnswer = MessageResponse & { activity: ActivityDto };

const seg = encodeURIComponent;

/** GET /api/activity/{id}: the activity and its connected activities (404 when missing or not visible). */
export function getActivity(id: string, signal?: AbortSignal): Promise<ActivityDetailResponse> {
  return api(`/activity/${seg(id)}`, { signal });
}

/** POST /api/activity/activity-status/: start A1, finish, or (Admin) reactivate a finished activity. */
export function changeActivityStatus(activityId: string, status: 'U toku' | 'Završena'): Promise<ActivityAnswer> {
  return api('/activity/activity-status/', { method: 'POST', body: { status, activityId } });
}

/**
 * POST /api/activity/control/: resolves a control without (false) or with remarks (true). A 304 (already
 * decided the same way) counts as success: the answer is then null and the caller reloads.
 */
export async function decideControl(ctrlId: string, faults: boolean): Promise<ActivityAnswer | null> {
  try {
    return await api<ActivityAnswer>('/activity/control/', { method: 'POST', body: { faults, ctrlId } });
  } catch (error) {
    if (statusOf(error) === 304) return null;
    throw error;
  }
}

/** The state an activity's screen shows, sent with each change: a stale change is refused (409, the reason). */
export function stateOf(activity: Pick<ActivityDto, 'status' | 'revizija'>): ActivityState {
  return { status: activity.status, revizija: activity.revizija };
}

/**
 * PATCH /api/activity/{id}: upserts data items by key (and ref); an empty vrednost removes the item. With
 * `stanje` the server refuses it (409) when the activity has moved on.
 */
export function saveActivityData(id: string, podaci: DataItem[], stanje?: ActivityState): Promise<ActivityAnswer> {
  return api(`/activity/${seg(id)}`, { method: 'PATCH', body: stanje ? { podaci, stanje } : { podaci } });
}

export type UploadTarget = Pick<ActivityDto, '_id' | 'kratakNaziv' | 'kontrolna' | 'version'> & { locationId: string };

export type UploadOptions = {
  /** A required document (counts for the finish rule) or an extra optional one. */
  isRequired: boolean;
  /** The slot: A1 settlement id, A20 test type 1–5, A7 holder id. */
  userInput?: string;
  /** The state the upload was made on (the query's status and revizija). */
  stanje?: ActivityState;
  onProgress?: (percent: number) => void;
  signal?: AbortSignal;
};

/**
 * The multipart PATCH /api/activity/{code}/{locationId}/{activityId}/{controlFlag}/{version}/{requiredFlag}
 * with fields isRequiredFile and userInput and the files named fajl1…fajlN; progress through XHR.
 */
export function uploadActivityFiles(
  target: UploadTarget,
  files: readonly { name: string; blob: Blob }[],
  options: UploadOptions,
): Promise<ActivityAnswer> {
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
  return sendForm<ActivityAnswer>(path + query, form, { method: 'PATCH', onProgress: options.onProgress, signal: options.signal });
}

function filePath(locationId: string, activityId: string, fileId: string): string {
  return `/files/activity/${seg(locationId)}/${seg(activityId)}/${seg(fileId)}`;
}

/** GET /api/files/activity/{locationId}/{activityId}/{fileId}: the document as a blob. */
export function downloadActivityFile(locationId: string, activityId: string, fileId: string) {
  return download(filePath(locationId, activityId, fileId));
}

/** DELETE /api/files/activity/{locationId}/{activityId}/{fileId} (only a file of the current revision). */
export function deleteActivityFile(locationId: string, activityId: string, fileId: string): Promise<Partial<ActivityAnswer>> {
  return api(filePath(locationId, activityId, fileId), { method: 'DELETE' });
}

/** GET /api/files/zip?activityName&directory: the activity's documents, or without an activity all of the cluster's. */
export function downloadZip(clusterId: string, activityId?: string) {
  const params = new URLSearchParams();
  if (activityId) params.set('activityName', activityId);
  params.set('directory', clusterId);
  return download(`/files/zip?${params.toString()}`);
}

/** POST /api/comment/{id} → 201 { message, komentar }; with `stanje` only on the state it was written on (else 409). */
export function postComment(
  activityId: string,
  komentar: string,
  stanje?: ActivityState,
): Promise<MessageResponse & { komentar: ActivityCommentDto }> {
  return api(`/comment/${seg(activityId)}`, { method: 'POST', body: stanje ? { komentar, stanje } : { komentar } });
}

export type HolderDto = { _id: string; naziv: string; odgovoran: string };

/** GET /api/ijo: the public-authority holders ({ ijos } or a bare list); none while the endpoint is missing. */
export async function listHolders(signal?: AbortSignal): Promise<HolderDto[]> {
  try {
    const data = await api<{ ijos?: HolderDto[] } | HolderDto[]>('/ijo', { signal });
    if (Array.isArray(data)) return data;
    return Array.isArray(data?.ijos) ? data.ijos : [];
  } catch (error) {
    if (statusOf(error) === 404) return [];
    throw error;
  }
}
