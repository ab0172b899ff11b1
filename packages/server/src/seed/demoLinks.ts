import { and, eq, inArray, ne, notInArray } from 'drizzle-orm';
import { clusterGroups, clusters, contractClusters, contractGroups, contracts } from '../db/schema-clusters.js';
import type { Executor } from '../platform/database.js';

/** Demo clusters under no contract at all (seed/demoActivities.ts): their workflow can't start. */
export const DEMO_CLUSTERS_WITHOUT_CONTRACT = ['Kosjerić - Seča Reka'];

/**
 * Links the demo clusters to the demo contracts, as an Admin would on the linking screens: every cluster
 * to the general contract in progress, and to each typed contract (in progress) that one of its
 * responsible groups holds. A cluster keeps a link it already has of a kind. Running it twice adds nothing.
 */
export async function linkDemoClusters(db: Executor): Promise<{ links: number }> {
  const open = await db.select().from(contracts).where(ne(contracts.status, 'Završen'));
  const all = await db.select({ id: clusters.id }).from(clusters).where(notInArray(clusters.naziv, DEMO_CLUSTERS_WITHOUT_CONTRACT));
  const left = new Set(all.map((c) => c.id));
  const existing = await db.select().from(contractClusters);
  const has = new Set(existing.map((l) => `${l.clusterId}:${l.kind}`));
  const rows: (typeof contractClusters.$inferInsert)[] = [];
  const add = (contractId: string, clusterId: string, kind: string) => {
    if (has.has(`${clusterId}:${kind}`)) return;
    has.add(`${clusterId}:${kind}`);
    rows.push({ contractId, clusterId, kind });
  };
  const general = open.find((c) => c.kind === 'contract');
  if (general) for (const c of all) add(general.id, c.id, 'contract');
  for (const contract of open.filter((c) => c.kind !== 'contract')) {
    const groupIds = (
      await db.select({ id: contractGroups.groupId }).from(contractGroups).where(eq(contractGroups.contractId, contract.id))
    ).map((g) => g.id);
    if (!groupIds.length) continue;
    const held = await db
      .selectDistinct({ id: clusterGroups.clusterId })
      .from(clusterGroups)
      .where(and(inArray(clusterGroups.groupId, groupIds)));
    for (const c of held) if (left.has(c.id)) add(contract.id, c.id, contract.kind);
  }
  if (rows.length) await db.insert(contractClusters).values(rows).onConflictDoNothing();
  return { links: rows.length };
}
