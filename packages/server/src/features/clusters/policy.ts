import { and, eq, inArray, type Placeholder, type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { groups } from '../../db/schema.js';
import { clusterGroups, clusters, contractClusters, contractGroups } from '../../db/schema-clusters.js';
import type { Actor } from '../../platform/auth.js';
import { type Executor, namedStatement, runNamed } from '../../platform/database.js';
import { notFound } from '../../platform/errors.js';
import { actorVersion, kept } from '../../platform/kept/store.js';
import { sqlLiteral } from '../../platform/sqlText.js';

/**
 * Who sees which clusters (server-behaviour.md "Groups, visibility and scope";
 * docs/api/clusters-contracts.md "Visibility of clusters"; docs/decisions.md "Visibility follows the
 * group tree"), in one place for clusters, contracts, links, documents and topics.
 *
 * A group sees a cluster when the group or one of its ancestors is among the cluster's `odgovoran`
 * (cluster_groups) or among `grupe` (contract_groups) of a contract the cluster is linked to
 * (contract_clusters): a child group is a team of the same organisation and works on what the company
 * was given. A group with `sveVideci`, or with an ancestor that has it (the flag the parent passes
 * down), sees every cluster.
 *
 * An actor sees: Admin everything; a Zaposleni what their group sees; a Rukovodilac what any group of
 * their subtree sees. The actor's "groups" in a scope are therefore: a Zaposleni's group and its
 * ancestors; a Rukovodilac's subtree (their group and its descendants) and the ancestors of their
 * group (a descendant's ancestors are in the subtree or among those). A Gost, or anybody without a
 * group, sees none. An id outside the visibility answers 404 exactly like a missing one.
 *
 * Usage:
 *   const scope = await clusterScopeOf(db, actor);                                  // once per request
 *   db.select().from(clusters).where(visibleClusterCondition(scope));               // lists
 *   db.select().from(topics).where(visibleClusterCondition(scope, topics.clusterId)); // other tables
 *   await assertClusterVisible(db, actor, clusterId);                               // detail/mutation: 404
 */
export type ClusterScope =
  | { all: true }
  | {
      all: false;
      groupIds: string[];
      /**
       * The ids of the clusters the groups see, joined by commas (`id,id,…`), where they were read for a
       * scope kept by version (clusterScopeOf): the lists pass them as one text parameter (keptIdsArray)
       * instead of working them out in each statement. Absent: the statements work them out.
       */
      clusterIds?: string;
    };

/**
 * The groups whose clusters the actor sees, with their sveVideci flag: the group and its ancestors
 * (walking up parent_id) and, for a manager, its descendants too. UNION stops on a corrupted, cyclic
 * tree; the reserved group is never among them.
 */
export function scopeGroupsQuery(groupId: string | Placeholder, withDescendants: boolean): SQL {
  const down = withDescendants
    ? sql`, down(id) as (
        select id from ${groups} where id = ${groupId}
        union
        select g.id from ${groups} g join down on g.parent_id = down.id
      )`
    : sql``;
  const ids = withDescendants ? sql`select id from up union select id from down` : sql`select id from up`;
  return sql`
    with recursive up(id) as (
      select id from ${groups} where id = ${groupId}
      union
      select g.parent_id from ${groups} g join up on g.id = up.id where g.parent_id is not null
    )${down}
    select g.id, g.sve_videci from ${groups} g where g.id in (${ids}) and not g.reserved`;
}

/**
 * The scope's groups as two named prepared statements (a Zaposleni's, a Rukovodilac's), written once:
 * they run on most requests of a user with a group (issue 9; platform/database.ts namedStatement).
 */
const scopeGroupStatements = {
  group: namedStatement<{ id: string; sve_videci: boolean }>('scope_groups', scopeGroupsQuery(sql.placeholder('group'), false)),
  subtree: namedStatement<{ id: string; sve_videci: boolean }>('scope_groups_subtree', scopeGroupsQuery(sql.placeholder('group'), true)),
};

/** The scope's groups of `groupId` (its lineage; with its subtree for a manager), read with the named statement. */
export async function scopeGroups(db: Executor, groupId: string, withDescendants: boolean): Promise<{ id: string; sveVideci: boolean }[]> {
  const result = await runNamed(db, scopeGroupStatements[withDescendants ? 'subtree' : 'group'], { group: groupId });
  return result.rows.map((r) => ({ id: r.id, sveVideci: r.sve_videci }));
}

/**
 * Cluster scopes kept under the versions the request read with its user (platform/kept kind
 * 'clusterScope'), by group and kind: the groups' (Actor.versions' 'groups': the scope's groups and their
 * flags are read from the groups table alone) and the visibility's (Actor.versions' 'visibility': which
 * clusters those groups see), with the epoch.
 */
const keptScopes = kept<ClusterScope>('clusterScope');

/** The clusters the groups see (visibleClusterIds' rows), in id order, joined by commas. */
async function readVisibleClusterIds(db: Executor, groupIds: string[]): Promise<string> {
  const result = await db.execute<{ ids: string }>(
    sql`select coalesce(string_agg(v.id::text, ',' order by v.id), '') as ids from (${visibleClusterIds({ all: false, groupIds })}) v(id)`,
  );
  return result.rows[0]?.ids ?? '';
}

/**
 * The kept ids as a uuid[] in the statement: sent as text and split there. `$n::uuid[]` made PostgreSQL
 * parse an array literal (array_in) — 0.45 ms for 300 ids on PostgreSQL 15, against 0.17 ms for the
 * split and cast. Used only as `select unnest(…)` (the planner takes its length as the rows, nothing
 * more): `x = any(<the known array>)` made it weigh every id on every path (planning 0.5 → 2.2 ms for a
 * topic search) and choose worse plans (the search's 3,333 matches read and filtered instead of ANDed
 * with the scope's index ranges).
 */
function keptIdsArray(ids: string): SQL {
  return sql`string_to_array(${ids}, ',')::uuid[]`;
}

/**
 * The actor's cluster scope, computed once per request (one query; none for Admin, Gost, no group or
 * an own group with sveVideci). Everything when any group of the scope has sveVideci: for a Zaposleni
 * their group or an ancestor (inherited); for a Rukovodilac also a descendant (a manager sees what
 * any team of theirs sees; the groups service keeps a subtree's flag uniform anyway).
 */
export async function clusterScopeOf(db: Executor, actor: Actor): Promise<ClusterScope> {
  if (actor.role === 'Admin') return { all: true };
  if (actor.role === 'Gost' || !actor.group) return { all: false, groupIds: [] };
  if (actor.group.sveVideci) return { all: true };
  const group = actor.group.id;
  const subtree = actor.role === 'Rukovodilac';
  // Kept with its visible clusters under both versions read with the user; without them (an actor built
  // from a row read elsewhere), or where nothing is kept, its groups are read and the statements work the
  // clusters out themselves.
  const version = actorVersion('clusterScope', actor);
  const keeping = version != null && keptScopes.keeps(db);
  return keptScopes.remember(db, `${group}:${subtree}`, version, async () => {
    const rows = await scopeGroups(db, group, subtree);
    if (rows.some((g) => g.sveVideci)) return { all: true };
    const groupIds = rows.map((g) => g.id);
    if (!keeping || groupIds.length === 0) return { all: false, groupIds };
    return { all: false, groupIds, clusterIds: await readVisibleClusterIds(db, groupIds) };
  });
}

/**
 * The actor's scope for a statement that works it out itself instead of reading it first (a workflow
 * step's lock, issue 9: one round trip less): everything or nothing as a constant, or clusterScopeOf's
 * query of the scope's groups (`id`, `sve_videci`) to place in the statement's WITH. Meant for a
 * statement about one cluster (correlated EXISTS on its keys); a list's condition over many rows plans
 * better with the ids read first (visibleClusterCondition): the planner can't see how few groups the
 * query yields and scans cluster_groups whole.
 */
/** `group` and `subtree`: what `groups` starts from (a prepared statement takes the group as a parameter). */
export type ScopeQuery = { fixed: boolean } | { groups: SQL; group: string; subtree: boolean };
/** Everything (the Admin's scope; the system's). */
export const SCOPE_ALL: ScopeQuery = { fixed: true };

export function scopeQueryOf(actor: Actor): ScopeQuery {
  if (actor.role === 'Admin') return SCOPE_ALL;
  if (actor.role === 'Gost' || !actor.group) return { fixed: false };
  if (actor.group.sveVideci) return SCOPE_ALL;
  const subtree = actor.role === 'Rukovodilac';
  return { groups: scopeGroupsQuery(actor.group.id, subtree), group: actor.group.id, subtree };
}

/**
 * For a statement about one cluster (`cluster`, e.g. `c.id`) that starts with `with`: the CTE of the
 * scope's groups (empty for a constant scope), whether the scope is everything, and whether that cluster
 * is visible in it — visibleClusterCondition's answer.
 */
export function scopeOfOneCluster(scope: ScopeQuery, cluster: SQL): { cte: SQL; all: SQL; visible: SQL } {
  if ('fixed' in scope) {
    const constant = sqlLiteral(scope.fixed);
    return { cte: sql``, all: constant, visible: constant };
  }
  const all = sql`exists (select 1 from scope_groups where sve_videci)`;
  return {
    cte: sql`scope_groups as (${scope.groups}),`,
    all,
    visible: sql`(${all}
      or exists (select 1 from ${clusterGroups} cg where cg.cluster_id = ${cluster} and cg.group_id in (select id from scope_groups))
      or exists (select 1 from ${contractClusters} cc join ${contractGroups} k on k.contract_id = cc.contract_id
        where cc.cluster_id = ${cluster} and k.group_id in (select id from scope_groups)))`,
  };
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

/**
 * visibleClusterCondition for a statement prepared once: the scope's group ids are one parameter
 * (`groupIds`, a uuid[]; an empty array sees nothing) instead of a list written into the text. The
 * same rule; the caller decides the everything scope (no condition) before.
 */
export function visibleToGroupsCondition(groupIds: SQL | Placeholder, clusterId: AnyPgColumn | SQL = clusters.id): SQL {
  // `in (select unnest(…))`, not `= any(…)`: a generic plan (a prepared statement's, after five runs)
  // can't see the array and estimated `= any($1)` at a third of cluster_groups, scanning it whole (and
  // contract_clusters) at 5 ms; unnest is estimated at a few rows and walks the group indexes.
  const ids = sql`select unnest(${groupIds}::uuid[])`;
  return sql`(${clusterId} in (select ${clusterGroups.clusterId} from ${clusterGroups} where ${clusterGroups.groupId} in (${ids}))
    or ${clusterId} in (select ${contractClusters.clusterId} from ${contractClusters} join ${contractGroups} on ${eq(contractGroups.contractId, contractClusters.contractId)}
      where ${contractGroups.groupId} in (${ids})))`;
}

/**
 * The ids of the clusters visible in a limited scope, as one subquery (a UNION of the responsible and
 * the contract groups' clusters), for `x = any(array(…))` where an index on the cluster id should do the
 * work (visibleClusterCondition's OR of two subqueries makes PostgreSQL filter every row instead).
 */
export function visibleClusterIds(scope: { all: false; groupIds: string[]; clusterIds?: string }): SQL {
  if (scope.groupIds.length === 0) return sql`select null::uuid where false`;
  if (scope.clusterIds !== undefined) return sql`select unnest(${keptIdsArray(scope.clusterIds)})`;
  return sql`select ${clusterGroups.clusterId} from ${clusterGroups} where ${inArray(clusterGroups.groupId, scope.groupIds)}
    union select ${contractClusters.clusterId} from ${contractClusters} join ${contractGroups} on ${eq(contractGroups.contractId, contractClusters.contractId)} where ${inArray(contractGroups.groupId, scope.groupIds)}`;
}

/**
 * `clusterId = any(the visible clusters)` for a limited scope: one index range per cluster on an index
 * that starts with the cluster's id, the array an InitPlan's value (visibleClusterIds: the kept ids
 * unnested, else worked out by the statement), so the plans stay the ones the lists were tuned with.
 */
export function inVisibleClusters(scope: { all: false; groupIds: string[]; clusterIds?: string }, clusterId: AnyPgColumn | SQL): SQL {
  return sql`${clusterId} = any(array(${visibleClusterIds(scope)}))`;
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
 * The groups whose members see the cluster by the group itself (not through a manager's subtree), a
 * condition over `groups`: the cluster's responsible groups, the groups of the contracts it is linked
 * to, the groups with sveVideci, and every descendant of those (teams of the organisation, and the
 * flag passed down). Walks down parent_id from them (UNION stops on a cyclic tree). The reserved Admin
 * group is never among them. Topics are given only to these (they can answer).
 */
export function groupsSeeingClusterCondition(clusterId: string | AnyPgColumn): SQL {
  const responsible = sql`select ${clusterGroups.groupId} from ${clusterGroups} where ${clusterGroups.clusterId} = ${clusterId}`;
  const byContract = sql`select ${contractGroups.groupId} from ${contractClusters} join ${contractGroups} on ${eq(contractGroups.contractId, contractClusters.contractId)} where ${contractClusters.clusterId} = ${clusterId}`;
  const seeing = sql`with recursive seeing(id) as (
      select s.id from ${groups} s where s.sve_videci or s.id in (${responsible}) or s.id in (${byContract})
      union
      select c.id from ${groups} c join seeing on c.parent_id = seeing.id
    ) select id from seeing`;
  return sql`(not ${groups.reserved} and ${groups.id} in (${seeing}))`;
}
