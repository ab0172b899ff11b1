import type { PassThrough } from 'node:stream';
import { spreadsheetSafe } from '@trasa/domain';
import ExcelJS from 'exceljs';

/**
 * Lists written as .xlsx while their rows arrive (exceljs' streaming WorkbookWriter, shared strings off:
 * every row is committed and leaves memory at once). Text cells go through the domain's
 * spreadsheetSafe, so a cell starting with =, +, -, @ is never read as a formula.
 */

export type Cell = string | number | null;
export type SheetColumn = { header: string /** width in characters */; width: number };

/** Waits while the consumer (the HTTP response) is behind, so a slow client doesn't make the server buffer. */
export async function drained(out: PassThrough, limit = 4 * 1024 * 1024): Promise<void> {
  while (out.readableLength > limit && !out.destroyed) await new Promise((r) => setTimeout(r, 2));
}

export function safeCell(value: Cell): Cell {
  return typeof value === 'string' ? spreadsheetSafe(value) : value;
}

/**
 * A sheet name Excel opens (the one place names are made safe): the characters it forbids
 * (`: \ / ? * [ ]` and control characters) become spaces, an apostrophe may not start or end it, at
 * most 31 UTF-16 units (a surrogate pair is never cut), and an empty or reserved ('History') name
 * becomes 'Podaci'.
 */
export function sheetNameOf(name: string): string {
  let s = name
    .replace(/[:\\/?*[\]\p{Cc}]/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  s = s.replace(/^'+/, '').trim();
  if (s.length > 31) {
    const end = /[\ud800-\udbff]/.test(s.charAt(30)) ? 30 : 31;
    s = s.slice(0, end);
  }
  s = s.replace(/'+$/, '').trim();
  return s === '' || s.toLowerCase() === 'history' ? 'Podaci' : s;
}

export async function writeXlsx(
  out: PassThrough,
  sheetName: string,
  columns: readonly SheetColumn[],
  batches: AsyncIterable<Cell[][]>,
): Promise<void> {
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useSharedStrings: false, useStyles: true });
  const sheet = workbook.addWorksheet(sheetNameOf(sheetName), { views: [{ state: 'frozen', ySplit: 1 }] });
  sheet.columns = columns.map((c, i) => ({ key: String(i), width: c.width }));
  const header = sheet.addRow(columns.map((c) => c.header));
  header.font = { bold: true };
  header.commit();
  for await (const batch of batches) {
    if (out.destroyed) return;
    for (const cells of batch) sheet.addRow(cells.map(safeCell)).commit();
    await drained(out);
  }
  sheet.commit();
  await workbook.commit();
}
