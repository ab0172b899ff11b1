import { asTyped, CODEBOOKS, IMPORTS, type ImportDocument, settlementSchema } from '@trasa/domain';
import { inArray } from 'drizzle-orm';
import type { z } from 'zod';
import type { AppContext } from '../../context.js';
import { settlements } from '../../db/schema-clusters.js';
import { writeLog } from '../../platform/audit.js';
import type { Actor } from '../../platform/auth.js';
import type { Executor } from '../../platform/database.js';
import type { RequestInfo } from '../settlements/service.js';
import { type Keyed, keyedRows, SETTLEMENT_COLUMNS } from './columns.js';
import { chunks, parseErrors, Report, rowError } from './report.js';
import type { UploadedSheet } from './upload.js';

export type SettlementValues = z.output<typeof settlementSchema>;

/** The integer columns hold at most this; the schema lets larger numbers through. */
const MAX_COUNT = 2_147_483_647;
const COUNT_FIELDS = ['brojDomacinstava', 'brojSkola', 'brojIndirektnoPokrivenihDomacinstava', 'brojIndirektnoPokrivenihSkola'] as const;

/** A settlement of a row, validated as the codebook form validates it (spec 2 §5). */
export function parseSettlement(values: Keyed<typeof SETTLEMENT_COLUMNS>): z.ZodSafeParseResult<SettlementValues> {
  const result = settlementSchema.safeParse(values);
  if (result.success) {
    for (const field of COUNT_FIELDS) {
      const n = result.data[field];
      if (n !== null && n > MAX_COUNT) return settlementSchema.safeParse({ ...values, [field]: 'x' });
    }
  }
  return result;
}

export const settlementRow = (s: SettlementValues) => ({
  code: s.id,
  naziv: s.naziv,
  maticniBroj: s.maticniBroj,
  opstine: s.opstina,
  operator: s.operator,
  javniPoziv: s.javniPoziv,
  brojDomacinstava: s.brojDomacinstava,
  brojSkola: s.brojSkola,
  brojIndirektnoPokrivenihDomacinstava: s.brojIndirektnoPokrivenihDomacinstava,
  brojIndirektnoPokrivenihSkola: s.brojIndirektnoPokrivenihSkola,
});

/** Ids of the settlements with these registry ids (code → id). */
export async function settlementIdsByCode(db: Executor, codes: readonly string[]): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  for (const [code, s] of await settlementsByCode(db, codes)) found.set(code, s.id);
  return found;
}

/** The settlements with these registry ids (code → id and stored name). */
export async function settlementsByCode(db: Executor, codes: readonly string[]): Promise<Map<string, { id: string; naziv: string }>> {
  const found = new Map<string, { id: string; naziv: string }>();
  for (const part of chunks([...new Set(codes)])) {
    const rows = await db
      .select({ id: settlements.id, code: settlements.code, naziv: settlements.naziv })
      .from(settlements)
      .where(inArray(settlements.code, part));
    for (const r of rows) found.set(r.code, { id: r.id, naziv: r.naziv });
  }
  return found;
}

/** How a duplicate names the settlement already there: its name and registry id (and the row it came from). */
export const clashing = (naziv: string, code: string, row?: number) =>
  `${asTyped(naziv)} (${asTyped(code)}${row === undefined ? '' : `, ред ${row}`})`;

/** Inserts settlements; one whose registry id appeared meanwhile is left as it is. Returns the codes inserted. */
export async function insertSettlements(tx: Executor, values: readonly SettlementValues[]): Promise<Set<string>> {
  const inserted = new Set<string>();
  for (const part of chunks(values)) {
    const rows = await tx.insert(settlements).values(part.map(settlementRow)).onConflictDoNothing().returning({ code: settlements.code });
    for (const r of rows) inserted.add(r.code);
  }
  return inserted;
}

/**
 * POST /api/naselje/excel-import: each row a settlement, known by its registry id. A registry id
 * already in the codebook is left alone (a warning naming the stored settlement: re-importing a file
 * changes nothing); one repeated in the file is the later row's error, naming the first row's
 * settlement ('Дупликат за: Bioska (IMP-S-4, ред 6)'). The valid rows are saved in one transaction.
 */
export async function importSettlements(ctx: AppContext, actor: Actor, sheet: UploadedSheet, req: RequestInfo): Promise<ImportDocument> {
  const report = new Report();
  const candidates: { row: ReturnType<Report['add']>; value: SettlementValues }[] = [];
  const seen = new Map<string, { naziv: string; row: number }>();
  for await (const { row, values } of keyedRows(sheet.rows(), SETTLEMENT_COLUMNS, ['id', 'naziv'])) {
    const entry = report.add(row, values.naziv || values.id);
    const parsed = parseSettlement(values);
    if (!parsed.success) {
      parseErrors(entry, values.id, parsed.error);
      continue;
    }
    const first = seen.get(parsed.data.id);
    if (first) {
      rowError(entry, parsed.data.id, CODEBOOKS.duplicateSettlement(clashing(first.naziv, parsed.data.id, first.row)));
      continue;
    }
    seen.set(parsed.data.id, { naziv: parsed.data.naziv, row });
    candidates.push({ row: entry, value: parsed.data });
  }
  const existing = await settlementsByCode(
    ctx.db,
    candidates.map((c) => c.value.id),
  );
  const fresh = candidates.filter((c) => {
    const stored = existing.get(c.value.id);
    if (!stored) return true;
    c.row.warnings.push(IMPORTS.exists(`Насеље „${asTyped(stored.naziv)}“ (${asTyped(c.value.id)})`));
    return false;
  });
  await ctx.db.transaction(async (tx) => {
    const inserted = await insertSettlements(
      tx,
      fresh.map((c) => c.value),
    );
    for (const c of fresh) {
      if (inserted.has(c.value.id)) c.row.success = true;
      else c.row.warnings.push(IMPORTS.exists(`Насеље „${asTyped(c.value.naziv)}“ (${asTyped(c.value.id)})`));
    }
    if (inserted.size > 0) {
      await writeLog(tx, {
        actor,
        ...req,
        message: `Korisnik ${asTyped(actor.email)} je uvezao ${inserted.size} naselja iz fajla ${asTyped(sheet.originalName)}.`,
      });
    }
  });
  return report.document();
}
