import { type DeadlineColour, deadlineColour, FINISHED, IN_PROGRESS } from '@trasa/domain';
import { type SQL, sql } from 'drizzle-orm';
import { activities } from '../db/schema-activities.js';
import { appToday } from '../platform/time.js';

/**
 * An activity's row colour (spec 3 §4 "Row colours for notifications"): the domain's deadlineColour in
 * JavaScript for presenting, and the same rule in SQL for the colour filter of the in-progress list.
 * Both count whole days from the same `today`, the application's calendar day (platform/time.ts, the
 * same day the workflow dates deadlines with), so the server passes one date to both;
 * notifications.test.ts compares them on the boundaries.
 */

/** Today in the application's time zone, YYYY-MM-DD. */
export function todayOf(now: Date = new Date()): string {
  return appToday(now);
}

export type TimedActivity = {
  status: string;
  datumPocetka: string | null;
  datumZavrsetka: string | null;
  rokZavrsetka: string | null;
};

/** An activity without a deadline date is 'klizno' (rok null when it started). */
export function activityColour(a: TimedActivity, now: Date = new Date()): DeadlineColour {
  return deadlineColour(
    {
      inProgress: a.status === IN_PROGRESS,
      finished: a.status === FINISHED,
      start: a.datumPocetka,
      due: a.rokZavrsetka,
      finishedAt: a.datumZavrsetka,
      floating: a.rokZavrsetka === null,
    },
    // The domain counts UTC days: hand it the application's day at UTC midnight.
    new Date(`${todayOf(now)}T00:00:00Z`),
  );
}

/** Whole days from `today` to the deadline (negative when late); null unless in progress with a deadline. */
export function daysLeft(a: TimedActivity, today: string): number | null {
  if (a.status !== IN_PROGRESS || !a.rokZavrsetka) return null;
  return Math.round((Date.parse(`${a.rokZavrsetka}T00:00:00Z`) - Date.parse(`${today}T00:00:00Z`)) / 86_400_000);
}

type Columns = { status: SQL; start: SQL; due: SQL; finished: SQL };
const own: Columns = {
  status: sql`${activities.status}`,
  start: sql`${activities.datumPocetka}`,
  due: sql`${activities.rokZavrsetka}`,
  finished: sql`${activities.datumZavrsetka}`,
};

/**
 * deadlineColour as an SQL expression over an activity row (`activities` by default), with `today` a
 * bound date. Date minus date is whole days; "more than 10 % left" is 10 × left > total, which is what
 * the domain's left / total > 0.1 decides for whole days.
 */
export function activityColourSql(today: string, c: Columns = own): SQL<DeadlineColour> {
  const t = sql`${today}::date`;
  return sql<DeadlineColour>`(case
    when ${c.status} = ${FINISHED} then
      case when ${c.due} is null then 'green' when coalesce(${c.finished}, ${t}) > ${c.due} then 'greenRed' else 'green' end
    when ${c.status} <> ${IN_PROGRESS} then 'white'
    when ${c.due} is null then 'blue'
    when ${c.start} is null then 'white'
    when ${t} > ${c.due} then 'red'
    when ${c.due} - ${c.start} <= 0 then 'orange'
    when (${c.due} - ${t}) * 10 > ${c.due} - ${c.start} then 'blue'
    else 'orange'
  end)`;
}

/**
 * Rows of one colour. The range on rok_zavrsetka repeats what the expression implies, so PostgreSQL can
 * read only that part of the in-progress index (red: late ones; orange: not yet late).
 */
export function colourCondition(colour: DeadlineColour, today: string): SQL {
  const t = sql`${today}::date`;
  const range =
    colour === 'red'
      ? sql` and ${activities.rokZavrsetka} < ${t}`
      : colour === 'orange'
        ? sql` and ${activities.rokZavrsetka} >= ${t}`
        : sql``;
  return sql`(${activityColourSql(today)} = ${colour}${range})`;
}
