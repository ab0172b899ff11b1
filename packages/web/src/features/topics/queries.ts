import { useQuery } from '@tanstack/react-query';
import type { GroupName } from '@trasa/domain';
import { useMemo } from 'react';
import { listLocations, PICKER_LIMIT } from '../../api/clusters';
import { getTopic, topicGroups } from '../../api/topics';
import type { SelectOption } from '../../components/FormSelect';
import { groupLabel } from '../clusters/format';
import { CLUSTERS_KEY } from '../clusters/queries';

export const TOPICS_KEY = ['topics'] as const;

/** One topic with its comments and whether the user may comment (GET /api/topic/{id}). */
export function useTopicQuery(id: string) {
  return useQuery({
    queryKey: [...TOPICS_KEY, 'single', id],
    queryFn: ({ signal }) => getTopic(id, signal),
    enabled: !!id,
    retry: false,
  });
}

/** The clusters the user sees, with their responsible groups (GET /api/location?page=1&limit=1000, spec 2 §7). */
export function useTopicClusterChoices() {
  return useQuery({
    queryKey: [...CLUSTERS_KEY, 'topic-choices'],
    queryFn: async ({ signal }) => (await listLocations({ page: 1, limit: PICKER_LIMIT }, signal)).locations,
    staleTime: 30_000,
  });
}

/**
 * The groups a topic of the cluster can be given or handed over to: those that see the cluster
 * (GET /api/topic/grupe; the server refuses any other). `current` stays offered so a form never loses
 * its value.
 */
export function useTopicGroupOptions(locationId: string, current?: GroupName | null) {
  const groups = useQuery({
    queryKey: [...TOPICS_KEY, 'groups', locationId],
    queryFn: ({ signal }) => topicGroups(locationId, signal),
    enabled: !!locationId,
    staleTime: 30_000,
  });
  const listed = groups.data;
  const options = useMemo(() => {
    const byId = new Map<string, SelectOption>();
    for (const g of listed ?? []) byId.set(g._id, { value: g._id, label: groupLabel(g) });
    if (current && !byId.has(current._id)) byId.set(current._id, { value: current._id, label: current.naziv });
    return [...byId.values()];
  }, [listed, current]);
  return { options, loading: !!locationId && groups.isPending };
}
