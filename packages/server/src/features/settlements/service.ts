import { asTyped, CODEBOOKS, type Sorting, type SortKey, type settlementSchema } from '@trasa/domain';
import { and, eq, inArray, ne, type SQL, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { AppContext } from '../../context.js';
import { clusterSettlements, settlements } from '../../db/schema-clusters.js';
import { writeLog } from '../../platform/audit.js';
import type { Actor } from '../../platform/auth.js';
import type { Executor } from '../../platform/database.js';
import { badRequest, conflict, notFound } from '../../platform/errors.js';
import { countOf, offsetOf, type Paging } from '../../platform/paging.js';
import { FOREIGN_KEY_VIOLATION, onConstraint, UNIQUE_VIOLATION } from '../../platform/pgErrors.js';
import { orderOf, type SortMap } from '../../platform/sorting.js';
import { matchCondition, searchTerms } from '../../platform/textSearch.js';
import { presentSettlement, type SettlementDto, settlementOrder } from './presenter.js';

export type RequestInfo = { ip: string; url: string };
export type SettlementInput = z.output<typeof settlementSchema>;
export type SettlementsPage = { naselja: SettlementDto[]; totalResults: number };

/** Texts of the settlements codebook the domain does not have yet (Latin, like the codebook screen). */
export const SETTLEMENT_TEXTS = {
  saved: 'Naselje je sačuvano.',
  deleted: 'Naselje je obrisano.',
  inCluster: 'Naselje je u klasteru i ne može se obrisati.',
} as const;

/** The counts are integer columns: a number the schema lets through but PostgreSQL can't hold is refused. */
const MAX_COUNT = 2_147_483_647;
const COUNT_FIELDS = ['brojDomacinstava', 'brojSkola', 'brojIndirektnoPokrivenihDomacinstava', 'brojIndirektnoPokrivenihSkola'] as const;

function checkCounts(input: SettlementInput): void {
  for (const field of COUNT_FIELDS) {
    const n = input[field];
    if (n !== null && n > MAX_COUNT) throw badRequest(CODEBOOKS.numberIfGiven, { [field]: CODEBOOKS.numberIfGiven });
  }
}

/** 'Дупликат за: {name}' naming the settlement already holding the registry id (its name and id), not the new one. */
const duplicate = (existing: { naziv: string; code: string }) => {
  const text = CODEBOOKS.duplicateSettlement(`${asTyped(existing.naziv)} (${asTyped(existing.code)})`);
  return conflict(text, { id: text });
};

async function assertCodeFree(db: Executor, input: SettlementInput, exceptId?: string): Promise<void> {
  const [taken] = await db
    .select({ naziv: settlements.naziv, code: settlements.code })
    .from(settlements)
    .where(and(eq(settlements.code, input.id), exceptId ? ne(settlements.id, exceptId) : undefined))
    .limit(1);
  if (taken) throw duplicate(taken);
}

const values = (input: SettlementInput) => ({
  code: input.id,
  naziv: input.naziv,
  maticniBroj: input.maticniBroj,
  opstine: input.opstina,
  operator: input.operator,
  javniPoziv: input.javniPoziv,
  brojDomacinstava: input.brojDomacinstava,
  brojSkola: input.brojSkola,
  brojIndirektnoPokrivenihDomacinstava: input.brojIndirektnoPokrivenihDomacinstava,
  brojIndirektnoPokrivenihSkola: input.brojIndirektnoPokrivenihSkola,
});

/** `sort` of the settlements lists (LIST_SORTS.settlements); `id` is the registry id the list shows. */
export const SETTLEMENT_SORTS: SortMap<'settlements'> = {
  id: { text: settlements.code },
  naziv: { text: settlements.naziv },
  maticniBroj: { text: settlements.maticniBroj },
  operator: { text: settlements.operator },
  javniPoziv: { text: settlements.javniPoziv },
  brojDomacinstava: { value: settlements.brojDomacinstava },
  brojSkola: { value: settlements.brojSkola },
  brojIndirektnoPokrivenihDomacinstava: { value: settlements.brojIndirektnoPokrivenihDomacinstava },
  brojIndirektnoPokrivenihSkola: { value: settlements.brojIndirektnoPokrivenihSkola },
};
type SettlementSorting = Sorting<SortKey<'settlements'>>;

/**
 * Up to this many matches a search's page is read from all of them, sorted (below), instead of walking the
 * order index: matches of a word are close together in name order ('Gornja …' after every 'Bajina',
 * 'Ćićevac', 'Donje' and 'Đunis'), so the walk read 2,574 names to find the first ten of 491 (2.1 ms)
 * where the trigram index finds the 491 and sorting them takes a fraction of that.
 */
export const SORTED_MATCHES = { max: 1_000 };

/**
 * A page of settlements by name (or by `sort`). A deferred join: the page's ids walk settlements_order_idx (trasa_sr
 * order, drizzle/0010) from the index alone, and only those rows are read, so page 900 costs about what
 * page 1 does. A search counts first; with few matches (SORTED_MATCHES.max) its ids come from the matches
 * alone (a subquery the planner can't merge with the order, `offset 0`, under the table's own name so the
 * order's columns name its rows), sorted.
 */
async function pageOfSettlements(db: Executor, where: SQL | undefined, paging: Paging & SettlementSorting): Promise<SettlementsPage> {
  const order = orderOf(SETTLEMENT_SORTS, paging, settlementOrder, settlements.id);
  const total = where ? await countOf(db, settlements, where) : null;
  const pageIds =
    total !== null && total <= SORTED_MATCHES.max
      ? sql`(select ${settlements.id} from (select * from ${settlements} where ${where} offset 0) ${settlements}
          order by ${sql.join(order, sql`, `)} limit ${paging.limit} offset ${offsetOf(paging)})`
      : db
          .select({ id: settlements.id })
          .from(settlements)
          .where(where)
          .orderBy(...order)
          .limit(paging.limit)
          .offset(offsetOf(paging));
  const rows = await db
    .select()
    .from(settlements)
    .where(inArray(settlements.id, pageIds))
    .orderBy(...order);
  return { naselja: rows.map(presentSettlement), totalResults: total ?? (await countOf(db, settlements, where)) };
}

/** GET /api/naselje: every settlement by name (the route makes "no page and limit" mean all). */
export function listSettlements(ctx: AppContext, paging: Paging & SettlementSorting): Promise<SettlementsPage> {
  return pageOfSettlements(ctx.db, undefined, paging);
}

/** GET /api/search/naselje: by registry id, name or matični broj, in either script; nothing typed is the list. */
export function searchSettlements(
  ctx: AppContext,
  input: Paging & SettlementSorting & { eng: string; srb: string },
): Promise<SettlementsPage> {
  return pageOfSettlements(ctx.db, matchCondition(settlements.searchText, searchTerms(input)), input);
}

export async function createSettlement(ctx: AppContext, actor: Actor, input: SettlementInput, req: RequestInfo): Promise<SettlementDto> {
  checkCounts(input);
  return ctx.db.transaction(async (tx) => {
    await assertCodeFree(tx, input);
    const [row] = await tx.insert(settlements).values(values(input)).onConflictDoNothing().returning();
    // Taken meanwhile: named by its registry id (its name is not known here).
    if (!row) throw duplicate({ naziv: input.naziv, code: input.id });
    await writeLog(tx, {
      actor,
      ...req,
      message: `Korisnik ${asTyped(actor.email)} je dodao naselje ${asTyped(row.naziv)} (${asTyped(row.code)}).`,
    });
    return presentSettlement(row);
  });
}

export async function editSettlement(
  ctx: AppContext,
  actor: Actor,
  id: string,
  input: SettlementInput,
  req: RequestInfo,
): Promise<SettlementDto> {
  checkCounts(input);
  return ctx.db.transaction(async (tx) => {
    const [existing] = await tx.select().from(settlements).where(eq(settlements.id, id)).for('update');
    if (!existing) throw notFound();
    await assertCodeFree(tx, input, id);
    const [row] = await onConstraint(
      () =>
        tx
          .update(settlements)
          .set({ ...values(input), updatedAt: new Date() })
          .where(eq(settlements.id, id))
          .returning(),
      { [UNIQUE_VIOLATION]: () => duplicate({ naziv: input.naziv, code: input.id }) },
    );
    if (!row) throw notFound();
    await writeLog(tx, {
      actor,
      ...req,
      message: `Korisnik ${asTyped(actor.email)} je izmenio naselje ${asTyped(existing.naziv)} (${asTyped(existing.code)}).`,
    });
    return presentSettlement(row);
  });
}

/** A settlement some cluster has (as a settlement or an incidental one) is kept. */
export async function deleteSettlement(ctx: AppContext, actor: Actor, id: string, req: RequestInfo): Promise<string> {
  return ctx.db.transaction(async (tx) => {
    const [existing] = await tx.select().from(settlements).where(eq(settlements.id, id)).for('update');
    if (!existing) throw notFound();
    const [used] = await tx
      .select({ id: clusterSettlements.clusterId })
      .from(clusterSettlements)
      .where(eq(clusterSettlements.settlementId, id))
      .limit(1);
    if (used) throw conflict(SETTLEMENT_TEXTS.inCluster);
    await onConstraint(() => tx.delete(settlements).where(eq(settlements.id, id)), {
      [FOREIGN_KEY_VIOLATION]: () => conflict(SETTLEMENT_TEXTS.inCluster),
    });
    await writeLog(tx, {
      actor,
      ...req,
      message: `Korisnik ${asTyped(actor.email)} je obrisao naselje ${asTyped(existing.naziv)} (${asTyped(existing.code)}).`,
    });
    return SETTLEMENT_TEXTS.deleted;
  });
}
