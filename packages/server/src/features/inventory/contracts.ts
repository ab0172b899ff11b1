import {
  asTyped,
  INVENTORY,
  type InventoryContractBody,
  type InventoryContractDto,
  inventoryContractSchema,
  type Sorting,
  type SortKey,
} from '@trasa/domain';
import { and, asc, count, desc, eq, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { AppContext } from '../../context.js';
import { inventoryContractFiles, inventoryContractLocations, inventoryContracts, inventoryItems } from '../../db/schema-inventory.js';
import { writeLog } from '../../platform/audit.js';
import type { Actor } from '../../platform/auth.js';
import { conflict, notFound, parseOrBadRequest } from '../../platform/errors.js';
import { offsetOf, type Paging } from '../../platform/paging.js';
import { onConstraint, UNIQUE_VIOLATION } from '../../platform/pgErrors.js';
import { orderOf, type SortMap } from '../../platform/sorting.js';
import { matchCondition, searchTerms } from '../../platform/textSearch.js';
import { clusterScopeOf, visibleClusterCondition } from '../clusters/policy.js';
import { assertInventoryUser, type RequestInfo } from './access.js';
import { locationRows } from './contractLocations.js';
import { loadContract, numberKey, presentContracts, today, UUID } from './contractRows.js';

export { saveDocuments } from './contractDocuments.js';
export { linkLocations, locationRows, unlinkLocation } from './contractLocations.js';
export { isInventoryContract, numberKey } from './contractRows.js';

/** Inventory contracts (spec 3 §7 "Inventory contracts"): their own kind, apart from spec 2's. */

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
    await writeLog(tx, {
      actor,
      ...req,
      message: `Korisnik ${asTyped(actor.email)} je kreirao ugovor za inventar ${asTyped(input.naziv)} (${asTyped(input.broj)}).`,
    });
    return row.id;
  });
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
    await writeLog(tx, {
      actor,
      ...req,
      message: `Korisnik ${asTyped(actor.email)} je obrisao ugovor za inventar ${asTyped(row.naziv)} (${asTyped(row.broj)}).`,
    });
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
      message: `Korisnik ${asTyped(actor.email)} je obrisao dokument ${asTyped(f.originalnoIme)} sa ugovora za inventar.`,
    });
    return f;
  });
  await ctx.files.remove(file.storedName).catch((err) => ctx.log.error({ err }, 'stored file not removed'));
  return 'Dokument je obrisan.';
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
