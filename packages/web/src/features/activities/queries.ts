import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import {
  type ActivityAnswer,
  type ActivityDetailResponse,
  type DataItem,
  getActivity,
  listHolders,
  saveActivityData,
} from '../../api/activities';
import { statusOf } from '../../api/errors';
import { isOnline } from '../../offline/network';
import { CLUSTERS_KEY } from '../clusters/queries';

export const ACTIVITIES_KEY = ['activities'] as const;
export const HOLDERS_KEY = ['ijo'] as const;

export function activityKey(id: string) {
  return [...ACTIVITIES_KEY, 'single', id] as const;
}

function activityQuery(id: string) {
  return queryOptions({
    queryKey: activityKey(id),
    queryFn: ({ signal }) => getActivity(id, signal),
    retry: (count, error) => statusOf(error) !== 404 && statusOf(error) !== 400 && count < 1 && isOnline(),
  });
}

/**
 * GET /api/activity/{id}; a 404 is final (the not-found page), other failures get one more try while
 * online. Offline the API client answers with the device's copy, or fails at once when there is none.
 * The call starts as the screen first renders (as usePrefetchQuery does), not after its first commit: on a
 * visit that opens on the activity, the shell's and the screen's commit took a few hundred milliseconds
 * before the call went out (bench/offline-open.mjs).
 */
export function useActivityQuery(id: string) {
  const queryClient = useQueryClient();
  if (id && !queryClient.getQueryState(activityKey(id))) void queryClient.prefetchQuery(activityQuery(id));
  return useQuery({ ...activityQuery(id), enabled: !!id });
}

/**
 * Puts an answer's activity into the cache at once (the screen follows the server's state), then,
 * with `reload`, asks for the whole detail again: connected activities and the cluster lists change
 * with a status change.
 */
export function useApplyAnswer(id: string) {
  const queryClient = useQueryClient();
  return useCallback(
    async (answer: Partial<ActivityAnswer> | null | undefined, reload = false) => {
      const activity = answer?.activity;
      if (activity)
        queryClient.setQueryData<ActivityDetailResponse>(activityKey(id), (old) =>
          old ? { ...old, activity } : { activity, connected: [] },
        );
      if (reload || !activity) {
        await queryClient.invalidateQueries({ queryKey: ACTIVITIES_KEY });
        await queryClient.invalidateQueries({ queryKey: CLUSTERS_KEY });
      }
    },
    [queryClient, id],
  );
}

/** PATCH /api/activity/{id} with data items; the answer's activity goes into the cache. */
export function useSaveData(id: string) {
  const apply = useApplyAnswer(id);
  return useCallback(
    async (podaci: DataItem[]) => {
      const answer = await saveActivityData(id, podaci);
      await apply(answer);
      return answer;
    },
    [id, apply],
  );
}

/** The public-authority holders (GET /api/ijo); an empty list while the endpoint does not exist. */
export function useHoldersQuery(enabled = true) {
  return useQuery({
    queryKey: HOLDERS_KEY,
    queryFn: ({ signal }) => listHolders(signal),
    enabled,
    staleTime: 60_000,
  });
}
