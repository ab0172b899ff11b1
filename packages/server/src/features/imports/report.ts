import { asTyped, IMPORTS, type ImportDocument, type ImportReportRow } from '@trasa/domain';
import type { z } from 'zod';

/** The report of one import: a row per spreadsheet row, in the order of the file. */
export class Report {
  readonly rows: ImportReportRow[] = [];

  add(red: number, naziv: string): ImportReportRow {
    const row: ImportReportRow = { red, naziv, success: false, warnings: [], errors: [] };
    this.rows.push(row);
    return row;
  }

  document(): ImportDocument {
    let uvezeno = 0;
    let neuspesno = 0;
    for (const r of this.rows) {
      if (r.errors.length > 0) neuspesno++;
      else if (r.success) uvezeno++;
    }
    return { importReport: this.rows, ukupno: this.rows.length, uvezeno, preskoceno: this.rows.length - uvezeno - neuspesno, neuspesno };
  }
}

/** A row's error in the spec's words: 'Грешка при креирању за ред: {key} - {reason}'. */
export function rowError(row: ImportReportRow, key: string, reason: string): void {
  row.errors.push(IMPORTS.rowError(asTyped(key || String(row.red)), reason));
}

/** Every distinct message of a failed parse, as errors of the row. */
export function parseErrors(row: ImportReportRow, key: string, error: z.ZodError): void {
  for (const message of new Set(error.issues.map((i) => i.message))) rowError(row, key, message);
}

/** Splits a list typed in one cell: commas or semicolons. */
export function listCell(text: string): string[] {
  return text
    .split(/[,;]/)
    .map((s) => s.trim())
    .filter(Boolean);
}

/** In chunks of `size` (bulk inserts and `in (…)` lists stay within PostgreSQL's parameter limit). */
export function* chunks<T>(items: readonly T[], size = 500): Generator<T[]> {
  for (let i = 0; i < items.length; i += size) yield items.slice(i, i + size);
}
