import { useQuery } from '@tanstack/react-query';
import { listTypes } from '../api/types';

export const TYPES_KEY = ['types'] as const;

/** The group types of the codebook (GET /api/types). */
export function useGroupTypes() {
  return useQuery({
    queryKey: [...TYPES_KEY, 'all'],
    queryFn: ({ signal }) => listTypes(signal),
    staleTime: 60_000,
  });
}
