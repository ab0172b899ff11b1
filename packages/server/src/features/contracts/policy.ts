import { CONTRACTS } from '@trasa/domain';
import { and, eq, inArray, type Placeholder, type SQL, sql } from 'drizzle-orm';
import { contractClusters, contractGroups, contracts } from '../../db/schema-clusters.js';
import type { Actor } from '../../platform/auth.js';
import type { Executor } from '../../platform/database.js';
import { type ClusterScope, scopeGroups, visibleClusterCondition } from '../clusters/policy.js';

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
 * Which contracts of the typed lists an actor reads (readableContractCondition): every one, or those
 * whose `grupe` hold one of `ids` — the actor's group and its ancestors (no ids: none).
 */
export type ContractLineage = { all: true } | { all: false; ids: string[] };

/**
 * The actor's contract lineage, once per request (issue 15 item 3; docs/decisions.md "Contracts lists:
 * the lineage read once"): Admin, or an own group with sveVideci, everything; no group nothing;
 * otherwise the group and its ancestors (a Rukovodilac's too: their own group's, not their subtree's)
 * with clusters/policy.ts's named statement of a Zaposleni's scope groups — everything when one of them
 * has sveVideci (the reserved Admin group is never among them, and no contract's `grupe` holds it).
 */
export async function contractLineageOf(db: Executor, actor: Actor): Promise<ContractLineage> {
  if (actor.role === 'Admin') return { all: true };
  if (!actor.group) return { all: false, ids: [] };
  if (actor.group.sveVideci) return { all: true };
  const rows = await scopeGroups(db, actor.group.id, false);
  if (rows.some((g) => g.sveVideci)) return { all: true };
  return { all: false, ids: rows.map((g) => g.id) };
}

/**
 * Lists and details of /api/{route}: Admin every contract; a Zaposleni the typed contracts whose `grupe`
 * hold their group or one of its ancestors (a contract signed with the company is worked on by its teams:
 * the group tree rule of features/clusters/policy.ts), all of them when their group or an ancestor has
 * sveVideci. (The general contract's routes are Admin's alone.) A condition over `contracts`, from the
 * lineage contractLineageOf read (the recursive CTE of the lineage, twice in each statement, was ~3 ms of
 * planning and two scans of the groups on every list and count).
 */
export function readableContractCondition(lineage: ContractLineage): SQL {
  if (lineage.all) return sql`true`;
  if (lineage.ids.length === 0) return sql`false`;
  return readableByGroupsCondition(sql`${sql.param(lineage.ids)}`);
}

/** A kind's contracts the lineage reads (the typed lists' condition, readableContractCondition). */
export function readableKindCondition(kind: string, lineage: ContractLineage): SQL {
  return and(eq(contracts.kind, kind), readableContractCondition(lineage)) as SQL;
}

/**
 * readableContractCondition for a limited lineage, its group ids one uuid[] (`groupIds`: a value, or the
 * placeholder of a statement prepared once): a semi-join on contract_groups' primary key.
 */
export function readableByGroupsCondition(groupIds: SQL | Placeholder): SQL {
  return sql`exists (select 1 from ${contractGroups} cgr where cgr.contract_id = contracts.id and cgr.group_id = any(${groupIds}::uuid[]))`;
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
