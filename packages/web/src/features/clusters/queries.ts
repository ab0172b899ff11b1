import { useQuery } from '@tanstack/react-query';
import { isReservedGroupName } from '@trasa/domain';
import { getLocation, PICKER_LIMIT } from '../../api/clusters';
import { listContracts } from '../../api/contracts';
import { listGroups } from '../../api/groups';
import { allSettlements } from '../../api/settlements';
import { CONTRACTS } from '../../messages';
import { GROUPS_KEY } from '../../queries/groups';
import { SETTLEMENTS_KEY } from '../../queries/settlements';

export const CLUSTERS_KEY = ['locations'] as const;
export const CONTRACTS_KEY = ['contracts'] as const;

/** One cluster (GET /api/location/{id}). */
export function useLocationQuery(id: string, enabled = true) {
  return useQuery({
    queryKey: [...CLUSTERS_KEY, 'single', id],
    queryFn: ({ signal }) => getLocation(id, signal),
    enabled: enabled && !!id,
    retry: false,
  });
}

/** The groups a cluster can be given (GET /api/group?page=1&limit=1000), without 'Admin' / 'Админ'. */
export function useClusterGroupChoices() {
  return useQuery({
    queryKey: [...GROUPS_KEY, 'cluster-choices'],
    queryFn: async ({ signal }) => {
      const { groups } = await listGroups({ page: 1, limit: PICKER_LIMIT }, signal);
      return groups.filter((g) => !isReservedGroupName(g.naziv));
    },
    staleTime: 30_000,
  });
}

/** Every settlement (GET /api/naselje without paging). */
export function useSettlementChoices() {
  return useQuery({
    queryKey: [...SETTLEMENTS_KEY, 'all'],
    queryFn: ({ signal }) => allSettlements(signal),
    staleTime: 30_000,
  });
}

/** General contracts a cluster can be put under: GET /api/contract?page=1&limit=1000 without the finished ones. */
export function useOpenContractChoices(enabled: boolean) {
  return useQuery({
    queryKey: [...CONTRACTS_KEY, 'contract', 'open-choices'],
    queryFn: async ({ signal }) => {
      const { contracts } = await listContracts('contract', { page: 1, limit: PICKER_LIMIT }, signal);
      return contracts.filter((c) => c.status !== CONTRACTS.statusFinished);
    },
    enabled,
    staleTime: 30_000,
  });
}
