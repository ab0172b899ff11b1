/** What an activity's typed values read as: an amount, a calendar date, a date not in the future (rules.ts). */

/** Units a typed amount may end with (they are shown beside the field): removed before reading. */
const AMOUNT_UNITS = /\s*(rsd|din\.?|dinara|eur|usd|m|metara|м|метара|дин\.?|динара)$/i;
/** The largest amount read (a route of a million kilometres, a fee of a thousand billion dinars). */
export const MAX_AMOUNT = 1e12;

/**
 * A number as typed: spaces as thousands separators ('12 500'), a comma or a dot as the decimal
 * separator ('1234,5'), an optional unit at the end ('12 500 RSD', '300 m'). Null for anything else:
 * letters elsewhere ('1e5', 'abc12'), two separators ('1.234,5' is ambiguous), more than MAX_AMOUNT.
 */
export function parseAmount(value: string | null | undefined): number | null {
  if (value === null || value === undefined) return null;
  const cleaned = value
    .trim()
    .replace(AMOUNT_UNITS, '')
    .replace(/[\s\u00a0\u202f']/g, '')
    .replace(',', '.');
  if (!/^-?\d+(\.\d+)?$/.test(cleaned)) return null;
  const n = Number(cleaned);
  return Number.isFinite(n) && Math.abs(n) <= MAX_AMOUNT ? n : null;
}

/** Today as YYYY-MM-DD in local time. */
function todayIso(today: Date): string {
  const mm = String(today.getMonth() + 1).padStart(2, '0');
  const dd = String(today.getDate()).padStart(2, '0');
  return `${today.getFullYear()}-${mm}-${dd}`;
}

/** A real calendar date YYYY-MM-DD. */
export function isIsoDate(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const d = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === value;
}

/** No activity date may lie in the future (spec 3 §5). `today` is a Date or YYYY-MM-DD. */
export function isFutureDate(value: string, today: Date | string = new Date()): boolean {
  return value > (typeof today === 'string' ? today : todayIso(today));
}
