import { useQuery } from '@tanstack/react-query';
import { CONTRACT_GROUP_TYPE, CONTRACT_KINDS, type ContractKind, isReservedGroupName } from '@trasa/domain';
import { ApiError } from '../../api/client';
import { PICKER_LIMIT } from '../../api/clusters';
import { type ContractDto, getContract, listContracts } from '../../api/contracts';
import { statusOf } from '../../api/errors';
import { listGroups } from '../../api/groups';
import { GROUPS_KEY } from '../../queries/groups';
import { contractLabel } from '../clusters/format';
import { CONTRACTS_KEY } from '../clusters/queries';

export { CONTRACTS_KEY };

export type FoundContract = { kind: ContractKind; contract: ContractDto };

/**
 * A contract by id when its kind may be unknown: GET /api/{route}/:id is per kind, so the kind the
 * navigation state names is asked first, then the others (a 404 means "not of this kind"). Opened from
 * a list the first answer is the one; typed into the address bar at most four calls find it.
 */
export async function findContract(id: string, first: ContractKind, signal?: AbortSignal): Promise<FoundContract> {
  const order = [first, ...CONTRACT_KINDS.filter((k) => k !== first)];
  for (const kind of order) {
    try {
      return { kind, contract: await getContract(kind, id, signal) };
    } catch (error) {
      if (statusOf(error) !== 404) throw error;
    }
  }
  throw new ApiError(404, undefined, undefined);
}

/** One contract with its documents and linked clusters, found by id starting with the given kind. */
export function useContractQuery(id: string, first: ContractKind, enabled = true) {
  return useQuery({
    queryKey: [...CONTRACTS_KEY, 'single', id, first],
    queryFn: ({ signal }) => findContract(id, first, signal),
    enabled: enabled && !!id,
    retry: false,
  });
}

/**
 * The groups a typed contract can be given: the non-reserved groups (GET /api/group, up to 1000) of
 * the kind's group type (spec 2 §5); none for the general contract.
 */
export function useContractGroupChoices(kind: ContractKind) {
  const type = CONTRACT_GROUP_TYPE[kind];
  return useQuery({
    queryKey: [...GROUPS_KEY, 'contract-choices', kind],
    queryFn: async ({ signal }) => {
      const { groups } = await listGroups({ page: 1, limit: PICKER_LIMIT }, signal);
      return groups.filter((g) => !isReservedGroupName(g.naziv) && g.tipKod === type);
    },
    enabled: type !== null,
    staleTime: 30_000,
  });
}

/** 'naziv (broj)' of each contract of the kind (GET /api/{route}, up to 1000), by id. */
function useContractLabels(kind: ContractKind) {
  return useQuery({
    queryKey: [...CONTRACTS_KEY, kind, 'labels'],
    queryFn: async ({ signal }) => {
      const { contracts } = await listContracts(kind, { page: 1, limit: PICKER_LIMIT }, signal);
      return new Map(contracts.map((c) => [c._id, contractLabel(c)]));
    },
    staleTime: 30_000,
  });
}

/**
 * 'naziv (broj)' of the contract of the kind with this id (a cluster's list row names its typed
 * contracts by id only): from the kind's list, or the contract itself when the list doesn't hold it.
 * Null while it loads, or without an id.
 */
export function useContractLabel(kind: ContractKind, id: string | null): string | null {
  const labels = useContractLabels(kind);
  const listed = id ? labels.data?.get(id) : undefined;
  const single = useQuery({
    queryKey: [...CONTRACTS_KEY, 'single', id, kind],
    queryFn: ({ signal }) => findContract(id ?? '', kind, signal),
    enabled: !!id && labels.isSuccess && listed === undefined,
    retry: false,
  });
  if (!id) return null;
  if (listed !== undefined) return listed;
  return single.data ? contractLabel(single.data.contract) : null;
}
