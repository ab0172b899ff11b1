import { setImmediate as nextTurn } from 'node:timers/promises';

/** What every spreadsheet reader shares (spreadsheet.ts): the limits, the texts, and the rows keyed by the header. */

export type SheetFormat = 'csv' | 'xlsx' | 'xls';
export type SheetRow = { row: number; values: Record<string, string> };

export const SHEET_LIMITS = {
  maxRows: 100_000,
  maxColumns: 200,
  maxCellLength: 10_000,
  /** Sum of the uncompressed sizes an xlsx declares, and of the bytes actually inflated from it. */
  maxUncompressedBytes: 300 * 1024 * 1024,
  /** Uncompressed / compressed, per zip entry of any size worth checking. */
  maxCompressionRatio: 200,
  maxZipEntries: 5_000,
};

export class SpreadsheetError extends Error {}

/** How many rows an import takes, and the error past them (the routes' own wording). */
export type RowLimit = { maxRows: number; message: string };

export const SHEET_TEXTS = {
  unsupported: 'Dozvoljeni su samo fajlovi csv, xlsx i xls.',
  unreadable: 'Fajl nije moguće pročitati kao tabelu.',
  bomb: 'Fajl je neispravan ili preveliki kada se raspakuje.',
  tooManyRows: `Fajl ima više od ${SHEET_LIMITS.maxRows} redova.`,
  noHeader: 'Fajl nema red sa nazivima kolona.',
} as const;

export const SHEET_ROW_LIMIT: RowLimit = { maxRows: SHEET_LIMITS.maxRows, message: SHEET_TEXTS.tooManyRows };

/**
 * Since the start (tests and benchmarks read them): bytes actually inflated from xlsx entries, and rows
 * the reader took from a sheet (blank ones too, before the limit is checked).
 */
export const SHEET_STATS = { inflatedBytes: 0, rowsRead: 0 };

/** A reader gives the event loop a turn after this many rows, so other requests go on during an import. */
const ROWS_PER_TURN = 256;

export function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? '' : value.toISOString().slice(0, 10);
  if (typeof value === 'object') {
    const v = value as { richText?: { text: string }[]; text?: unknown; result?: unknown; error?: unknown };
    if (Array.isArray(v.richText)) return v.richText.map((r) => r.text).join('');
    if ('result' in v) return cellText(v.result);
    if ('text' in v) return cellText(v.text);
    if ('error' in v) return '';
    return '';
  }
  return String(value);
}

function clean(text: string): string {
  return text
    .replace(/^\uFEFF/, '')
    .trim()
    .slice(0, SHEET_LIMITS.maxCellLength);
}

/** A row counts unless each of its first maxColumns cells is empty once cleaned. */
export const blank = (values: readonly string[]) => values.every((v) => v === '');
export const cleaned = (cells: readonly string[]) => cells.slice(0, SHEET_LIMITS.maxColumns).map(clean);

/**
 * Turns positional rows into objects keyed by the first non-empty row (the header). The row past the
 * limit stops the read (the caller's iteration ends, which closes the source). Every ROWS_PER_TURN rows
 * it waits for the event loop's next turn: parsing and the caller's checks of those rows run between two
 * such waits, so a large sheet never holds the loop for longer than a chunk's parse and a few hundred
 * rows' checks.
 */
export async function* keyed(rows: AsyncIterable<{ row: number; cells: string[] }>, limit: RowLimit): AsyncGenerator<SheetRow> {
  let headers: string[] | null = null;
  let count = 0;
  let sinceTurn = 0;
  for await (const { row, cells } of rows) {
    SHEET_STATS.rowsRead++;
    if (++sinceTurn >= ROWS_PER_TURN) {
      sinceTurn = 0;
      await nextTurn();
    }
    const values = cleaned(cells);
    if (blank(values)) continue;
    if (!headers) {
      headers = values;
      continue;
    }
    if (++count > limit.maxRows) throw new SpreadsheetError(limit.message);
    const record: Record<string, string> = {};
    headers.forEach((h, i) => {
      if (h) record[h] = values[i] ?? '';
    });
    yield { row, values: record };
  }
  if (!headers) throw new SpreadsheetError(SHEET_TEXTS.noHeader);
}
