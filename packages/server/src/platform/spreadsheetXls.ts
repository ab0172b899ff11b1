import fs from 'node:fs/promises';
import * as XLSX from '@e965/xlsx';
import { cellText, SHEET_LIMITS, SHEET_TEXTS, SpreadsheetError } from './spreadsheetRows.js';

/** The legacy xls reader (spreadsheet.ts): BIFF through SheetJS, read whole (at most 10 MB). */

export async function* xlsRows(filePath: string): AsyncGenerator<{ row: number; cells: string[] }> {
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
