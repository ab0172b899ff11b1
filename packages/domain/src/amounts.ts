/**
 * Money and quantities as typed (spec 3 §5: 'digits and one separator, a comma becoming a dot'), one rule
 * for every input that takes them — activity fees and lengths, additional fees, inventory and codebook
 * prices and quantities, a cluster's contracted value — and, on the server, for what those inputs send.
 *
 * - Only digits and ONE decimal separator (',' or '.', kept as '.'); spaces are dropped (grouping).
 * - A second separator is refused, never collapsed: '2.500' then ',' stays '2.500' (that is 2,5 — and the
 *   field shows '= 2,50 RSD' beside it at once, so '2.500' meant as two thousand five hundred is seen).
 * - At most `decimals` digits after the separator (money 2, metres 2, counts 0, inventory quantities 3).
 * - Letters, signs and exponents ('1e5', '-3', 'abc') are refused: no negative amounts anywhere.
 * - Deleting is never refused (a value kept from before the rule, '2.5005', can be corrected).
 * - A separator at either end is read as written: ',5' is 0,5 and '5,' is 5 (a number being typed).
 *
 * Imports (spreadsheets) additionally accept the unambiguous Serbian spelling with thousands dots and a
 * decimal comma ('2.500,50' → 2500,5); any other mix of separators is refused (parseImportedAmount).
 */

/** Decimals of money (RSD). */
export const MONEY_DECIMALS = 2;
/** Decimals of lengths in metres (route lengths, built length). */
export const METRE_DECIMALS = 2;
/** Decimals of counts (households, schools). */
export const COUNT_DECIMALS = 0;
/** Decimals of inventory quantities (kolicina: metres of cable, pieces). */
export const QUANTITY_DECIMALS = 3;

/** Why a keystroke was refused. */
export type AmountRefusal = 'separator' | 'decimals' | 'characters';

export type CleanedAmount = { value: string; refused: AmountRefusal | null };

/**
 * The keystroke filter: `raw` is the field's new text, `previous` its text before the keystroke. Returns
 * the text to keep (commas as dots, spaces dropped) or, when the new text breaks the rule, `previous`
 * unchanged with the reason. Never collapses a second separator or strips letters into the number.
 */
export function cleanAmountInput(raw: string, previous: string, decimals: number): CleanedAmount {
  const text = raw.replace(/[\s\u00a0\u202f]/g, '').replace(/,/g, '.');
  if (!/^[0-9.]*$/.test(text)) return { value: previous, refused: 'characters' };
  // A deletion is never refused: a value saved under an older rule ('2.5005') can be corrected.
  const parts = text.split('.');
  if (parts.length > 2) return { value: previous, refused: 'separator' };
  if (text.length < previous.length) return { value: text, refused: null };
  if (parts.length === 2 && (decimals === 0 || (parts[1] ?? '').length > decimals)) return { value: previous, refused: 'decimals' };
  return { value: text, refused: null };
}

/** The largest amount read (a fee of a thousand billion dinars). */
const MAX = 1e12;

/**
 * An amount typed or sent as text, read exactly by the rule above: null when it breaks it (or is empty,
 * or reaches 10^12). Numbers (JSON) are taken when finite, not negative and within the decimals.
 */
export function parseAmountText(value: string | number | null | undefined, decimals: number): number | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number') return Number.isFinite(value) && value >= 0 && value < MAX && hasDecimals(value, decimals) ? value : null;
  const text = value.trim();
  if (text === '') return null;
  const cleaned = cleanAmountInput(text, '', decimals);
  if (cleaned.refused || !/\d/.test(cleaned.value)) return null;
  const n = Number(cleaned.value.startsWith('.') ? `0${cleaned.value}` : cleaned.value.replace(/\.$/, ''));
  return Number.isFinite(n) && n < MAX ? n : null;
}

/** At most `decimals` decimals (a number as JSON sends it: its shortest spelling). */
function hasDecimals(n: number, decimals: number): boolean {
  const s = String(n);
  if (/e/i.test(s)) return Number.isInteger(n) && decimals >= 0 && n < MAX;
  const frac = s.split('.')[1] ?? '';
  return frac.length <= decimals;
}

/**
 * A spreadsheet cell's amount: the typed rule, plus the unambiguous Serbian spelling with thousands dots
 * and a decimal comma ('2.500,50', '1.234.567,5'). Any other mix ('2,500.50', '1.2,5') is refused.
 */
export function parseImportedAmount(value: string | number | null | undefined, decimals: number): number | null {
  if (typeof value === 'string') {
    const text = value.trim().replace(/[\s\u00a0\u202f]/g, '');
    if (/^\d{1,3}(\.\d{3})+,\d+$/.test(text)) return parseAmountText(text.replace(/\./g, ''), decimals);
  }
  return parseAmountText(value, decimals);
}

/** Thousands with dots, the decimal comma (sr): `min`–`max` decimals. */
export function formatAmount(n: number, minDecimals: number, maxDecimals: number = minDecimals): string {
  const negative = n < 0;
  const fixed = Math.abs(n).toFixed(maxDecimals);
  let [whole = '0', frac = ''] = fixed.split('.');
  while (frac.length > minDecimals && frac.endsWith('0')) frac = frac.slice(0, -1);
  whole = whole.replace(/\B(?=(\d{3})+(?!\d))/g, '.');
  return `${negative ? '-' : ''}${whole}${frac ? `,${frac}` : ''}`;
}

/** Money as the app shows it: '2.500,50 RSD'. */
export function formatMoneyRsd(n: number): string {
  return `${formatAmount(n, MONEY_DECIMALS)} RSD`;
}

/** Units that are money: shown with two decimals. */
const CURRENCIES = ['RSD', 'EUR', 'USD'];

/**
 * The amount a field's text is understood as, in the display format, for the helper beside the field
 * ('= 2,50 RSD', '= 1.250,5 m'); null while there is nothing to show (empty or not a number yet).
 */
export function understoodAmount(text: string, decimals: number, unit: string): string | null {
  const n = parseAmountText(text, decimals);
  if (n === null) return null;
  const shown = CURRENCIES.includes(unit) ? formatAmount(n, MONEY_DECIMALS) : formatAmount(n, 0, decimals);
  return `= ${shown}${unit ? ` ${unit}` : ''}`;
}
