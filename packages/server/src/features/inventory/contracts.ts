import {
  INVENTORY,
  type InventoryContractBody,
  type InventoryContractDto,
  type InventoryLocationRow,
  inventoryContractSchema,
  type RefusedDocument,
  type Sorting,
  type SortKey,
} from '@trasa/domain';
import { and, asc, count, desc, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { AppContext } from '../../context.js';
import { groups } from '../../db/schema.js';
import { activities } from '../../db/schema-activities.js';
import { clusterGroups, clusterSettlements, clusters, contractClusters, contracts, settlements } from '../../db/schema-clusters.js';
import { inventoryContractFiles, inventoryContractLocations, inventoryContracts, inventoryItems } from '../../db/schema-inventory.js';
import { writeLog } from '../../platform/audit.js';
import type { Actor } from '../../platform/auth.js';
import { type Executor, serbianOrder } from '../../platform/database.js';
import { conflict, notFound, parseOrBadRequest } from '../../platform/errors.js';
import { offsetOf, type Paging } from '../../platform/paging.js';
import { onConstraint, UNIQUE_VIOLATION } from '../../platform/pgErrors.js';
import { orderOf, type SortMap } from '../../platform/sorting.js';
import { matchCondition, searchTerms } from '../../platform/textSearch.js';
import { assertClusterVisible, clusterScopeOf, visibleClusterCondition } from '../clusters/policy.js';
import type { ContractForm } from '../contracts/form.js';
import { removeStored, uploadMessage } from '../contracts/form.js';
import { assertInventoryUser, type RequestInfo } from './access.js';

/** Inventory contracts (spec 3 §7 "Inventory contracts"): their own kind, apart from spec 2's. */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Numbers are unique among inventory contracts, case and white space aside. */
export const numberKey = (broj: string) => broj.replace(/\s/g, '').toLowerCase();

const today = () => new Date().toISOString().slice(0, 10);

type ContractRow = typeof inventoryContracts.$inferSelect;

/** Whether the id names an inventory contract (a malformed id never does). */
export async function isInventoryContract(db: Executor, id: string | undefined): Promise<boolean> {
  if (!id || !UUID.test(id)) return false;
  const [row] = await db.select({ id: inventoryContracts.id }).from(inventoryContracts).where(eq(inventoryContracts.id, id)).limit(1);
  return !!row;
}

async function presentContracts(db: Executor, rows: ContractRow[]): Promise<InventoryContractDto[]> {
  const ids = rows.map((r) => r.id);
  const files = ids.length
    ? await db
        .select()
        .from(inventoryContractFiles)
        .where(inArray(inventoryContractFiles.contractId, ids))
        .orderBy(asc(inventoryContractFiles.createdAt))
    : [];
  const counts = ids.length
    ? await db
        .select({ id: inventoryContractLocations.contractId, n: count() })
        .from(inventoryContractLocations)
        .where(inArray(inventoryContractLocations.contractId, ids))
        .groupBy(inventoryContractLocations.contractId)
    : [];
  return rows.map((r) => ({
    _id: r.id,
    naziv: r.naziv,
    broj: r.broj,
    datumPocetka: r.datumPocetka,
    datumZavrsetka: r.datumZavrsetka,
    status: r.datumZavrsetka && r.datumZavrsetka <= today() ? 'Završen' : 'U toku',
    inventory: true,
    document: r.id,
    fajlovi: files
      .filter((f) => f.contractId === r.id)
      .map((f) => ({
        _id: f.id,
        originalnoIme: f.originalnoIme,
        mimetype: f.mimetype,
        size: f.size,
        createdAt: f.createdAt.toISOString(),
      })),
    brojLokacija: counts.find((c) => c.id === r.id)?.n ?? 0,
  }));
}

async function loadContract(db: Executor, id: string): Promise<ContractRow> {
  if (!UUID.test(id)) throw notFound();
  const [row] = await db.select().from(inventoryContracts).where(eq(inventoryContracts.id, id)).limit(1);
  if (!row) throw notFound();
  return row;
}

/**
 * `sort` of the inventory contracts (LIST_SORTS.inventoryContracts): `status` as the list shows it,
 * 'U toku' before 'Završen' (finished once datumZavrsetka is today or past), `brojLokacija` the linked
 * locations counted.
 */
function contractSorts(): SortMap<'inventoryContracts'> {
  return {
    naziv: { text: inventoryContracts.naziv },
    broj: { text: inventoryContracts.broj },
    datumPocetka: { value: inventoryContracts.datumPocetka },
    datumZavrsetka: { value: inventoryContracts.datumZavrsetka },
    status: { value: sql`coalesce(${inventoryContracts.datumZavrsetka} <= ${today()}::date, false)` },
    brojLokacija: {
      value: sql`(select count(*) from ${inventoryContractLocations} l where l.contract_id = ${inventoryContracts.id})`,
    },
  };
}

/** GET /api/contract?inventory=true and GET /api/search/contract?inventory=true: newest first (or by `sort`). */
export async function listContracts(
  ctx: AppContext,
  actor: Actor,
  input: Paging & Sorting<SortKey<'inventoryContracts'>> & { eng?: string; srb?: string },
): Promise<{ contracts: InventoryContractDto[]; totalResults: number }> {
  assertInventoryUser(actor);
  const where = matchCondition(inventoryContracts.searchText, searchTerms({ eng: input.eng ?? '', srb: input.srb ?? '' }));
  const [total] = await ctx.db.select({ n: count() }).from(inventoryContracts).where(where);
  const rows = await ctx.db
    .select()
    .from(inventoryContracts)
    .where(where)
    .orderBy(...orderOf(contractSorts(), input, [desc(inventoryContracts.createdAt), asc(inventoryContracts.id)], inventoryContracts.id))
    .limit(input.limit)
    .offset(offsetOf(input));
  return { contracts: await presentContracts(ctx.db, rows), totalResults: total?.n ?? 0 };
}

/** POST /api/contract with inventory: true; answers the new id (the "document id" of spec 3 §7). */
export async function createContract(ctx: AppContext, actor: Actor, body: unknown, req: RequestInfo): Promise<string> {
  assertInventoryUser(actor);
  const input: z.output<typeof inventoryContractSchema> = parseOrBadRequest(inventoryContractSchema, body as InventoryContractBody);
  const taken = () => conflict(INVENTORY.contractNumberTaken, { broj: INVENTORY.contractNumberTaken });
  return ctx.db.transaction(async (tx) => {
    const [existing] = await tx
      .select({ id: inventoryContracts.id })
      .from(inventoryContracts)
      .where(eq(inventoryContracts.brojKey, numberKey(input.broj)))
      .limit(1);
    if (existing) throw taken();
    const [row] = await onConstraint(
      () =>
        tx
          .insert(inventoryContracts)
          .values({
            naziv: input.naziv,
            broj: input.broj,
            brojKey: numberKey(input.broj),
            datumPocetka: input.datumPocetka,
            datumZavrsetka: input.datumZavrsetka,
            createdBy: actor.id,
          })
          .returning({ id: inventoryContracts.id }),
      { [UNIQUE_VIOLATION]: taken },
    );
    if (!row) throw notFound();
    await writeLog(tx, { actor, ...req, message: `Korisnik ${actor.email} je kreirao ugovor za inventar ${input.naziv} (${input.broj}).` });
    return row.id;
  });
}

/** The contract's fields the form of spec 3 §5 shows, when the request carries any (else null: documents only). */
const EDITABLE = ['naziv', 'broj', 'datumPocetka', 'datumZavrsetka'] as const;
function editedFields(form: ContractForm): Partial<Record<(typeof EDITABLE)[number], string>> | null {
  const out: Partial<Record<(typeof EDITABLE)[number], string>> = {};
  for (const name of EDITABLE) {
    const values = form.fields.get(name);
    if (values !== undefined) out[name] = values.at(-1) ?? '';
  }
  return Object.keys(out).length > 0 ? out : null;
}

/**
 * Edits naziv, broj, datumPocetka (and datumZavrsetka) with the creation's validation: the sent fields
 * over the stored ones, checked whole by the same schema, the number unique among inventory contracts.
 */
async function editContract(
  tx: Executor,
  actor: Actor,
  row: typeof inventoryContracts.$inferSelect,
  edit: Partial<Record<(typeof EDITABLE)[number], string>>,
  req: RequestInfo,
): Promise<typeof inventoryContracts.$inferSelect> {
  const input: z.output<typeof inventoryContractSchema> = parseOrBadRequest(inventoryContractSchema, {
    inventory: true,
    naziv: row.naziv,
    broj: row.broj,
    datumPocetka: row.datumPocetka,
    datumZavrsetka: row.datumZavrsetka ?? '',
    ...edit,
  } as InventoryContractBody);
  const taken = () => conflict(INVENTORY.contractNumberTaken, { broj: INVENTORY.contractNumberTaken });
  const key = numberKey(input.broj);
  if (key !== row.brojKey) {
    const [other] = await tx
      .select({ id: inventoryContracts.id })
      .from(inventoryContracts)
      .where(eq(inventoryContracts.brojKey, key))
      .limit(1);
    if (other) throw taken();
  }
  const [updated] = await onConstraint(
    () =>
      tx
        .update(inventoryContracts)
        .set({
          naziv: input.naziv,
          broj: input.broj,
          brojKey: key,
          datumPocetka: input.datumPocetka,
          datumZavrsetka: input.datumZavrsetka,
        })
        .where(eq(inventoryContracts.id, row.id))
        .returning(),
    { [UNIQUE_VIOLATION]: taken },
  );
  if (!updated) throw notFound();
  await writeLog(tx, {
    actor,
    ...req,
    message: `Korisnik ${actor.email} je izmenio ugovor za inventar ${row.naziv} (${row.broj}) u ${input.naziv} (${input.broj}).`,
  });
  return updated;
}

/**
 * POST /api/contract/contract/{id} of an inventory contract: its documents (fajl0…fajlN) and, when sent,
 * its fields (naziv, broj, datumPocetka, datumZavrsetka: an edit, validated as the creation).
 */
export async function saveDocuments(
  ctx: AppContext,
  actor: Actor,
  id: string,
  form: ContractForm,
  req: RequestInfo,
): Promise<{ message: string; contract: InventoryContractDto; odbijeni: RefusedDocument[] }> {
  try {
    assertInventoryUser(actor);
    const edit = editedFields(form);
    const contract = await ctx.db.transaction(async (tx) => {
      const [locked] = await tx.select().from(inventoryContracts).where(eq(inventoryContracts.id, id)).for('update');
      if (!locked) throw notFound();
      const row = edit ? await editContract(tx, actor, locked, edit, req) : locked;
      if (form.files.length > 0) {
        const at = Date.now();
        await tx.insert(inventoryContractFiles).values(
          form.files.map((f, i) => ({
            createdAt: new Date(at + i),
            contractId: id,
            storedName: f.storedName,
            originalnoIme: f.originalName,
            mimetype: f.mimetype,
            size: f.size,
            uploadedBy: actor.id,
          })),
        );
        await writeLog(tx, {
          actor,
          ...req,
          message: `Korisnik ${actor.email} je dodao dokumente na ugovor za inventar ${row.naziv}: ${form.files.map((f) => f.originalName).join(', ')}.`,
        });
      }
      return row;
    });
    const [dto] = await presentContracts(ctx.db, [contract]);
    const message = uploadMessage(edit && form.files.length === 0 ? INVENTORY.contractEdited : INVENTORY.documentsUploaded, !!edit, form);
    return { message, contract: dto as InventoryContractDto, odbijeni: form.refused };
  } catch (err) {
    await removeStored(ctx.files, form.files);
    throw err;
  }
}

/** DELETE of an inventory contract: refused while items are recorded under it. */
export async function deleteContract(ctx: AppContext, actor: Actor, id: string, req: RequestInfo): Promise<string> {
  assertInventoryUser(actor);
  const stored = await ctx.db.transaction(async (tx) => {
    if (!UUID.test(id)) throw notFound();
    const [row] = await tx.select().from(inventoryContracts).where(eq(inventoryContracts.id, id)).for('update');
    if (!row) throw notFound();
    const [items] = await tx.select({ n: count() }).from(inventoryItems).where(eq(inventoryItems.contractId, id));
    if ((items?.n ?? 0) > 0) throw conflict(INVENTORY.contractHasItems(items?.n ?? 0));
    const files = await tx
      .select({ storedName: inventoryContractFiles.storedName })
      .from(inventoryContractFiles)
      .where(eq(inventoryContractFiles.contractId, id));
    await tx.delete(inventoryContracts).where(eq(inventoryContracts.id, id));
    await writeLog(tx, { actor, ...req, message: `Korisnik ${actor.email} je obrisao ugovor za inventar ${row.naziv} (${row.broj}).` });
    return files;
  });
  for (const f of stored) {
    await ctx.files.remove(f.storedName).catch((err) => ctx.log.error({ err, storedName: f.storedName }, 'stored file not removed'));
  }
  return INVENTORY.contractDeleted;
}

export async function openDocument(ctx: AppContext, actor: Actor, contractId: string, fileId: string) {
  assertInventoryUser(actor);
  const [row] = await ctx.db
    .select()
    .from(inventoryContractFiles)
    .where(and(eq(inventoryContractFiles.id, fileId), eq(inventoryContractFiles.contractId, contractId)))
    .limit(1);
  if (!row || !(await ctx.files.exists(row.storedName))) throw notFound();
  return { stream: ctx.files.open(row.storedName), originalnoIme: row.originalnoIme, mimetype: row.mimetype, size: row.size };
}

export async function deleteDocument(ctx: AppContext, actor: Actor, contractId: string, fileId: string, req: RequestInfo): Promise<string> {
  assertInventoryUser(actor);
  const file = await ctx.db.transaction(async (tx) => {
    const [f] = await tx
      .delete(inventoryContractFiles)
      .where(and(eq(inventoryContractFiles.id, fileId), eq(inventoryContractFiles.contractId, contractId)))
      .returning();
    if (!f) throw notFound();
    await writeLog(tx, {
      actor,
      ...req,
      message: `Korisnik ${actor.email} je obrisao dokument ${f.originalnoIme} sa ugovora za inventar.`,
    });
    return f;
  });
  await ctx.files.remove(file.storedName).catch((err) => ctx.log.error({ err }, 'stored file not removed'));
  return 'Dokument je obrisan.';
}

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
      message: `Korisnik ${actor.email} je povezao lokacije ${names.map((n) => n.naziv).join(', ')} sa ugovorom za inventar ${row.naziv}.`,
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
      message: `Korisnik ${actor.email} je uklonio lokaciju ${c?.naziv ?? ''} sa ugovora za inventar ${row.naziv}.`,
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

/** GET /api/inventory-contract/{id}: the contract and its locations the caller sees. */
export async function getContract(ctx: AppContext, actor: Actor, id: string) {
  assertInventoryUser(actor);
  const row = await loadContract(ctx.db, id);
  const scope = await clusterScopeOf(ctx.db, actor);
  const linked = await ctx.db
    .select({ id: inventoryContractLocations.clusterId })
    .from(inventoryContractLocations)
    .where(and(eq(inventoryContractLocations.contractId, id), visibleClusterCondition(scope, inventoryContractLocations.clusterId)));
  const [dto] = await presentContracts(ctx.db, [row]);
  return {
    contract: {
      ...(dto as InventoryContractDto),
      lokacije: await locationRows(
        ctx.db,
        linked.map((l) => l.id),
        id,
      ),
    },
  };
}

/** The inventory right, before a multipart body is read. */
export const assertKeeper = assertInventoryUser;
