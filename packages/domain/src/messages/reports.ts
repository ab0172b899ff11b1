import { formatQuantity } from '../numbers.js';

/**
 * Texts of the reports (spec 3 §2.7, §8). The spec words the snapshot and compare failures and the
 * missing-snapshot note; the rest is ours.
 */
export const REPORTS = {
  backfillFailed: 'Greška pri popunjavanju snimaka',
  clearFailed: 'Greška pri brisanju snimaka',
  compareFailed: 'Greška pri poređenju izveštaja',
  noSnapshot: 'Nisu sačuvani podaci za izabrane datume',
  empty: 'Nema pronađenih podataka.',
  testPanelForbidden: 'Snimke može menjati administrator ili grupa koja vidi sve.',
  futureDate: 'Datum ne može biti u budućnosti.',
  invalidDate: 'Unesite datum (DD.MM.YYYY).',
  unknownActivity: 'Nepostojeća aktivnost.',
  unknownReport: 'Nepoznat izveštaj.',
  backfilled: (n: number) => `Sačuvani snimci za ${n} ${n === 1 ? 'dan' : 'dana'}.`,
  cleared: (n: number) => `Obrisano snimaka: ${n}.`,
} as const;

/** Test panel (spec 3 §5): days 1–60, default 10; an invalid value becomes 10. */
export const BACKFILL_DEFAULT_DAYS = 10;
export const BACKFILL_MAX_DAYS = 60;
export function backfillDays(value: unknown): number {
  const n = typeof value === 'number' ? value : typeof value === 'string' && /^\s*\d+\s*$/.test(value) ? Number(value) : Number.NaN;
  return Number.isInteger(n) && n >= 1 && n <= BACKFILL_MAX_DAYS ? n : BACKFILL_DEFAULT_DAYS;
}

/** A date typed DD.MM.YYYY (or YYYY-MM-DD) as YYYY-MM-DD, or null when it is not a real date. */
export function parseReportDate(value: string | null | undefined): string | null {
  const s = (value ?? '').trim();
  let m = /^(\d{1,2})\.(\d{1,2})\.(\d{4})\.?$/.exec(s);
  let y: number;
  let mo: number;
  let d: number;
  if (m) [d, mo, y] = [Number(m[1]), Number(m[2]), Number(m[3])];
  else {
    m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
    if (!m) return null;
    [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  }
  const date = new Date(Date.UTC(y, mo - 1, d));
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== mo - 1 || date.getUTCDate() !== d) return null;
  return `${String(y).padStart(4, '0')}-${String(mo).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
}

/** Money as the spec shows it: 1.234,56 RSD. */
export function formatRsd(value: number | null | undefined): string {
  if (value === null || value === undefined || Number.isNaN(value)) return '';
  const fixed = Math.abs(value).toFixed(2);
  const [whole = '0', cents = '00'] = fixed.split('.');
  return `${value < 0 ? '-' : ''}${whole.replace(/\B(?=(\d{3})+(?!\d))/g, '.')},${cents} RSD`;
}

/** A length in metres: 1.234,5 m (at most two decimals). */
export function formatMetres(value: number | null | undefined): string {
  return formatQuantity(value, 'm', 2);
}
