import { CLUSTERS, isReservedGroupName, USERS } from '@trasa/domain';
import { and, eq, inArray, ne, sql } from 'drizzle-orm';
import { groups } from '../../db/schema.js';
import { clusterGroups, clusterSettlements, clusters, contractClusters, contracts, settlements } from '../../db/schema-clusters.js';
import type { Actor } from '../../platform/auth.js';
import type { Executor } from '../../platform/database.js';
import { badRequest, conflict } from '../../platform/errors.js';
import { onConstraint, UNIQUE_VIOLATION } from '../../platform/pgErrors.js';
import { scopeOf } from '../groups/policy.js';
import type { ClusterInput } from './schema.js';

/**
 * A cluster form's payload checked and resolved (its name free, groups the caller may give, settlements, the
 * general contract) and written as the cluster's relations.
 */

/** Texts of the cluster forms the domain does not have yet (Cyrillic, like the forms). */
export const CLUSTER_TEXTS = {
  nameTaken: 'Кластер са тим називом већ постоји.',
  settlementsOverlap: 'Исто насеље не може бити и међу насељима и међу успутним насељима.',
  finishedContract: 'Završen ugovor se ne može menjati.',
} as const;

const GENERAL: 'contract' = 'contract';

const unique = (ids: string[]) => [...new Set(ids)];
export const nameTaken = () => conflict(CLUSTER_TEXTS.nameTaken, { naziv: CLUSTER_TEXTS.nameTaken });
const invalid = (field: string) => badRequest(USERS.invalidOption, { [field]: USERS.invalidOption });
const chooseContract = () => badRequest(CLUSTERS.chooseContract, { ugovor: CLUSTERS.chooseContract });

async function assertNameFree(db: Executor, naziv: string, exceptId?: string): Promise<void> {
  const [taken] = await db
    .select({ id: clusters.id })
    .from(clusters)
    .where(and(sql`lower(${clusters.naziv}) = lower(${naziv})`, exceptId ? ne(clusters.id, exceptId) : undefined))
    .limit(1);
  if (taken) throw nameTaken();
}

export type Current = { groupIds: string[]; contract: { id: string; status: string } | null };

/**
 * The responsible groups to save: existing, not reserved (nor named Admin/Админ). An Admin assigns any;
 * a Rukovodilac adds and removes only groups of their subtree, and the cluster's groups outside it stay.
 */
async function resolveGroups(tx: Executor, actor: Actor, requested: string[], current: string[]): Promise<string[]> {
  const ids = unique(requested);
  if (ids.length > 0) {
    const found = await tx
      .select({ id: groups.id, naziv: groups.naziv, cirilica: groups.cirilica, reserved: groups.reserved })
      .from(groups)
      .where(inArray(groups.id, ids));
    const ok = found.filter((g) => !g.reserved && !isReservedGroupName(g.naziv) && !isReservedGroupName(g.cirilica));
    if (ok.length !== ids.length) throw invalid('odgovoran');
  }
  const scope = await scopeOf(tx, actor);
  if (scope.all) return ids;
  const mine = new Set(scope.groupIds);
  const kept = current.filter((id) => !mine.has(id));
  for (const id of ids) if (!mine.has(id) && !current.includes(id)) throw invalid('odgovoran');
  return unique([...ids.filter((id) => mine.has(id)), ...kept]);
}

async function assertSettlementsExist(tx: Executor, ids: string[], field: string): Promise<void> {
  if (ids.length === 0) return;
  const [found] = await tx.select({ n: sql<number>`count(*)::int` }).from(settlements).where(inArray(settlements.id, ids));
  if ((found?.n ?? 0) !== ids.length) throw invalid(field);
}

/**
 * The general contract to link: unchanged is always fine; a new one must be a general contract that is
 * not finished (its row is locked so it can't finish meanwhile); leaving a finished one is refused
 * (a finished contract's clusters don't change). `ugovor` left out keeps the current one; '' or null clears it.
 * Only an Admin changes it: the contract dropdown is theirs (GET /api/contract is Admin only), so a
 * Rukovodilac's form keeps the current contract.
 */
