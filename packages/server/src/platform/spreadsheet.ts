import { createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import { type Readable, Transform } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { setImmediate as nextTurn } from 'node:timers/promises';
import * as XLSX from '@e965/xlsx';
import ExcelJS from 'exceljs';
import Papa from 'papaparse';
import yauzl from 'yauzl';

/**
 * Reading imported spreadsheets (csv, xlsx, xls) row by row with bounded memory: xlsx through exceljs'
 * streaming reader, csv through papaparse's parser a chunk at a time, legacy xls (BIFF, at most 10 MB) through SheetJS.
 * The format is decided by the content, not the name. An xlsx whose declared content would inflate
 * past the limits (a zip bomb) is refused before it is read, and what is actually inflated is counted
 * while it streams: a part inflating past its declared size, or past the limits, stops the read.
 */
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

export const SHEET_ROW_LIMIT: RowLimit = { maxRows: SHEET_LIMITS.maxRows, message: SHEET_TEXTS.tooManyRows };

/**
 * Since the start (tests and benchmarks read them): bytes actually inflated from xlsx entries, and rows
 * the reader took from a sheet (blank ones too, before the limit is checked).
 */
export const SHEET_STATS = { inflatedBytes: 0, rowsRead: 0 };

/** A reader gives the event loop a turn after this many rows, so other requests go on during an import. */
const ROWS_PER_TURN = 256;

const bomb = () => new SpreadsheetError(SHEET_TEXTS.bomb);

function openZip(filePath: string): Promise<yauzl.ZipFile> {
  return new Promise<yauzl.ZipFile>((resolve, reject) =>
    // Sizes are checked by inflateCounted below (a refusal there reads as a zip bomb, not as unreadable).
    yauzl.open(filePath, { lazyEntries: true, autoClose: false, validateEntrySizes: false }, (err, z) =>
      err || !z ? reject(err) : resolve(z),
    ),
  ).catch(() => {
    throw new SpreadsheetError(SHEET_TEXTS.unreadable);
  });
}

/**
 * The entries of the central directory by name; refuses what it declares past the limits (count, total
 * uncompressed size, ratio of a large entry) and a name given twice (which one a reader takes is not
 * defined).
 */
function entriesOf(zip: yauzl.ZipFile): Promise<Map<string, yauzl.Entry>> {
  return new Promise((resolve, reject) => {
    const entries = new Map<string, yauzl.Entry>();
    let total = 0;
    zip.on('entry', (entry: yauzl.Entry) => {
      total += entry.uncompressedSize;
      const ratio = entry.compressedSize > 0 ? entry.uncompressedSize / entry.compressedSize : entry.uncompressedSize > 0 ? Infinity : 0;
      if (
        entries.size >= SHEET_LIMITS.maxZipEntries ||
        total > SHEET_LIMITS.maxUncompressedBytes ||
        (entry.uncompressedSize > 1_000_000 && ratio > SHEET_LIMITS.maxCompressionRatio)
      ) {
        reject(bomb());
        return;
      }
      if (entries.has(entry.fileName)) {
        reject(new SpreadsheetError(SHEET_TEXTS.unreadable));
        return;
      }
      entries.set(entry.fileName, entry);
      zip.readEntry();
    });
    zip.on('end', () => resolve(entries));
    zip.on('error', () => reject(new SpreadsheetError(SHEET_TEXTS.unreadable)));
    zip.readEntry();
  });
}

/**
 * An entry's inflated content, counted while it streams (issue 12: the declared sizes are the
 * sender's word). It stops, as a zip bomb, at the first chunk past the entry's declared size, past the
 * ratio limit for what was actually inflated, or past the limit for all entries of the file together.
 */
function inflateCounted(zip: yauzl.ZipFile, entry: yauzl.Entry, budget: { bytes: number }, open: Set<Readable>): Promise<Readable> {
  return new Promise((resolve, reject) => {
    zip.openReadStream(entry, (err, source) => {
      if (err || !source) {
        reject(new SpreadsheetError(SHEET_TEXTS.unreadable));
        return;
      }
      let bytes = 0;
      const counter = new Transform({
        transform(chunk: Buffer, _enc, done) {
          bytes += chunk.length;
          budget.bytes += chunk.length;
          SHEET_STATS.inflatedBytes += chunk.length;
          if (
            bytes > entry.uncompressedSize ||
            budget.bytes > SHEET_LIMITS.maxUncompressedBytes ||
            (bytes > 1_000_000 && bytes / Math.max(entry.compressedSize, 1) > SHEET_LIMITS.maxCompressionRatio)
          ) {
            done(bomb());
            return;
          }
          done(null, chunk);
        },
      });
      // A broken deflate stream is unreadable; the counter's own refusal stays a zip bomb.
      source.on('error', () => counter.destroy(new SpreadsheetError(SHEET_TEXTS.unreadable)));
      counter.on('close', () => {
        source.destroy();
        open.delete(counter);
      });
      source.pipe(counter);
      open.add(counter);
      resolve(counter);
    });
  });
}

/** The parts of exceljs' streaming reader this module drives (lib/stream/xlsx/workbook-reader.js, 4.4). */
type ExcelReaderParts = {
  options: Record<string, string>;
  model?: { sheets?: { rId: string }[] };
  workbookRels?: { Id: string; Target: string }[];
  _parseRels(stream: Readable): Promise<void>;
  _parseWorkbook(stream: Readable): Promise<void>;
  _parseStyles(stream: Readable): Promise<void>;
  _parseSharedStrings(stream: Readable): AsyncGenerator<{ eventType: string; value: unknown }>;
  _parseWorksheet(iterator: AsyncIterable<unknown>, sheetNo: string): Generator<{ eventType: string; value: unknown }>;
  [Symbol.asyncIterator](): AsyncIterator<ExcelJS.stream.xlsx.WorksheetReader>;
};
const ExcelReader = ExcelJS.stream.xlsx.WorkbookReader as unknown as new (
  input: unknown,
  options: Record<string, string>,
) => ExcelReaderParts;

/** The first sheet's part: by the workbook's sheet order, else the lowest-numbered worksheet. */
function firstSheetPath(reader: ExcelReaderParts, entries: Map<string, yauzl.Entry>): string | undefined {
  const rId = reader.model?.sheets?.[0]?.rId;
  const target = reader.workbookRels?.find((r) => r.Id === rId)?.Target;
  if (target) {
    const name = target.startsWith('/') ? target.slice(1) : `xl/${target}`;
    if (entries.has(name) && /^xl\/worksheets\/sheet\d+\.xml$/.test(name)) return name;
  }
  return [...entries.keys()]
    .filter((n) => /^xl\/worksheets\/sheet\d+\.xml$/.test(n))
    .sort((a, b) => Number(/\d+/.exec(a.slice(14))?.[0]) - Number(/\d+/.exec(b.slice(14))?.[0]))[0];
}

/**
 * exceljs' streaming reader fed from the zip's central directory instead of its own sequential unzip:
 * every part is inflated through inflateCounted, parts it needs first (relations, workbook, styles,
 * shared strings) are read first without temporary files, and parts it does not need are never inflated.
 */
class CountedWorkbookReader extends ExcelReader {
  constructor(private readonly filePath: string) {
    super(undefined, { sharedStrings: 'cache', hyperlinks: 'ignore', styles: 'cache', worksheets: 'emit', entries: 'ignore' });
  }

  async *parse(): AsyncGenerator<{ eventType: string; value: unknown }> {
    const zip = await openZip(this.filePath);
    const open = new Set<Readable>();
    try {
      const entries = await entriesOf(zip);
      const budget = { bytes: 0 };
      const part = (name: string) => {
        const entry = entries.get(name);
        return entry ? inflateCounted(zip, entry, budget, open) : null;
      };
      const rels = await part('xl/_rels/workbook.xml.rels');
      if (rels) await this._parseRels(rels);
      const workbook = await part('xl/workbook.xml');
      if (workbook) await this._parseWorkbook(workbook);
      const styles = await part('xl/styles.xml');
      if (styles) await this._parseStyles(styles);
      const strings = await part('xl/sharedStrings.xml');
      if (strings) yield* this._parseSharedStrings(strings);
      const sheetPath = firstSheetPath(this, entries);
      const sheet = sheetPath ? await part(sheetPath) : null;
      if (sheet && sheetPath) yield* this._parseWorksheet(sheet, /(\d+)\.xml$/.exec(sheetPath)?.[1] ?? '1');
    } finally {
      for (const stream of open) stream.destroy();
      zip.close();
    }
  }

  /**
   * The row elements of the first sheet, counted in its inflated text without parsing it (the count stops
   * past `atMost`). No sheet has more rows than that; a producer's prefixed tags (`<x:row>`) are not
   * counted, which leaves the limit to the reader.
   */
  async rowElements(atMost: number): Promise<number> {
    const zip = await openZip(this.filePath);
    const open = new Set<Readable>();
    try {
      const entries = await entriesOf(zip);
      const budget = { bytes: 0 };
      const part = (name: string) => {
        const entry = entries.get(name);
        return entry ? inflateCounted(zip, entry, budget, open) : null;
      };
      const rels = await part('xl/_rels/workbook.xml.rels');
      if (rels) await this._parseRels(rels);
      const workbook = await part('xl/workbook.xml');
      if (workbook) await this._parseWorkbook(workbook);
      const sheetPath = firstSheetPath(this, entries);
      const sheet = sheetPath ? await part(sheetPath) : null;
      if (!sheet) return 0;
      let count = 0;
      // Four characters cannot hold a whole '<row ' (five): a tag split between chunks is counted once.
      let tail = '';
      for await (const chunk of sheet as AsyncIterable<Buffer>) {
        const text = tail + chunk.toString('latin1');
        const tag = /<row[\s>/]/g;
        while (tag.exec(text)) if (++count > atMost) return count;
        tail = text.slice(-4);
      }
      return count;
    } catch (e) {
      if (e instanceof SpreadsheetError) throw e;
      throw new SpreadsheetError(SHEET_TEXTS.unreadable);
    } finally {
      for (const stream of open) stream.destroy();
      zip.close();
    }
  }
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

/** A row counts unless each of its first maxColumns cells is empty once cleaned. */
const blank = (values: readonly string[]) => values.every((v) => v === '');
const cleaned = (cells: readonly string[]) => cells.slice(0, SHEET_LIMITS.maxColumns).map(clean);

/**
 * Turns positional rows into objects keyed by the first non-empty row (the header). The row past the
 * limit stops the read (the caller's iteration ends, which closes the source). Every ROWS_PER_TURN rows
 * it waits for the event loop's next turn: parsing and the caller's checks of those rows run between two
 * such waits, so a large sheet never holds the loop for longer than a chunk's parse and a few hundred
 * rows' checks.
 */
async function* keyed(rows: AsyncIterable<{ row: number; cells: string[] }>, limit: RowLimit): AsyncGenerator<SheetRow> {
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

async function* xlsxRows(filePath: string): AsyncGenerator<{ row: number; cells: string[] }> {
  const reader = new CountedWorkbookReader(filePath);
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

/** papaparse's parser of one whole file (delimiter and line ending guessed on its first input), untyped in @types/papaparse. */
type PapaHandle = {
  parse(input: string, baseIndex: number, ignoreLastRow: boolean): { data: string[][]; meta: { cursor: number } };
};
const ParserHandle = (Papa as unknown as { ParserHandle: new (config: Papa.ParseConfig) => PapaHandle }).ParserHandle;

/** The first parse waits for this much text, so the delimiter and the line ending are guessed on as much as a file read's first chunk. */
const CSV_FIRST_INPUT = 64 * 1024;

/**
 * A csv parsed as its text arrives, in the order of papaparse's own stream (the rows a chunk completes;
 * the unfinished last row waits for the next chunk), without its pause and resume: papaparse's Node
 * stream parsed the rest of a chunk again each time its 16-row buffer filled, ~2 s of a 100,000-row read.
 */
export class CsvText {
  private readonly handle = new ParserHandle({ skipEmptyLines: false });
  private pending = '';
  private started = false;

  /** The rows completed by `text`. */
  push(text: string): string[][] {
    this.pending += text;
    if (this.pending.length < CSV_FIRST_INPUT && !this.started) return [];
    return this.parse(true);
  }

  /** The rows left at the end of the file. */
  end(): string[][] {
    return this.pending === '' ? [] : this.parse(false);
  }

  private parse(ignoreLastRow: boolean): string[][] {
    this.started = true;
    const { data, meta } = this.handle.parse(this.pending, 0, ignoreLastRow);
    this.pending = ignoreLastRow ? this.pending.slice(meta.cursor) : '';
    return data.map((cells) => cells.map((c) => String(c ?? '')));
  }
}

async function* csvRows(filePath: string): AsyncGenerator<{ row: number; cells: string[] }> {
  // The stream's iterator closes the file when the iteration ends early (a refusal).
  const stream = createReadStream(filePath, { encoding: 'utf8', highWaterMark: CSV_FIRST_INPUT });
  const csv = new CsvText();
  let row = 0;
  try {
    for await (const text of stream as AsyncIterable<string>) {
      for (const cells of csv.push(text)) yield { row: ++row, cells };
    }
    for (const cells of csv.end()) yield { row: ++row, cells };
  } finally {
    stream.destroy();
  }
}

/**
 * Counts a csv's rows as an upload streams in, as the reader counts them (the first non-empty row is the
 * header; blank rows do not count), and refuses the row past the limit before the rest arrives.
 */
export class CsvRowCount {
  private readonly decoder = new StringDecoder('utf8');
  private readonly csv = new CsvText();
  private header = false;
  private rows = 0;

  constructor(private readonly limit: RowLimit) {}

  /** Throws SpreadsheetError(limit.message) at the row past the limit; a large chunk is parsed a file read's worth at a time. */
  push(chunk: Buffer): void {
    for (let at = 0; at < chunk.length; at += CSV_FIRST_INPUT) {
      this.count(this.csv.push(this.decoder.write(chunk.subarray(at, at + CSV_FIRST_INPUT))));
    }
  }

  end(): void {
    this.count(this.csv.push(this.decoder.end()));
    this.count(this.csv.end());
  }

  private count(rows: string[][]): void {
    for (const cells of rows) {
      SHEET_STATS.rowsRead++;
      if (blank(cleaned(cells))) continue;
      if (!this.header) this.header = true;
      else if (++this.rows > this.limit.maxRows) throw new SpreadsheetError(this.limit.message);
    }
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
