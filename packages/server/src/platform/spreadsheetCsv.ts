import { createReadStream } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';
import Papa from 'papaparse';
import { blank, cleaned, type RowLimit, SHEET_STATS, SpreadsheetError } from './spreadsheetRows.js';

/** The csv reader (spreadsheet.ts): papaparse's parser a chunk at a time, and the row count of an upload. */

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

export async function* csvRows(filePath: string): AsyncGenerator<{ row: number; cells: string[] }> {
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
