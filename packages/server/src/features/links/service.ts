import { asTyped, CONTRACTS, transliterate, USERS } from '@trasa/domain';
import { and, asc, eq, inArray, ne, sql } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import { clusters, contractClusters, contractFiles, contracts } from '../../db/schema-clusters.js';
import { writeLog } from '../../platform/audit.js';
import type { Actor } from '../../platform/auth.js';
import type { Executor } from '../../platform/database.js';
import { badRequest, conflict, notFound } from '../../platform/errors.js';
import { onConstraint, UNIQUE_VIOLATION } from '../../platform/pgErrors.js';
import { matchCondition, searchTerms } from '../../platform/textSearch.js';
import { assertClusterVisible, clusterScopeOf, visibleClusterCondition } from '../clusters/policy.js';
import { type LocationOption, presentOption } from '../clusters/service.js';
import type { KindDef } from '../contracts/kinds.js';
import { isFinished } from '../contracts/policy.js';
import { type ContractBrief, type ContractFileDto, contractColumns, presentContractBrief, presentFile } from '../contracts/presenter.js';

export type RequestInfo = { ip: string; url: string };

const unknownCluster = () => badRequest(USERS.invalidOption, { lokacije: USERS.invalidOption });

async function lockContract(tx: Executor, def: KindDef, id: string) {
  const [row] = await tx
    .select(contractColumns)
    .from(contracts)
    .where(and(eq(contracts.id, id), eq(contracts.kind, def.kind)))
    .for('update');
  if (!row) throw notFound();
  return row;
}

/**
 * PATCH /api/link/location-to-{route}/:id: links the clusters to the contract. A cluster under another
 * contract of the same kind moves to this one (a cluster has one contract of each kind), unless that
 * contract is finished: a finished contract keeps its clusters.
 */
export async function linkLocations(
  ctx: AppContext,
  actor: Actor,
  def: KindDef,
  contractId: string,
  lokacije: string[],
  req: RequestInfo,
): Promise<string> {
  const ids = [...new Set(lokacije)].sort();
  return ctx.db.transaction(async (tx) => {
    const contract = await lockContract(tx, def, contractId);
    if (isFinished(contract)) throw badRequest(CONTRACTS.finishedLink);
    // Clusters locked in id order: concurrent links of one cluster run one after the other.
    const found = await tx
      .select({ id: clusters.id, naziv: clusters.naziv })
      .from(clusters)
      .where(inArray(clusters.id, ids))
      .orderBy(asc(clusters.id))
      .for('update');
    if (found.length !== ids.length) throw unknownCluster();
    const previous = await tx
      .select({ clusterId: contractClusters.clusterId, ...contractColumns })
      .from(contractClusters)
      .innerJoin(contracts, eq(contracts.id, contractClusters.contractId))
      .where(
        and(inArray(contractClusters.clusterId, ids), eq(contractClusters.kind, def.kind), ne(contractClusters.contractId, contractId)),
      );
    if (previous.some((p) => isFinished(p))) throw badRequest(CONTRACTS.finished, { lokacije: CONTRACTS.finished });
    if (previous.length > 0) {
      await tx
        .delete(contractClusters)
        .where(
          and(inArray(contractClusters.clusterId, ids), eq(contractClusters.kind, def.kind), ne(contractClusters.contractId, contractId)),
        );
    }
    await onConstraint(
      () =>
        tx
          .insert(contractClusters)
          .values(ids.map((clusterId) => ({ contractId, clusterId, kind: def.kind })))
          .onConflictDoNothing({ target: [contractClusters.contractId, contractClusters.clusterId] }),
      { [UNIQUE_VIOLATION]: () => conflict(CONTRACTS.linkFailed) },
    );
    const moved =
      previous.length > 0 ? ` (premešteni sa: ${[...new Set(previous.map((p) => p.naziv))].map((n) => asTyped(n)).join(', ')})` : '';
    await writeLog(tx, {
      actor,
      ...req,
      message: `Korisnik ${asTyped(actor.email)} je povezao klastere ${found.map((c) => asTyped(c.naziv)).join(', ')} sa ugovorom ${asTyped(contract.naziv)} (broj ${asTyped(contract.broj)})${moved}.`,
    });
    return CONTRACTS.locationAdded;
  });
}

/** PATCH /api/link/unlink{suffix}/:id: 404 when the cluster is not linked to this contract. */
export async function unlinkLocation(
  ctx: AppContext,
  actor: Actor,
  def: KindDef,
  contractId: string,
  lokacija: string,
  req: RequestInfo,
): Promise<string> {
  return ctx.db.transaction(async (tx) => {
    const contract = await lockContract(tx, def, contractId);
    if (isFinished(contract)) throw badRequest(CONTRACTS.finished);
    const [removed] = await tx
      .delete(contractClusters)
      .where(and(eq(contractClusters.contractId, contractId), eq(contractClusters.clusterId, lokacija)))
      .returning({ clusterId: contractClusters.clusterId });
    if (!removed) throw notFound();
    const [cluster] = await tx.select({ naziv: clusters.naziv }).from(clusters).where(eq(clusters.id, lokacija));
    await writeLog(tx, {
      actor,
      ...req,
      message: `Korisnik ${asTyped(actor.email)} je uklonio klaster ${asTyped(cluster?.naziv ?? lokacija)} sa ugovora ${asTyped(contract.naziv)} (broj ${asTyped(contract.broj)}).`,
    });
    return CONTRACTS.locationRemoved;
  });
}

/**
 * GET /api/link/documents{suffix}/location?locationId: the documents of the cluster's contract of this
 * kind, for whoever sees the cluster (404 otherwise).
 */
export async function documentsOfLocation(
  ctx: AppContext,
  actor: Actor,
  def: KindDef,
  locationId: string,
): Promise<{ fajlovi: ContractFileDto[]; contract: ContractBrief | null }> {
  await assertClusterVisible(ctx.db, actor, locationId);
  const [contract] = await ctx.db
    .select(contractColumns)
    .from(contractClusters)
    .innerJoin(contracts, eq(contracts.id, contractClusters.contractId))
    .where(and(eq(contractClusters.clusterId, locationId), eq(contractClusters.kind, def.kind)))
    .limit(1);
  if (!contract) return { fajlovi: [], contract: null };
  const files = await ctx.db
    .select()
    .from(contractFiles)
    .where(eq(contractFiles.contractId, contract.id))
    .orderBy(contractFiles.createdAt, contractFiles.id);
  return { fajlovi: files.map(presentFile), contract: presentContractBrief(contract) };
}

/** The linking pickers' limit (spec 2 §9: pickers load up to 1000). */
const AUTOCOMPLETE_LIMIT = 1000;

/**
 * GET /api/link/get/autocomplete/locations?value: the clusters matching the typed text, in either script,
 * that the caller sees (the Admin every one; spec 3 §7's inventory keepers call it too: their visible ones).
 */
export async function autocompleteLocations(ctx: AppContext, actor: Actor, value: string): Promise<{ locations: LocationOption[] }> {
  const terms = searchTerms({ eng: value, srb: value.trim() ? transliterate(value) : '' });
  const scope = await clusterScopeOf(ctx.db, actor);
  const rows = await ctx.db
    .select({ id: clusters.id, naziv: clusters.naziv })
    .from(clusters)
    .where(and(visibleClusterCondition(scope, clusters.id), matchCondition(clusters.searchText, terms) ?? sql`true`))
    .orderBy(clusters.naziv, clusters.id)
    .limit(AUTOCOMPLETE_LIMIT);
  return { locations: rows.map(presentOption) };
}
