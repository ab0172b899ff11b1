import type { MessageResponse, RoleDto } from '@trasa/domain';
import { api } from './client';
import type { PageParams } from './users';

/** Role calls of spec 1 §7. */

export type RolesPage = { roles: RoleDto[]; totalResults: number };
export type RoleBody = { imeRole: string; kratakNaziv: string; osnovnaRola?: 'Rukovodilac' | 'Zaposleni' | 'Gost' };
export type RoleSaved = MessageResponse & { role: RoleDto };
export type AddRoleBody = {
  /** The user (a guest or a member) who gets the role. */
  guestId: string;
  /** A role _id. */
  newRole: string;
  /** The group, or '' for the groupless roles. */
  groupId: string;
};

/** Every role fits in one page: the lists of roles are short. */
export const ALL_ROLES_LIMIT = 1000;

export function listRoles(params: PageParams, signal?: AbortSignal): Promise<RolesPage> {
  return api('/role', { query: params, signal });
}

export async function getRole(id: string, signal?: AbortSignal): Promise<RoleDto> {
  return (await api<{ role: RoleDto }>(`/role/${encodeURIComponent(id)}`, { signal })).role;
}

export function createRole(body: RoleBody): Promise<RoleSaved> {
  return api('/role', { method: 'POST', body });
}

export function editRole(id: string, body: RoleBody): Promise<RoleSaved> {
  return api(`/role/${encodeURIComponent(id)}`, { method: 'PATCH', body });
}

/** Changes a user's role, or puts a guest into a group with a role. */
export function addRole(body: AddRoleBody): Promise<MessageResponse> {
  return api('/role/add-role', { method: 'POST', body });
}
