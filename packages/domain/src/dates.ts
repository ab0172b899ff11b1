/**
 * Dates are stored YYYY-MM-DD and shown DD.MM.YYYY (spec 1 §9). A stored date is its calendar day as
 * written (not midnight UTC read in the viewer's zone, a day early west of Greenwich); a date-time is
 * its day in local time.
 */
export function formatDate(value: string | Date | null | undefined): string {
  if (!value) return '';
  const day = typeof value === 'string' ? /^(\d{4})-(\d{2})-(\d{2})$/.exec(value) : null;
  if (day) return `${day[3]}.${day[2]}.${day[1]}`;
  const d = typeof value === 'string' ? new Date(value) : value;
  if (Number.isNaN(d.getTime())) return '';
  const dd = String(d.getDate()).padStart(2, '0');
  const mm = String(d.getMonth() + 1).padStart(2, '0');
  return `${dd}.${mm}.${d.getFullYear()}`;
}

export function isoDate(d: Date): string {
  const mm = String(d.getMonth() + 1).padStart(2, '0');
  const dd = String(d.getDate()).padStart(2, '0');
  return `${d.getFullYear()}-${mm}-${dd}`;
}

const dayFormats = new Map<string, Intl.DateTimeFormat>();

/**
 * The calendar day (YYYY-MM-DD) that `now` falls on in `timeZone` (an IANA name). The application's
 * "today" — deadlines, colours, the digest — is one such day in one time zone (server: APP_TIMEZONE,
 * default Europe/Belgrade), whatever the machine's own zone.
 */
export function calendarDay(now: Date, timeZone: string): string {
  let format = dayFormats.get(timeZone);
  if (!format) {
    // en-CA formats as YYYY-MM-DD. Made once per zone: a new formatter cost more than the rest of a
    // notifications page (issue 15, docs/performance.md).
    format = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
    dayFormats.set(timeZone, format);
  }
  return format.format(now);
}
