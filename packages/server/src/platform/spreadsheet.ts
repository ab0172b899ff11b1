import { createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import * as XLSX from '@e965/xlsx';
import ExcelJS from 'exceljs';
import Papa from 'papaparse';
import yauzl from 'yauzl';

/**
 * Reading imported spreadsheets (csv, xlsx, xls) row by row with bounded memory: xlsx through exceljs'
 * streaming reader, csv through papaparse's stream, legacy xls (BIFF, at most 10 MB) through SheetJS.
 * The format is decided by the content, not the name. An xlsx whose declared content would inflate
 * past the limits (a zip bomb) is refused before it is read.
 */
export type SheetFormat = 'csv' | 'xlsx' | 'xls';
export type SheetRow = { row: number; values: Record<string, string> };

export const SHEET_LIMITS = {
  maxRows: 100_000,
  maxColumns: 200,
  maxCellLength: 10_000,
  /** Sum of the uncompressed sizes an xlsx declares. */
  maxUncompressedBytes: 300 * 1024 * 1024,
  /** Uncompressed / compressed, per zip entry of any size worth checking. */
  maxCompressionRatio: 200,
  maxZipEntries: 5_000,
};

export class SpreadsheetError extends Error {}

export const SHEET_TEXTS = {
  unsupported: 'Dozvoljeni su samo fajlovi csv, xlsx i xls.',
  unreadable: 'Fajl nije moguće pročitati kao tabelu.',
  bomb: 'Fajl je neispravan ili preveliki kada se raspakuje.',
  tooManyRows: `Fajl ima više od ${SHEET_LIMITS.maxRows} redova.`,
  noHeader: 'Fajl nema red sa nazivima kolona.',
} as const;

const ZIP = Buffer.from([0x50, 0x4b, 0x03, 0x04]);
const OLE2 = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);

/**
 * The format by content, for a name ending in .csv, .xlsx or .xls (the formats the spec allows): zip →
 * xlsx, OLE2 → xls (an xlsx saved as .xls is still read), text with no NUL bytes and a .csv name → csv.
 */
export async function detectFormat(filePath: string, originalName: string): Promise<SheetFormat> {
  const handle = await fs.open(filePath, 'r');
  try {
    const head = Buffer.alloc(4096);
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

/** Refuses an xlsx whose central directory declares more than the limits allow. */
async function checkZip(filePath: string): Promise<void> {
  const zip = await new Promise<yauzl.ZipFile>((resolve, reject) =>
    yauzl.open(filePath, { lazyEntries: true, autoClose: true }, (err, z) => (err || !z ? reject(err) : resolve(z))),
  ).catch(() => {
    throw new SpreadsheetError(SHEET_TEXTS.unreadable);
  });
  await new Promise<void>((resolve, reject) => {
    let total = 0;
    let count = 0;
    zip.on('entry', (entry: yauzl.Entry) => {
      count++;
      total += entry.uncompressedSize;
      const ratio = entry.compressedSize > 0 ? entry.uncompressedSize / entry.compressedSize : entry.uncompressedSize > 0 ? Infinity : 0;
      if (
        count > SHEET_LIMITS.maxZipEntries ||
        total > SHEET_LIMITS.maxUncompressedBytes ||
        (entry.uncompressedSize > 1_000_000 && ratio > SHEET_LIMITS.maxCompressionRatio)
      ) {
        zip.close();
        reject(new SpreadsheetError(SHEET_TEXTS.bomb));
        return;
      }
      zip.readEntry();
    });
    zip.on('end', () => resolve());
    zip.on('error', () => reject(new SpreadsheetError(SHEET_TEXTS.unreadable)));
    zip.readEntry();
  });
}

function cellText(value: unknown): string {
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

/** Turns positional rows into objects keyed by the first non-empty row (the header). */
async function* keyed(rows: AsyncIterable<{ row: number; cells: string[] }>): AsyncGenerator<SheetRow> {
  let headers: string[] | null = null;
  let count = 0;
  for await (const { row, cells } of rows) {
    const values = cells.slice(0, SHEET_LIMITS.maxColumns).map(clean);
    if (values.every((v) => v === '')) continue;
    if (!headers) {
      headers = values;
      continue;
    }
    if (++count > SHEET_LIMITS.maxRows) throw new SpreadsheetError(SHEET_TEXTS.tooManyRows);
    const record: Record<string, string> = {};
    headers.forEach((h, i) => {
      if (h) record[h] = values[i] ?? '';
    });
    yield { row, values: record };
  }
  if (!headers) throw new SpreadsheetError(SHEET_TEXTS.noHeader);
}

async function* xlsxRows(filePath: string): AsyncGenerator<{ row: number; cells: string[] }> {
  await checkZip(filePath);
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(createReadStream(filePath), {
    sharedStrings: 'cache',
    hyperlinks: 'ignore',
    styles: 'cache',
    worksheets: 'emit',
    entries: 'emit',
  });
  try {
    for await (const sheet of reader) {
      for await (const row of sheet) {
        const r = row as ExcelJS.Row;
        const values = Array.isArray(r.values) ? r.values : [];
        yield { row: r.number, cells: values.slice(1).map(cellText) };
      }
      return; // the first worksheet only
    }
  } catch (e) {
    if (e instanceof SpreadsheetError) throw e;
    throw new SpreadsheetError(SHEET_TEXTS.unreadable);
  }
}

async function* csvRows(filePath: string): AsyncGenerator<{ row: number; cells: string[] }> {
  const stream = createReadStream(filePath, { encoding: 'utf8' }).pipe(Papa.parse(Papa.NODE_STREAM_INPUT, { skipEmptyLines: false }));
  let row = 0;
  for await (const cells of stream as AsyncIterable<string[]>) {
    row++;
    yield { row, cells: cells.map((c) => String(c ?? '')) };
  }
}

async function* xlsRows(filePath: string): AsyncGenerator<{ row: number; cells: string[] }> {
  let workbook: XLSX.WorkBook;
  try {
    workbook = XLSX.read(await fs.readFile(filePath), {
      type: 'buffer',
      dense: true,
      cellDates: true,
      sheetRows: SHEET_LIMITS.maxRows + 2,
    });
  } catch {
    throw new SpreadsheetError(SHEET_TEXTS.unreadable);
  }
  const name = workbook.SheetNames[0];
  const sheet = name ? workbook.Sheets[name] : undefined;
  if (!sheet) throw new SpreadsheetError(SHEET_TEXTS.noHeader);
  const rows = XLSX.utils.sheet_to_json<unknown[]>(sheet, { header: 1, raw: true, defval: '', blankrows: true });
  let row = 0;
  for (const cells of rows) {
    row++;
    yield { row, cells: (cells as unknown[]).map(cellText) };
  }
}

/** The rows of the first sheet, keyed by the header row. */
export function readSheet(filePath: string, format: SheetFormat): AsyncGenerator<SheetRow> {
  const rows = format === 'xlsx' ? xlsxRows(filePath) : format === 'xls' ? xlsRows(filePath) : csvRows(filePath);
  return keyed(rows);
}
