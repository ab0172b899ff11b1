import { asTyped, INVENTORY, type InventoryLocationRow } from '@trasa/domain';
import { and, asc, count, eq, inArray, type SQL } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import { groups } from '../../db/schema.js';
import { activities } from '../../db/schema-activities.js';
import { clusterGroups, clusterSettlements, clusters, contractClusters, contracts, settlements } from '../../db/schema-clusters.js';
import { inventoryContractLocations, inventoryContracts, inventoryItems } from '../../db/schema-inventory.js';
import { writeLog } from '../../platform/audit.js';
import type { Actor } from '../../platform/auth.js';
import { type Executor, serbianOrder } from '../../platform/database.js';
import { conflict, notFound } from '../../platform/errors.js';
import { assertClusterVisible, clusterScopeOf } from '../clusters/policy.js';
import { assertInventoryUser, type RequestInfo } from './access.js';

/**
 * An inventory contract's locations: linked and unlinked, and their rows with what is recorded at each.
 */

/** PATCH /api/link/location-to-contract/{id} of an inventory contract: visible clusters only (404). */
export async function linkLocations(ctx: AppContext, actor: Actor, id: string, lokacije: string[], req: RequestInfo): Promise<string> {
  assertInventoryUser(actor);
  const scope = await clusterScopeOf(ctx.db, actor);
  return ctx.db.transaction(async (tx) => {
    const [row] = await tx.select().from(inventoryContracts).where(eq(inventoryContracts.id, id)).for('update');
    if (!row) throw notFound();
    const unique = [...new Set(lokacije)];
    for (const clusterId of unique) await assertClusterVisible(tx, scope, clusterId);
    await tx
      .insert(inventoryContractLocations)
      .values(unique.map((clusterId) => ({ contractId: id, clusterId })))
      .onConflictDoNothing();
    const names = await tx.select({ naziv: clusters.naziv }).from(clusters).where(inArray(clusters.id, unique));
    await writeLog(tx, {
      actor,
      ...req,
      message: `Korisnik ${asTyped(actor.email)} je povezao lokacije ${names.map((n) => asTyped(n.naziv)).join(', ')} sa ugovorom za inventar ${asTyped(row.naziv)}.`,
    });
    return INVENTORY.locationsLinked;
  });
}

/** PATCH /api/link/unlink/{id} of an inventory contract: refused while the location has items under it. */
export async function unlinkLocation(ctx: AppContext, actor: Actor, id: string, lokacija: string, req: RequestInfo): Promise<string> {
  assertInventoryUser(actor);
  const scope = await clusterScopeOf(ctx.db, actor);
  return ctx.db.transaction(async (tx) => {
    const [row] = await tx.select().from(inventoryContracts).where(eq(inventoryContracts.id, id)).for('update');
    if (!row) throw notFound();
    await assertClusterVisible(tx, scope, lokacija);
    const [items] = await tx
      .select({ n: count() })
      .from(inventoryItems)
      .where(and(eq(inventoryItems.contractId, id), eq(inventoryItems.clusterId, lokacija)));
    if ((items?.n ?? 0) > 0) throw conflict(INVENTORY.locationHasItems(items?.n ?? 0));
    const gone = await tx
      .delete(inventoryContractLocations)
      .where(and(eq(inventoryContractLocations.contractId, id), eq(inventoryContractLocations.clusterId, lokacija)))
      .returning();
    if (gone.length === 0) throw notFound();
    const [c] = await tx.select({ naziv: clusters.naziv }).from(clusters).where(eq(clusters.id, lokacija));
    await writeLog(tx, {
      actor,
      ...req,
      message: `Korisnik ${asTyped(actor.email)} je uklonio lokaciju ${asTyped(c?.naziv ?? '')} sa ugovora za inventar ${asTyped(row.naziv)}.`,
    });
    return INVENTORY.locationUnlinked;
  });
}

