import { calendarDay } from '@trasa/domain';

/**
 * The application's time zone: its "today" (activity deadlines, row colours, the daily digest and the
 * nightly snapshots) is the calendar day there. APP_TIMEZONE (an IANA name) overrides the default, the
 * ministry's Europe/Belgrade. An unknown name fails at start, not at the first deadline.
 */
export const APP_TIME_ZONE = resolveTimeZone(process.env.APP_TIMEZONE || process.env.DIGEST_TIMEZONE || 'Europe/Belgrade');

function resolveTimeZone(name: string): string {
  try {
    calendarDay(new Date(0), name);
    return name;
  } catch {
    throw new Error(`APP_TIMEZONE: unknown time zone '${name}'`);
  }
}

/** Today (YYYY-MM-DD) in the application's time zone. */
export function appToday(now: Date = new Date()): string {
  return calendarDay(now, APP_TIME_ZONE);
}
