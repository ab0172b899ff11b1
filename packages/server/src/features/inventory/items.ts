import {
  asTyped,
  INVENTORY,
  type InventoryItemDto,
  type InventoryLocationDto,
  type InventoryTip,
  type InventoryValuta,
  type inventoryItemEditSchema,
  type inventoryItemSchema,
  type Sorting,
  type SortKey,
} from '@trasa/domain';
import { and, count, desc, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { AppContext } from '../../context.js';
import { clusterSettlements, clusters, settlements } from '../../db/schema-clusters.js';
import {
  a13Confirmations,
  inventoryContractLocations,
  inventoryContracts,
  inventoryItems,
  inventoryTypes,
} from '../../db/schema-inventory.js';
import { writeLog } from '../../platform/audit.js';
import type { Actor } from '../../platform/auth.js';
import type { Executor } from '../../platform/database.js';
import { badRequest, notFound } from '../../platform/errors.js';
import { orderOf, type SortMap } from '../../platform/sorting.js';
import { assertClusterVisible, type ClusterScope, clusterScopeOf, visibleClusterCondition } from '../clusters/policy.js';
import { assertInventoryUser, type RequestInfo } from './access.js';

/** Inventory items (spec 3 §7 "Inventory types and items") and a location's school e-mail. */

export const itemColumns = {
  id: inventoryItems.id,
  kolicina: inventoryItems.kolicina,
  cenaRsd: inventoryItems.cenaRsd,
  datumPrimopredaje: inventoryItems.datumPrimopredaje,
  typeId: inventoryTypes.id,
  typeNaziv: inventoryTypes.naziv,
  typeKratak: inventoryTypes.kratakNaziv,
  typeTip: inventoryTypes.tip,
  typeCena: inventoryTypes.cena,
  typeValuta: inventoryTypes.valuta,
  typeSifra: inventoryTypes.sifra,
  typeJedinica: inventoryTypes.jedinica,
  clusterId: clusters.id,
  clusterNaziv: clusters.naziv,
  contractId: inventoryContracts.id,
  contractNaziv: inventoryContracts.naziv,
  contractBroj: inventoryContracts.broj,
};

/** kolicina × cenaRsd in whole para (no float drift), back in dinars. */
export const lineTotal = (kolicina: number, cenaRsd: number) => Math.round(kolicina * cenaRsd * 100) / 100;

export type ItemRow = {
  id: string;
  kolicina: number;
  cenaRsd: number;
  datumPrimopredaje: string;
  typeId: string;
  typeNaziv: string;
  typeKratak: string;
  typeTip: string;
  typeCena: number;
  typeValuta: string;
  typeSifra: string;
  typeJedinica: string;
  clusterId: string;
  clusterNaziv: string;
  contractId: string | null;
  contractNaziv: string | null;
  contractBroj: string | null;
};

export function presentItem(r: ItemRow): InventoryItemDto {
  const kolicina = Number(r.kolicina);
  const cenaRsd = Number(r.cenaRsd);
  return {
    _id: r.id,
    invType: {
      _id: r.typeId,
      naziv: r.typeNaziv,
      kratakNaziv: r.typeKratak,
      tip: r.typeTip as InventoryTip,
      cena: Number(r.typeCena),
      valuta: r.typeValuta as InventoryValuta,
      sifra: r.typeSifra,
      jedinica: r.typeJedinica,
    },
    kolicina,
    datumPrimopredaje: r.datumPrimopredaje,
    lokacija: { _id: r.clusterId, naziv: r.clusterNaziv },
    ugovor: r.contractId ? { _id: r.contractId, naziv: r.contractNaziv ?? '', broj: r.contractBroj ?? '' } : null,
    cenaRsd,
    ukupnoRsd: lineTotal(kolicina, cenaRsd),
  };
}

/**
 * `sort` of the item lists (LIST_SORTS.inventoryItems: a location's items, the report of all items):
 * every column over selectItems' joins; the value is the line's kolicina × cenaRsd.
 */
export const ITEM_SORTS: SortMap<'inventoryItems'> = {
  lokacija: { text: clusters.naziv },
  naziv: { text: inventoryTypes.naziv },
  tip: { text: inventoryTypes.tip },
  sifra: { text: inventoryTypes.sifra },
  kolicina: { value: inventoryItems.kolicina },
  cenaRsd: { value: inventoryItems.cenaRsd },
  ukupnoRsd: { value: sql`round(${inventoryItems.kolicina} * ${inventoryItems.cenaRsd}, 2)` },
  datumPrimopredaje: { value: inventoryItems.datumPrimopredaje },
  ugovor: { text: inventoryContracts.naziv },
};
export type ItemSorting = Sorting<SortKey<'inventoryItems'>>;

/** The items query with its joins; callers add where, order and paging. */
export function selectItems(db: Executor) {
  return db
    .select(itemColumns)
    .from(inventoryItems)
    .innerJoin(inventoryTypes, eq(inventoryTypes.id, inventoryItems.typeId))
    .innerJoin(clusters, eq(clusters.id, inventoryItems.clusterId))
    .leftJoin(inventoryContracts, eq(inventoryContracts.id, inventoryItems.contractId));
}

/** The sum of kolicina × cenaRsd over the rows `where` selects, in dinars with two decimals. */
export async function totalOf(db: Executor, where: SQL | undefined): Promise<number> {
  const [row] = await db
    .select({ total: sql<string>`coalesce(sum(round(${inventoryItems.kolicina} * ${inventoryItems.cenaRsd}, 2)), 0)` })
    .from(inventoryItems)
    .innerJoin(inventoryTypes, eq(inventoryTypes.id, inventoryItems.typeId))
    .innerJoin(clusters, eq(clusters.id, inventoryItems.clusterId))
    .where(where);
  return Number(row?.total ?? 0);
}

async function loadItem(db: Executor, id: string): Promise<InventoryItemDto> {
  const [row] = await selectItems(db).where(eq(inventoryItems.id, id)).limit(1);
  if (!row) throw notFound();
  return presentItem(row as ItemRow);
}

/** GET /api/inventory?lokacija&ugovor: newest handover first (or by `sort`); only visible locations; not paged. */
export async function listItems(
  ctx: AppContext,
  actor: Actor,
  q: ItemSorting & { lokacija?: string | undefined; ugovor?: string | undefined },
) {
  assertInventoryUser(actor);
  const scope = await clusterScopeOf(ctx.db, actor);
  const where = and(
    visibleClusterCondition(scope, inventoryItems.clusterId),
    q.lokacija ? eq(inventoryItems.clusterId, q.lokacija) : undefined,
    q.ugovor ? eq(inventoryItems.contractId, q.ugovor) : undefined,
  );
  const rows = await selectItems(ctx.db)
    .where(where)
    .orderBy(
      ...orderOf(
        ITEM_SORTS,
        q,
        [desc(inventoryItems.datumPrimopredaje), desc(inventoryItems.createdAt), inventoryItems.id],
        inventoryItems.id,
      ),
    )
    .limit(50_000);
  // A location outside the caller's visibility (or none) is 404 like a missing one; `where` keeps only
  // visible rows, so the check is needed only when nothing came back (one statement less for a location
  // with items, the inventory screen's usual call).
  if (rows.length === 0) {
    if (q.lokacija) await assertClusterVisible(ctx.db, scope, q.lokacija);
    return { inventory: [], totalResults: 0, ukupnoRsd: 0 };
  }
  return { inventory: rows.map((r) => presentItem(r as ItemRow)), totalResults: rows.length, ukupnoRsd: await totalOf(ctx.db, where) };
}

/** The inventory contracts a location is linked to. */
export async function contractsOfLocation(db: Executor, clusterId: string) {
  return db
    .select({ _id: inventoryContracts.id, naziv: inventoryContracts.naziv, broj: inventoryContracts.broj })
    .from(inventoryContractLocations)
    .innerJoin(inventoryContracts, eq(inventoryContracts.id, inventoryContractLocations.contractId))
    .where(eq(inventoryContractLocations.clusterId, clusterId))
    .orderBy(inventoryContracts.createdAt);
}

/**
 * The contract an item is recorded under: the one given, which must be linked to the location, or the
 * location's only inventory contract (none: no contract; several: the caller must choose).
 */
export async function resolveContract(db: Executor, clusterId: string, ugovor: string | null): Promise<string | null> {
  const linked = await contractsOfLocation(db, clusterId);
  if (ugovor) {
    if (!linked.some((c) => c._id === ugovor))
      throw badRequest(INVENTORY.locationNotOnContract, { ugovor: INVENTORY.locationNotOnContract });
    return ugovor;
  }
  if (linked.length > 1) throw badRequest(INVENTORY.chooseContract, { ugovor: INVENTORY.chooseContract });
  return linked[0]?._id ?? null;
}

async function assertType(db: Executor, typeId: string): Promise<{ naziv: string }> {
  const [t] = await db.select({ naziv: inventoryTypes.naziv }).from(inventoryTypes).where(eq(inventoryTypes.id, typeId)).limit(1);
  if (!t) throw badRequest(INVENTORY.unknownType, { invType: INVENTORY.unknownType });
  return t;
}

type ItemInput = z.output<typeof inventoryItemSchema>;
type ItemEdit = z.output<typeof inventoryItemEditSchema>;

export async function createItem(ctx: AppContext, actor: Actor, input: ItemInput, req: RequestInfo): Promise<InventoryItemDto> {
  assertInventoryUser(actor);
  const scope = await clusterScopeOf(ctx.db, actor);
  const id = await ctx.db.transaction(async (tx) => {
    await lockLocation(tx, scope, input.lokacija);
    const type = await assertType(tx, input.invType);
    const contractId = await resolveContract(tx, input.lokacija, input.ugovor);
    const [row] = await tx
      .insert(inventoryItems)
      .values({
        typeId: input.invType,
        clusterId: input.lokacija,
        contractId,
        kolicina: input.kolicina,
        cenaRsd: input.cenaRsd,
        datumPrimopredaje: input.datumPrimopredaje,
        createdBy: actor.id,
      })
      .returning({ id: inventoryItems.id });
    const [c] = await tx.select({ naziv: clusters.naziv }).from(clusters).where(eq(clusters.id, input.lokacija));
    await writeLog(tx, {
      actor,
      ...req,
      message: `Korisnik ${asTyped(actor.email)} je dodao stavku inventara ${asTyped(type.naziv)} (${input.kolicina}) na lokaciju ${asTyped(c?.naziv ?? '')}.`,
    });
    return row?.id as string;
  });
  return loadItem(ctx.db, id);
}

/** The location row locked (items of one location are written one at a time), visible or 404. */
export async function lockLocation(tx: Executor, scope: ClusterScope, clusterId: string): Promise<void> {
  await assertClusterVisible(tx, scope, clusterId);
  await tx.select({ id: clusters.id }).from(clusters).where(eq(clusters.id, clusterId)).for('update');
}

async function visibleItem(tx: Executor, scope: ClusterScope, id: string) {
  const [row] = await tx
    .select({ id: inventoryItems.id, clusterId: inventoryItems.clusterId, typeId: inventoryItems.typeId })
    .from(inventoryItems)
    .where(and(eq(inventoryItems.id, id), visibleClusterCondition(scope, inventoryItems.clusterId)))
    .limit(1);
  if (!row) throw notFound();
  return row;
}

export async function editItem(ctx: AppContext, actor: Actor, id: string, input: ItemEdit, req: RequestInfo): Promise<InventoryItemDto> {
  assertInventoryUser(actor);
  const scope = await clusterScopeOf(ctx.db, actor);
  await ctx.db.transaction(async (tx) => {
    const current = await visibleItem(tx, scope, id);
    await lockLocation(tx, scope, current.clusterId);
    const type = await assertType(tx, input.invType);
    const contractId = await resolveContract(tx, current.clusterId, input.ugovor);
    await tx
      .update(inventoryItems)
      .set({
        typeId: input.invType,
        contractId,
        kolicina: input.kolicina,
        cenaRsd: input.cenaRsd,
        datumPrimopredaje: input.datumPrimopredaje,
        updatedAt: new Date(),
      })
      .where(eq(inventoryItems.id, id));
    await writeLog(tx, { actor, ...req, message: `Korisnik ${asTyped(actor.email)} je izmenio stavku inventara ${asTyped(type.naziv)}.` });
  });
  return loadItem(ctx.db, id);
}

export async function deleteItem(ctx: AppContext, actor: Actor, id: string, req: RequestInfo): Promise<string> {
  assertInventoryUser(actor);
  const scope = await clusterScopeOf(ctx.db, actor);
  return ctx.db.transaction(async (tx) => {
    const current = await visibleItem(tx, scope, id);
    // Under the location's lock like every write of its items: inventory_totals' trigger counts the
    // location's rows again, and two writers of one location must not count past each other.
    await lockLocation(tx, scope, current.clusterId);
    const [type] = await tx.select({ naziv: inventoryTypes.naziv }).from(inventoryTypes).where(eq(inventoryTypes.id, current.typeId));
    await tx.delete(inventoryItems).where(eq(inventoryItems.id, id));
    await writeLog(tx, {
      actor,
      ...req,
      message: `Korisnik ${asTyped(actor.email)} je obrisao stavku inventara ${asTyped(type?.naziv ?? '')}.`,
    });
    return INVENTORY.itemDeleted;
  });
}

/** Municipalities and settlement names of locations (not incidental settlements), by cluster id. */
export async function placesOf(db: Executor, clusterIds: string[]): Promise<Map<string, { naselje: string; opstina: string }>> {
  const out = new Map<string, { naselje: string; opstina: string }>();
  if (clusterIds.length === 0) return out;
  const rows = await db
    .select({ clusterId: clusterSettlements.clusterId, naziv: settlements.naziv, opstine: settlements.opstine })
    .from(clusterSettlements)
    .innerJoin(settlements, eq(settlements.id, clusterSettlements.settlementId))
    .where(and(inArray(clusterSettlements.clusterId, clusterIds), eq(clusterSettlements.usputno, false)))
    .orderBy(clusterSettlements.position);
  for (const id of clusterIds) {
    const mine = rows.filter((r) => r.clusterId === id);
    out.set(id, { naselje: mine.map((r) => r.naziv).join(', '), opstina: [...new Set(mine.flatMap((r) => r.opstine))].join(', ') });
  }
  return out;
}

/** GET /api/inventory/location/{id} */
export async function getLocation(ctx: AppContext, actor: Actor, id: string): Promise<InventoryLocationDto> {
  assertInventoryUser(actor);
  await assertClusterVisible(ctx.db, actor, id);
  const [c] = await ctx.db.select({ naziv: clusters.naziv, email: clusters.skolaEmail }).from(clusters).where(eq(clusters.id, id));
  if (!c) throw notFound();
  const [n] = await ctx.db.select({ n: count() }).from(inventoryItems).where(eq(inventoryItems.clusterId, id));
  const [a13] = await ctx.db.select({ status: a13Confirmations.status }).from(a13Confirmations).where(eq(a13Confirmations.clusterId, id));
  const place = (await placesOf(ctx.db, [id])).get(id);
  return {
    _id: id,
    naziv: c.naziv,
    email: c.email,
    opstina: place?.opstina ?? '',
    naselje: place?.naselje ?? '',
    ugovori: await contractsOfLocation(ctx.db, id),
    brojStavki: n?.n ?? 0,
    a13: a13?.status ?? false,
  };
}

/** PATCH /api/inventory/location/{id}: the school's e-mail. */
export async function setSchoolEmail(ctx: AppContext, actor: Actor, id: string, email: string | null, req: RequestInfo) {
  assertInventoryUser(actor);
  await assertClusterVisible(ctx.db, actor, id);
  await ctx.db.transaction(async (tx) => {
    const [c] = await tx.update(clusters).set({ skolaEmail: email }).where(eq(clusters.id, id)).returning({ naziv: clusters.naziv });
    await writeLog(tx, {
      actor,
      ...req,
      message: `Korisnik ${asTyped(actor.email)} je izmenio e-poštu škole lokacije ${asTyped(c?.naziv ?? '')}.`,
    });
  });
  return { message: INVENTORY.schoolEmailSaved, location: await getLocation(ctx, actor, id) };
}