/**
 * Locations as the inventory screens list them (spec 3 §3 "Inventory location row"), for a set of
 * cluster ids (already filtered by visibility), in name order. `contractId` counts that contract's items.
 */
export async function locationRows(db: Executor, clusterIds: string[], contractId?: string): Promise<InventoryLocationRow[]> {
  if (clusterIds.length === 0) return [];
  const base = await db
    .select({ id: clusters.id, naziv: clusters.naziv, email: clusters.skolaEmail })
    .from(clusters)
    .where(inArray(clusters.id, clusterIds))
    .orderBy(serbianOrder(clusters.naziv));
  const general = await db
    .select({ clusterId: contractClusters.clusterId, naziv: contracts.naziv })
    .from(contractClusters)
    .innerJoin(contracts, eq(contracts.id, contractClusters.contractId))
    .where(and(inArray(contractClusters.clusterId, clusterIds), eq(contractClusters.kind, 'contract')));
  const responsible = await db
    .select({ clusterId: clusterGroups.clusterId, naziv: groups.naziv })
    .from(clusterGroups)
    .innerJoin(groups, eq(groups.id, clusterGroups.groupId))
    .where(inArray(clusterGroups.clusterId, clusterIds));
  const places = await db
    .select({ clusterId: clusterSettlements.clusterId, naziv: settlements.naziv, opstine: settlements.opstine })
    .from(clusterSettlements)
    .innerJoin(settlements, eq(settlements.id, clusterSettlements.settlementId))
    .where(and(inArray(clusterSettlements.clusterId, clusterIds), eq(clusterSettlements.usputno, false)))
    .orderBy(asc(clusterSettlements.position));
  const acts = await db
    .select({
      clusterId: activities.clusterId,
      kratakNaziv: activities.code,
      status: activities.status,
      datumZavrsetka: activities.datumZavrsetka,
    })
    .from(activities)
    .where(inArray(activities.clusterId, clusterIds));
  const itemCond: SQL[] = [inArray(inventoryItems.clusterId, clusterIds)];
  if (contractId) itemCond.push(eq(inventoryItems.contractId, contractId));
  const items = await db
    .select({ clusterId: inventoryItems.clusterId, n: count() })
    .from(inventoryItems)
    .where(and(...itemCond))
    .groupBy(inventoryItems.clusterId);
  return base.map((c) => {
    const mine = acts.filter((a) => a.clusterId === c.id);
    const finished = mine
      .filter((a) => a.status === 'Završena' && a.datumZavrsetka)
      .sort((a, b) => String(b.datumZavrsetka).localeCompare(String(a.datumZavrsetka)))[0];
    const started = mine.some((a) => a.status !== 'Nije započeta');
    const allDone = mine.length > 0 && mine.every((a) => a.status === 'Završena');
    const n = items.find((i) => i.clusterId === c.id)?.n ?? 0;
    const placeRows = places.filter((p) => p.clusterId === c.id);
    return {
      _id: c.id,
      naziv: c.naziv,
      ugovor: general.find((g) => g.clusterId === c.id)
        ? { naziv: (general.find((g) => g.clusterId === c.id) as { naziv: string }).naziv }
        : null,
      odgovoran: responsible.filter((r) => r.clusterId === c.id).map((r) => ({ naziv: r.naziv })),
      status: allDone ? 'Završen' : started ? 'U toku' : 'Nije započet',
      completed: finished ? { kratakNaziv: finished.kratakNaziv, datumZavrsetka: String(finished.datumZavrsetka).slice(0, 10) } : null,
      naselje: placeRows.map((p) => p.naziv).join(', '),
      opstina: [...new Set(placeRows.flatMap((p) => p.opstine))].join(', '),
      skolskaUprava: '',
      stanje: n > 0 ? INVENTORY.itemsPresent : INVENTORY.itemsAbsent,
      brojStavki: n,
      email: c.email,
    };
  });
}
