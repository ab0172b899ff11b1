import { appPath } from '@trasa/domain';

/** The cluster list opens a cluster with this state (spec 2 §2: from=LOKACIJE); a direct URL opens it too (issue 13). */
export const FROM_CLUSTER_LIST = { from: 'LOKACIJE' } as const;

export function clusterDetailPath(id: string): string {
  return appPath('cluster', { id });
}
