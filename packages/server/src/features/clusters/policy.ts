import { and, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { groups } from '../../db/schema.js';
import { clusterGroups, clusters, contractClusters, contractGroups } from '../../db/schema-clusters.js';
import type { Actor } from '../../platform/auth.js';
import type { Executor } from '../../platform/database.js';
import { notFound } from '../../platform/errors.js';
import { subtreeIds } from '../groups/policy.js';

/**
 * Who sees which clusters (server-behaviour.md "Groups, visibility and scope";
 * docs/api/clusters-contracts.md "Visibility of clusters"), in one place for clusters, contracts,
 * links, documents and topics.
 *
 * A cluster is visible to an actor when the actor is Admin; or the actor's own group has `sveVideci`;
 * or one of "the actor's groups" is among the cluster's `odgovoran` (cluster_groups) or among `grupe`
 * (contract_groups) of a contract the cluster is linked to (contract_clusters). The actor's groups: a
 * Zaposleni's own group; a Rukovodilac's own group and all its descendants. A Gost, or anybody without
 * a group, sees none. An id outside the visibility answers 404 exactly like a missing one.
 *
 * Usage:
 *   const scope = await clusterScopeOf(db, actor);
 *   db.select().from(clusters).where(visibleClusterCondition(scope));               // lists
 *   db.select().from(topics).where(visibleClusterCondition(scope, topics.clusterId)); // other tables
 *   await assertClusterVisible(db, actor, clusterId);                               // detail/mutation: 404
 */
export type ClusterScope = { all: true } | { all: false; groupIds: string[] };

/** The actor's cluster scope (one query for a Rukovodilac's subtree, none otherwise). */
export async function clusterScopeOf(db: Executor, actor: Actor): Promise<ClusterScope> {
  if (actor.role === 'Admin') return { all: true };
  if (actor.role === 'Gost' || !actor.group) return { all: false, groupIds: [] };
  if (actor.group.sveVideci) return { all: true };
  if (actor.role === 'Rukovodilac') return { all: false, groupIds: await subtreeIds(db, actor.group.id) };
  return { all: false, groupIds: [actor.group.id] };
}

/**
 * An SQL condition: the cluster whose id is `clusterId` (default `clusters.id`; pass e.g.
 * `topics.clusterId` or `contractClusters.clusterId` to filter other tables) is visible in `scope`.
 * Uncorrelated subqueries, so it stays cheap on lists.
 */
export function visibleClusterCondition(scope: ClusterScope, clusterId: AnyPgColumn | SQL = clusters.id): SQL {
  if (scope.all) return sql`true`;
  if (scope.groupIds.length === 0) return sql`false`;
  const responsible = sql`select ${clusterGroups.clusterId} from ${clusterGroups} where ${inArray(clusterGroups.groupId, scope.groupIds)}`;
  const byContract = sql`select ${contractClusters.clusterId} from ${contractClusters} join ${contractGroups} on ${eq(contractGroups.contractId, contractClusters.contractId)} where ${inArray(contractGroups.groupId, scope.groupIds)}`;
  return sql`(${clusterId} in (${responsible}) or ${clusterId} in (${byContract}))`;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether the cluster exists and is visible (false for a malformed id, never an error). */
export async function isClusterVisible(db: Executor, scopeOrActor: ClusterScope | Actor, clusterId: string): Promise<boolean> {
  if (!UUID.test(clusterId)) return false;
  const scope = 'all' in scopeOrActor ? scopeOrActor : await clusterScopeOf(db, scopeOrActor);
  const [row] = await db
    .select({ id: clusters.id })
    .from(clusters)
    .where(and(eq(clusters.id, clusterId), visibleClusterCondition(scope)))
    .limit(1);
  return !!row;
}

/** The cluster exists and is visible to the actor (or in the scope); otherwise 404 (also for a malformed id). */
export async function assertClusterVisible(db: Executor, scopeOrActor: ClusterScope | Actor, clusterId: string): Promise<void> {
  if (!(await isClusterVisible(db, scopeOrActor, clusterId))) throw notFound();
}

/**
 * The groups whose members see the cluster by the group itself (not through a manager's subtree): its
 * responsible groups, the groups of the contracts it is linked to, and the groups that see everything.
 * The reserved Admin group is never among them. Topics are given only to these (they can answer).
 */
export function groupsSeeingClusterCondition(clusterId: string | AnyPgColumn): SQL {
  const responsible = sql`select ${clusterGroups.groupId} from ${clusterGroups} where ${clusterGroups.clusterId} = ${clusterId}`;
  const byContract = sql`select ${contractGroups.groupId} from ${contractClusters} join ${contractGroups} on ${eq(contractGroups.contractId, contractClusters.contractId)} where ${contractClusters.clusterId} = ${clusterId}`;
  return sql`(not ${groups.reserved} and (${groups.sveVideci} or ${groups.id} in (${responsible}) or ${groups.id} in (${byContract})))`;
}
