import { CONTRACTS } from '@trasa/domain';
import { inArray, type SQL, sql } from 'drizzle-orm';
import { groups } from '../../db/schema.js';
import { contractClusters, contractGroups } from '../../db/schema-clusters.js';
import type { Actor } from '../../platform/auth.js';
import { type ClusterScope, visibleClusterCondition } from '../clusters/policy.js';

/**
 * Who sees which contracts (docs/api/clusters-contracts.md "Contracts"). An id outside the rule answers
 * 404 exactly like a missing one. The conditions name `contracts.id` in full: drizzle leaves columns
 * unqualified in a one-table select.
 */

/** Finished (spec 2 §4): status 'Završen' together with an end date. No edit, upload, file removal, link or unlink. */
export function isFinished(c: { status: string; datumZavrsetka: string | null }): boolean {
  return c.status === CONTRACTS.statusFinished && !!c.datumZavrsetka;
}

/**
 * Lists and details of /api/{route}: Admin every contract; a Zaposleni the typed contracts whose `grupe`
 * hold their group or one of its ancestors (a contract signed with the company is worked on by its teams:
 * the group tree rule of features/clusters/policy.ts), all of them when their group or an ancestor has
 * sveVideci. (The general contract's routes are Admin's alone.) A condition over `contracts`.
 */
export function readableContractCondition(actor: Actor): SQL {
  if (actor.role === 'Admin') return sql`true`;
  if (!actor.group) return sql`false`;
  if (actor.group.sveVideci) return sql`true`;
  // The group and its ancestors (UNION stops on a corrupted, cyclic tree).
  const lineage = sql`with recursive up(id) as (
      select ${actor.group.id}::uuid
      union
      select g.parent_id from ${groups} g join up on g.id = up.id where g.parent_id is not null
    ) select id from up`;
  return sql`(exists (select 1 from ${groups} g where g.id in (${lineage}) and g.sve_videci and not g.reserved)
    or exists (select 1 from ${contractGroups} cgr where cgr.contract_id = contracts.id and cgr.group_id in (${lineage})))`;
}

/**
 * The part of a kept whole list's key that names which contracts readableContractCondition lets the
 * actor see: everything, nothing, or what their group's lineage sees (the tree itself is in the
 * 'contracts' data version, migration 0027).
 */
export function readableContractScopeKey(actor: Actor): string {
  if (actor.role === 'Admin') return 'all';
  if (!actor.group) return 'none';
  if (actor.group.sveVideci) return 'all';
  return `group:${actor.group.id}`;
}

/**
 * Downloads: Admin; anybody else who can see the contract (one of the groups of their cluster scope,
 * which follows the group tree, in its `grupe`) or a cluster linked to it (the cluster visibility of
 * features/clusters/policy.ts). A condition over `contracts`.
 */
export function downloadableContractCondition(scope: ClusterScope): SQL {
  if (scope.all) return sql`true`;
  if (scope.groupIds.length === 0) return sql`false`;
  return sql`(contracts.id in (select ${contractGroups.contractId} from ${contractGroups} where ${inArray(contractGroups.groupId, scope.groupIds)})
    or contracts.id in (select ${contractClusters.contractId} from ${contractClusters} where ${visibleClusterCondition(scope, contractClusters.clusterId)}))`;
}
