import { appPath } from '@trasa/domain';
import { useLocation } from 'react-router';

/** The cluster list opens a cluster with this state (spec 2 §2: from=LOKACIJE). */
export const FROM_CLUSTER_LIST = { from: 'LOKACIJE' } as const;

/** The detail is reachable only from the list; opened any other way it goes back to /app/klasteri. */
export function useCameFromClusterList(): boolean {
  const { state } = useLocation();
  return typeof state === 'object' && state !== null && 'from' in state && state.from === FROM_CLUSTER_LIST.from;
}

export function clusterDetailPath(id: string): string {
  return appPath('cluster', { id });
}
