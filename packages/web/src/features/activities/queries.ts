import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { DATA_KEYS } from '@trasa/domain';
import { useCallback } from 'react';
import {
  type ActivityAnswer,
  type ActivityDetailResponse,
  type ActivityDto,
  type DataItem,
  getActivity,
  listHolders,
  stateOf,
} from '../../api/activities';
import { statusOf } from '../../api/errors';
import { isOnline } from '../../offline/network';
import { submit } from '../../offline/submit';
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
 * How long an answer counts as fresh when a screen mounts: the call the render started (or src/opening.ts's
 * early answer) is often answered before React commits the screen, and the mount would ask again — the
 * activity twice per visit. An invalidation (a change saved, sent from the queue) refetches regardless.
 */
const FRESH_ON_MOUNT_MS = 5_000;

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
  return useQuery({ ...activityQuery(id), enabled: !!id, staleTime: FRESH_ON_MOUNT_MS });
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

/** A save kept on the device (no network): sent later by the queue (offline/queue.ts). */
export const QUEUED = 'queued' as const;

const sameItem = (a: DataItem, b: DataItem) =>
  a.key === b.key && (a.ref ?? null) === (b.ref ?? null) && (a.key !== DATA_KEYS.extraFee || a.naziv === b.naziv);

/** The items as the server will keep them once the queued save is sent: the same item replaced, an empty one removed. */
export function withData(podaci: readonly DataItem[], changes: readonly DataItem[]): DataItem[] {
  const list = [...podaci];
  for (const change of changes) {
    const i = list.findIndex((d) => sameItem(d, change));
    const empty = change.vrednost === null || change.vrednost === undefined || String(change.vrednost).trim() === '';
    if (i >= 0) list.splice(i, 1);
    if (!empty) list.splice(i >= 0 ? i : list.length, 0, change);
  }
  return list;
}

/**
 * PATCH /api/activity/{id} with data items and the state the screen shows; the answer's activity goes into
 * the cache. Without a network the save is kept on the device (QUEUED) and the cache shows the values as
 * typed until the queue sends them.
 */
export function useSaveData(activity: Pick<ActivityDto, '_id' | 'kratakNaziv' | 'naziv' | 'status' | 'revizija' | 'lokacija'>) {
  const { _id: id, kratakNaziv, naziv, status, revizija } = activity;
  const cluster = activity.lokacija.naziv;
  const apply = useApplyAnswer(id);
  const queryClient = useQueryClient();
  return useCallback(
    async (podaci: DataItem[]): Promise<ActivityAnswer | typeof QUEUED> => {
      const result = await submit<ActivityAnswer>({
        activityId: id,
        title: `${kratakNaziv} - ${naziv}`,
        cluster,
        stanje: stateOf({ status, revizija }),
        change: { kind: 'data', podaci },
      });
      if ('sent' in result) {
        await apply(result.sent);
        return result.sent;
      }
      queryClient.setQueryData<ActivityDetailResponse>(activityKey(id), (old) =>
        old ? { ...old, activity: { ...old.activity, podaci: withData(old.activity.podaci, podaci) } } : old,
      );
      return QUEUED;
    },
    [id, kratakNaziv, naziv, cluster, status, revizija, apply, queryClient],
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
