/**
 * A cell of an exported spreadsheet (csv, xlsx) as text that no spreadsheet program runs as a formula
 * (server-behaviour.md "Imports, exports, files"): a leading =, +, -, @, tab or carriage return gets an
 * apostrophe in front.
 */
export function spreadsheetSafe(value: string): string {
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

/** One CSV line (RFC 4180 quoting) of formula-safe cells. */
export function csvLine(cells: readonly (string | number | boolean)[]): string {
  return cells
    .map((cell) => {
      const text = spreadsheetSafe(String(cell));
      return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
    })
    .join(',');
}
