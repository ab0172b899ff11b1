import { formatDate } from '@trasa/domain';
import { UI } from '../../texts';

const AMOUNT = new Intl.NumberFormat('sr-Latn-RS', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** Money with two decimals, Serbian locale (spec 3 §9): 1.234,50. */
export function formatAmount(value: number | null | undefined): string {
  return typeof value === 'number' && Number.isFinite(value) ? AMOUNT.format(value) : UI.empty;
}

/** Money in dinars with the suffix: 1.234,50 RSD. */
export function formatDinars(value: number | null | undefined): string {
  return typeof value === 'number' && Number.isFinite(value) ? `${AMOUNT.format(value)} RSD` : UI.empty;
}

export function dateOrDash(value: string | null | undefined): string {
  return formatDate(value ?? null) || UI.empty;
}

/** The name of a reference that may come as an id or as an object with naziv. */
export function nameOf(ref: unknown): string {
  if (ref && typeof ref === 'object' && 'naziv' in ref && typeof ref.naziv === 'string') return ref.naziv;
  return typeof ref === 'string' ? ref : UI.empty;
}
