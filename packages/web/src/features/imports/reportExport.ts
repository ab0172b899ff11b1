import { csvLine, type ImportReportRow, spreadsheetSafe } from '@trasa/domain';
import { saveBlob } from '../../api/client';
import { IMPORTS } from '../../messages';
import { UI } from '../../texts';

/** The report as rows of cells, with the dialog's column names as the header. */
function cellsOf(rows: readonly ImportReportRow[]): (string | number)[][] {
  return [
    [IMPORTS.columnRow, IMPORTS.columnName, IMPORTS.columnSuccess, IMPORTS.columnWarnings, IMPORTS.columnErrors],
    ...rows.map((r) => [r.red, r.naziv, r.success ? UI.yes : UI.no, r.warnings.join('\n'), r.errors.join('\n')]),
  ];
}

/** import-report.csv: UTF-8 with a byte order mark (so Excel reads the Cyrillic), formula-safe cells. */
export function exportReportCsv(rows: readonly ImportReportRow[]): void {
  const text = `\uFEFF${cellsOf(rows)
    .map((cells) => csvLine(cells))
    .join('\r\n')}\r\n`;
  saveBlob(new Blob([text], { type: 'text/csv;charset=utf-8' }), 'import-report.csv');
}

/** import-report.xlsx, written by SheetJS (loaded only when asked for); text cells are formula-safe. */
export async function exportReportXlsx(rows: readonly ImportReportRow[]): Promise<void> {
  const XLSX = await import('@e965/xlsx');
  const cells = cellsOf(rows).map((line) => line.map((c) => (typeof c === 'string' ? spreadsheetSafe(c) : c)));
  const sheet = XLSX.utils.aoa_to_sheet(cells);
  sheet['!cols'] = [{ wch: 6 }, { wch: 40 }, { wch: 10 }, { wch: 60 }, { wch: 80 }];
  const book = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(book, sheet, 'Резултат увоза');
  const bytes = XLSX.write(book, { type: 'array', bookType: 'xlsx' }) as ArrayBuffer;
  saveBlob(new Blob([bytes], { type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' }), 'import-report.xlsx');
}
