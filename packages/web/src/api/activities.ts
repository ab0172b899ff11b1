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
import { api, download } from './client';
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
