import { useQuery } from '@tanstack/react-query';
import { type GroupListItem, isReservedGroupName } from '@trasa/domain';
import { ALL_GROUPS_LIMIT, listGroups } from '../api/groups';

export const GROUPS_KEY = ['groups'] as const;

/**
 * Every group the user may choose (GET /api/group?limit=50000, already scoped by the server to a
 * Rukovodilac's subtree); the reserved group 'Admin' is left out here too.
 */
export function useGroupChoices() {
  return useQuery({
    queryKey: [...GROUPS_KEY, 'choices'],
    queryFn: async ({ signal }) => {
      const { groups } = await listGroups({ page: 1, limit: ALL_GROUPS_LIMIT }, signal);
      return groups.filter((g) => !isReservedGroupName(g.naziv));
    },
    staleTime: 30_000,
  });
}

export function groupOptions(groups: readonly GroupListItem[]) {
  return groups.map((g) => ({ value: g._id, label: g.naziv }));
}
