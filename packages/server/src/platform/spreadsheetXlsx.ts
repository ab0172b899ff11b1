import { type Readable, Transform } from 'node:stream';
import ExcelJS from 'exceljs';
import yauzl from 'yauzl';
import { cellText, SHEET_LIMITS, SHEET_STATS, SHEET_TEXTS, SpreadsheetError } from './spreadsheetRows.js';

/**
 * The xlsx reader (spreadsheet.ts): exceljs' streaming reader fed from the zip's central directory, every
 * part's declared and actually inflated size counted against the limits (a zip bomb is refused).
 */

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
export class CountedWorkbookReader extends ExcelReader {
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

export async function* xlsxRows(filePath: string): AsyncGenerator<{ row: number; cells: string[] }> {
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
