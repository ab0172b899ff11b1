import fs from 'node:fs/promises';
import { csvRows } from './spreadsheetCsv.js';
import {
  keyed,
  type RowLimit,
  SHEET_ROW_LIMIT,
  SHEET_TEXTS,
  type SheetFormat,
  type SheetRow,
  SpreadsheetError,
} from './spreadsheetRows.js';
import { xlsRows } from './spreadsheetXls.js';
import { CountedWorkbookReader, xlsxRows } from './spreadsheetXlsx.js';

/**
 * Reading imported spreadsheets (csv, xlsx, xls) row by row with bounded memory: xlsx through exceljs'
 * streaming reader, csv through papaparse's parser a chunk at a time, legacy xls (BIFF, at most 10 MB) through SheetJS.
 * The format is decided by the content, not the name. An xlsx whose declared content would inflate
 * past the limits (a zip bomb) is refused before it is read, and what is actually inflated is counted
 * while it streams: a part inflating past its declared size, or past the limits, stops the read.
 */

export { CsvRowCount, CsvText } from './spreadsheetCsv.js';
export {
  type RowLimit,
  SHEET_LIMITS,
  SHEET_ROW_LIMIT,
  SHEET_STATS,
  SHEET_TEXTS,
  type SheetFormat,
  type SheetRow,
  SpreadsheetError,
} from './spreadsheetRows.js';

/** How much of a file's start detectFormat looks at. */
export const FORMAT_HEAD_BYTES = 4096;

const ZIP = Buffer.from([0x50, 0x4b, 0x03, 0x04]);
const OLE2 = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);

/**
 * The format by content, for a name ending in .csv, .xlsx or .xls (the formats the spec allows): zip →
 * xlsx, OLE2 → xls (an xlsx saved as .xls is still read), text with no NUL bytes and a .csv name → csv.
 */
export async function detectFormat(filePath: string, originalName: string): Promise<SheetFormat> {
  const handle = await fs.open(filePath, 'r');
  try {
    const head = Buffer.alloc(FORMAT_HEAD_BYTES);
    const { bytesRead } = await handle.read(head, 0, head.length, 0);
    const bytes = head.subarray(0, bytesRead);
    const ext = originalName.toLowerCase().split('.').pop() ?? '';
    if (ext !== 'csv' && ext !== 'xlsx' && ext !== 'xls') throw new SpreadsheetError(SHEET_TEXTS.unsupported);
    if (bytes.subarray(0, 4).equals(ZIP) && ext !== 'csv') return 'xlsx';
    if (bytes.subarray(0, 8).equals(OLE2) && ext !== 'csv') return 'xls';
    if (ext === 'csv' && bytesRead > 0 && !bytes.includes(0)) return 'csv';
  } finally {
    await handle.close();
  }
  throw new SpreadsheetError(SHEET_TEXTS.unsupported);
}

/**
 * Refuses an xlsx with more rows than `limit` before an import reads it, so that no row is checked and
 * nothing is kept for a file that is refused anyway: a sheet with no more row elements than the limit and
 * a header passes at the cost of inflating it once; a longer one has its rows counted by the reader,
 * which stops at the row past the limit. A csv was counted while it uploaded; an xls is read whole and
 * counted by the import's reading.
 */
export async function checkRowLimit(filePath: string, format: SheetFormat, limit: RowLimit): Promise<void> {
  if (format !== 'xlsx') return;
  if ((await new CountedWorkbookReader(filePath).rowElements(limit.maxRows + 1)) <= limit.maxRows + 1) return;
  for await (const _ of readSheet(filePath, format, limit)) {
    /* counted by the reader */
  }
}

/** The rows of the first sheet, keyed by the header row; the row past `limit` is the limit's error. */
export function readSheet(filePath: string, format: SheetFormat, limit: RowLimit = SHEET_ROW_LIMIT): AsyncGenerator<SheetRow> {
  const rows = format === 'xlsx' ? xlsxRows(filePath) : format === 'xls' ? xlsRows(filePath) : csvRows(filePath);
  return keyed(rows, limit);
}