async function resolveContract(
  tx: Executor,
  actor: Actor,
  requested: string | null | undefined,
  current: Current['contract'],
): Promise<string | null> {
  if (actor.role !== 'Admin' || requested === undefined) return current?.id ?? null;
  if (requested === (current?.id ?? null)) return requested;
  if (current && current.status === 'Završen') throw badRequest(CLUSTER_TEXTS.finishedContract, { ugovor: CLUSTER_TEXTS.finishedContract });
  if (requested === null) return null;
  const [contract] = await tx
    .select({ id: contracts.id, kind: contracts.kind, status: contracts.status })
    .from(contracts)
    .where(eq(contracts.id, requested))
    .for('share');
  if (!contract || contract.kind !== GENERAL || contract.status === 'Završen') throw chooseContract();
  return contract.id;
}

type Resolved = {
  naziv: string;
  groupIds: string[];
  contractId: string | null;
  naselja: string[];
  usputnaNaselja: string[];
  indikativnaDuzinaKlastera: number | null;
  ugovorenaVrednostKlastera: number | null;
};

export async function resolveInput(
  tx: Executor,
  actor: Actor,
  input: ClusterInput,
  current: Current,
  exceptId?: string,
): Promise<Resolved> {
  await assertNameFree(tx, input.naziv, exceptId);
  const groupIds = await resolveGroups(tx, actor, input.odgovoran, current.groupIds);
  const naselja = unique(input.naselja);
  const usputnaNaselja = unique(input.usputnaNaselja);
  const inCluster = new Set(naselja);
  if (usputnaNaselja.some((id) => inCluster.has(id))) {
    throw badRequest(CLUSTER_TEXTS.settlementsOverlap, { usputnaNaselja: CLUSTER_TEXTS.settlementsOverlap });
  }
  await assertSettlementsExist(tx, naselja, 'naselja');
  await assertSettlementsExist(tx, usputnaNaselja, 'usputnaNaselja');
  const contractId = await resolveContract(tx, actor, input.ugovor === undefined ? undefined : input.ugovor || null, current.contract);
  return {
    naziv: input.naziv,
    groupIds,
    contractId,
    naselja,
    usputnaNaselja,
    // The form leaves an empty number out: saving the form without it clears it.
    indikativnaDuzinaKlastera: input.indikativnaDuzinaKlastera,
    ugovorenaVrednostKlastera: input.ugovorenaVrednostKlastera,
  };
}

/** Replaces the cluster's groups, settlements and general-contract link with the resolved ones. */
export async function writeRelations(tx: Executor, clusterId: string, r: Resolved, current: Current): Promise<void> {
  await tx.delete(clusterGroups).where(eq(clusterGroups.clusterId, clusterId));
  if (r.groupIds.length > 0) await tx.insert(clusterGroups).values(r.groupIds.map((groupId) => ({ clusterId, groupId })));
  await tx.delete(clusterSettlements).where(eq(clusterSettlements.clusterId, clusterId));
  const linked = [
    ...r.naselja.map((settlementId, position) => ({ clusterId, settlementId, usputno: false, position })),
    ...r.usputnaNaselja.map((settlementId, position) => ({ clusterId, settlementId, usputno: true, position })),
  ];
  if (linked.length > 0) await tx.insert(clusterSettlements).values(linked);
  if (r.contractId !== (current.contract?.id ?? null)) {
    await tx.delete(contractClusters).where(and(eq(contractClusters.clusterId, clusterId), eq(contractClusters.kind, GENERAL)));
    if (r.contractId) {
      await onConstraint(() => tx.insert(contractClusters).values({ contractId: r.contractId as string, clusterId, kind: GENERAL }), {
        [UNIQUE_VIOLATION]: chooseContract,
      });
    }
  }
}

export async function currentOf(tx: Executor, clusterId: string): Promise<Current> {
  const groupRows = await tx.select({ id: clusterGroups.groupId }).from(clusterGroups).where(eq(clusterGroups.clusterId, clusterId));
  const [contract] = await tx
    .select({ id: contracts.id, status: contracts.status })
    .from(contractClusters)
    .innerJoin(contracts, eq(contracts.id, contractClusters.contractId))
    .where(and(eq(contractClusters.clusterId, clusterId), eq(contractClusters.kind, GENERAL)))
    .limit(1);
  return { groupIds: groupRows.map((g) => g.id), contract: contract ?? null };
}

/** Cluster names are unique regardless of case; creating serialises on the name so the check holds. */
export const lockName = (tx: Executor, naziv: string) =>
  tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`trasa:cluster:${naziv.toLowerCase()}`}))`);
