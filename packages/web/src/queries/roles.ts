import { useQuery } from '@tanstack/react-query';
import { assignableRoles, isRoleKey, type RoleDto, type RoleKey, roleIn } from '@trasa/domain';
import { useMemo } from 'react';
import { ALL_ROLES_LIMIT, listRoles } from '../api/roles';
import { useCurrentUser } from '../session/currentUser';
import { roleName } from '../shipped';

export const ROLES_KEY = ['roles'] as const;

/** Every role (GET /api/role); the server leaves Admin out for a Rukovodilac. */
export function useRoles() {
  return useQuery({
    queryKey: [...ROLES_KEY, 'all'],
    queryFn: async ({ signal }) => (await listRoles({ page: 1, limit: ALL_ROLES_LIMIT }, signal)).roles,
    staleTime: 60_000,
  });
}

export function baseRoleOf(role: Pick<RoleDto, 'osnovnaRola'> | undefined): RoleKey | null {
  return role && isRoleKey(role.osnovnaRola) ? role.osnovnaRola : null;
}

/** The roles the signed-in user may hand out (spec 1 §6), by each role's base role. */
export function useAssignableRoles(): { roles: RoleDto[]; isPending: boolean } {
  const user = useCurrentUser();
  const query = useRoles();
  const roles = useMemo(() => {
    const allowed = isRoleKey(user.rola) ? assignableRoles(user.rola) : [];
    return (query.data ?? []).filter((r) => roleIn(r.osnovnaRola, allowed));
  }, [query.data, user.rola]);
  return { roles, isPending: query.isPending };
}

export function roleOptions(roles: readonly RoleDto[]) {
  return roles.map((r) => ({ value: r._id, label: roleName(r.imeRole) }));
}
