/**
 * Row colours of clusters, contracts and activities (spec 2 §4; spec 3 "Row colours for
 * notifications"). One function, used by the server (filters, notifications) and the web (rows).
 */
export type DeadlineColour = 'blue' | 'orange' | 'red' | 'green' | 'greenRed' | 'white';

export type Timed = {
  /** In progress: the work started and is not finished. */
  inProgress: boolean;
  finished: boolean;
  /** YYYY-MM-DD or Date; the start of the period the deadline counts from. */
  start: string | Date | null | undefined;
  /** The deadline; null with `floating` (klizno) or when unknown. */
  due: string | Date | null | undefined;
  /** When it finished (for on-time / late). */
  finishedAt?: string | Date | null;
  /** A floating deadline ('klizno'): in progress counts blue, finished green. */
  floating?: boolean;
};

/** The orange threshold: 10 % or less of the duration remaining. */
export const ORANGE_SHARE = 0.1;

const DAY = 86_400_000;

function day(value: string | Date | null | undefined): number | null {
  if (!value) return null;
  const d = typeof value === 'string' ? new Date(value.length === 10 ? `${value}T00:00:00Z` : value) : value;
  const t = d.getTime();
  if (Number.isNaN(t)) return null;
  return Math.floor(t / DAY);
}

export function deadlineColour(item: Timed, today: Date = new Date()): DeadlineColour {
  const due = day(item.due);
  if (item.finished) {
    if (item.floating || due === null) return 'green';
    const done = day(item.finishedAt) ?? day(today);
    return done !== null && done > due ? 'greenRed' : 'green';
  }
  if (!item.inProgress) return 'white';
  if (item.floating) return 'blue';
  const start = day(item.start);
  const now = day(today) as number;
  if (due === null || start === null) return 'white';
  if (now > due) return 'red';
  const total = due - start;
  const left = due - now;
  if (total <= 0) return 'orange';
  // Blue needs more than 10 % left; 0 to 10 % inclusive is orange (spec 2 §4).
  return left / total > ORANGE_SHARE ? 'blue' : 'orange';
}

/** YYYY-MM-DD of a date plus whole days (contract due date = datumPocetka + rokTrajanja). */
export function addDays(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/** Whole days from `from` to `to` (both YYYY-MM-DD or dates), negative when `to` is earlier; null for a missing one. */
export function daysBetween(from: string | Date | null | undefined, to: string | Date | null | undefined): number | null {
  const a = day(from);
  const b = day(to);
  return a === null || b === null ? null : b - a;
}

/** The colours as the theme shows them. */
export const COLOUR_HEX: Record<DeadlineColour, string> = {
  blue: '#cfe0f3',
  orange: '#ffd8a8',
  red: '#f5b5b7',
  green: '#c3e6cb',
  greenRed: 'repeating-linear-gradient(45deg, #c3e6cb 0 10px, #f5b5b7 10px 20px)',
  white: '#ffffff',
};
