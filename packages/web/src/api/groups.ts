import type { GroupDto, GroupListItem, GroupsPage, MessageResponse } from '@trasa/domain';
import { api } from './client';
import type { PageParams, SearchText } from './users';

/** Group calls of spec 1 §7. The reserved group 'Admin' is never in a list. */

/** Pickers load every group the user may see in one call (spec 1 §9). */
export const ALL_GROUPS_LIMIT = 50_000;

export type CreateGroupBody = {
  /** The parent's _id, or '' for a top-level group. */
  nadredjenaId: string;
  naziv: string;
  kratakNaziv: string;
  /** A group-type _id from GET /api/types. */
  tip: string;
  sveVideci: boolean;
};

export type EditGroupBody = Omit<CreateGroupBody, 'nadredjenaId'> & { nadredjenaGrupa: string };

export function listGroups(params: PageParams, signal?: AbortSignal): Promise<GroupsPage> {
  return api('/group', { query: params, signal });
}

export function searchGroups(params: PageParams & SearchText, signal?: AbortSignal): Promise<GroupsPage> {
  return api('/search/group', { query: params, signal });
}

export async function getGroup(id: string, signal?: AbortSignal): Promise<GroupDto> {
  return (await api<{ group: GroupDto }>(`/group/${encodeURIComponent(id)}`, { signal })).group;
}

export function createGroup(body: CreateGroupBody): Promise<MessageResponse> {
  return api('/group/create', { method: 'POST', body });
}

export function editGroup(id: string, body: EditGroupBody): Promise<MessageResponse> {
  return api(`/group/${encodeURIComponent(id)}`, { method: 'PATCH', body });
}

export function deleteGroup(id: string): Promise<MessageResponse> {
  return api(`/group/${encodeURIComponent(id)}`, { method: 'DELETE' });
}

/** A member leaves their group and becomes a guest (spec 1 §4). */
export function removeUserFromGroup(userId: string): Promise<MessageResponse> {
  return api('/group/remove-user', { method: 'PATCH', query: { userId } });
}

/** Groups that see all clusters (true) or not (false), as the groups list's rows. */
export async function groupsBySeesAll(seesAll: boolean, signal?: AbortSignal): Promise<GroupListItem[]> {
  return (await api<{ groups: GroupListItem[] }>(`/group/sve-videci/${seesAll}`, { signal })).groups;
}
