import type { GroupDto, GuestsPage, MessageResponse, SortOrder, UserDto, UsersPage } from '@trasa/domain';
import { api } from './client';

/** User calls of spec 1 §7. Pages are 1-based on the server. */

/** A page, and the column it is sorted by (`sort`, `order`; absent: the list's default order). */
export type PageParams = { page: number; limit: number; sort?: string | undefined; order?: SortOrder | undefined };
export type SearchText = { eng: string; srb: string };

export type CreateUserBody = {
  ime: string;
  prezime: string;
  email: string;
  emailPotvrdjen: boolean;
  /** A role _id from GET /api/role. */
  rola: string;
  status: 'aktivan' | 'neaktivan';
  /** A group _id, or '' for the groupless roles (Gost, Admin). */
  grupa: string;
  lozinka: string;
  potvrdaLozinke: string;
};

export type EditUserBody = Omit<CreateUserBody, 'grupa' | 'lozinka' | 'potvrdaLozinke'> & {
  groupId: string;
  /** Sent only when the password changes. */
  lozinka?: string;
  potvrdaLozinke?: string;
};

export type UserWithGroup = { user: UserDto; group: GroupDto | null };

export function listUsers(params: PageParams & { groupId?: string }, signal?: AbortSignal): Promise<UsersPage> {
  return api('/user', { query: params, signal });
}

export function listUsersByRole(params: PageParams & { roleId: string }, signal?: AbortSignal): Promise<UsersPage> {
  return api('/user/users-per-role', { query: params, signal });
}

export function listGuests(params: PageParams, signal?: AbortSignal): Promise<GuestsPage> {
  return api('/user/guests', { query: params, signal });
}

export function searchUsers(params: PageParams & SearchText, signal?: AbortSignal): Promise<UsersPage> {
  return api('/search/user', { query: params, signal });
}

export function getUser(id: string, signal?: AbortSignal): Promise<UserWithGroup> {
  return api(`/user/single/${encodeURIComponent(id)}`, { signal });
}

export function createUser(body: CreateUserBody): Promise<MessageResponse> {
  return api('/user/', { method: 'POST', body });
}

export function editUser(id: string, body: EditUserBody): Promise<MessageResponse> {
  return api(`/user/single/${encodeURIComponent(id)}`, { method: 'PATCH', body });
}

/** Deleting a user sets the status neaktivan (spec 1 §4). */
export function deleteUser(id: string): Promise<MessageResponse> {
  return api(`/user/single/${encodeURIComponent(id)}`, { method: 'DELETE' });
}
