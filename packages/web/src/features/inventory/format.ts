import { formatDate, formatQuantity, formatRsd } from '@trasa/domain';
import { UI } from '../../texts';
import { INV_LABELS } from './labels';

/** Money with two decimals as Serbs write it (spec 3 §9; the domain's formatRsd): 1.234,50. */
export function formatAmount(value: number | null | undefined): string {
  return typeof value === 'number' && Number.isFinite(value) ? formatRsd(value).replace(/ RSD$/, '') : UI.empty;
}

/** Money in dinars with the suffix: 1.234,50 RSD. */
export function formatDinars(value: number | null | undefined): string {
  return typeof value === 'number' && Number.isFinite(value) ? formatRsd(value) : UI.empty;
}

/** A quantity with its unit, a decimal comma and a dot between thousands: 1.250,5 m. */
export function formatKolicina(value: number | null | undefined, jedinica?: string | null): string {
  return formatQuantity(value, jedinica) || UI.empty;
}

export function dateOrDash(value: string | null | undefined): string {
  return formatDate(value ?? null) || UI.empty;
}

/** Today (YYYY-MM-DD) in the browser's local time. */
export function localToday(now: Date = new Date()): string {
  const mm = String(now.getMonth() + 1).padStart(2, '0');
  const dd = String(now.getDate()).padStart(2, '0');
  return `${now.getFullYear()}-${mm}-${dd}`;
}

/** A handover date: a planned one (after today) says so in words, 'Планирано за 13.12.2026'. */
export function handoverDate(value: string | null | undefined, planned: boolean): string {
  return planned && value ? INV_LABELS.plannedFor(formatDate(value)) : dateOrDash(value);
}

/** The name of a reference that may come as an id or as an object with naziv. */
export function nameOf(ref: unknown): string {
  if (ref && typeof ref === 'object' && 'naziv' in ref && typeof ref.naziv === 'string') return ref.naziv;
  return typeof ref === 'string' ? ref : UI.empty;
}
