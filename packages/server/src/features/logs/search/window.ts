import type { LogsPage } from '@trasa/domain';
import { and, type SQL, sql } from 'drizzle-orm';
import { type Db, type Executor, runBatch } from '../../../platform/database.js';
import { cappedCount, countFromPage, estimatedTotal, logListCondition, type Total } from '../list.js';
import { type LogScope, logScopeCondition } from '../policy.js';
import {
  estimate,
  estimateOf,
  explainRows,
  ID_COLUMNS,
  newestRows,
  type PageRow,
  type Paging,
  pageRowsSql,
  present,
  SEARCH_TEXT,
  windowMatch,
} from '../rows.js';
import { allMatches } from './allMatches.js';
import type { SearchFacts } from './facts.js';
import { lettersOf, type Narrowing } from './narrowing.js';

/** Newest rows a search looks at before it asks the trigram index (more for deeper pages, up to `max`; tests change them). */
export const SEARCH_WINDOW = { rows: 5_000, max: 100_000 };

/**
 * A search's total when a frequent text filled the page among the newest rows: not counted (counting
 * a text in one row of twenty across a million rows is the cost the window avoided), the estimate
 * (`known`: matchEstimate's), never less than the pages shown so far — and not raised to the list's cap:
 * nothing was counted ('cacak' in a Rukovodilac's ~9,000 rows: 103 matches, ~122 estimated, not 1,001).
 */
export async function frequentTotal(db: Db, where: SQL, paging: Paging, shown: number, known: number): Promise<Total> {
  return countFromPage(paging, shown) ?? estimatedTotal(db, where, paging, shown, known, 0);
}

/**
 * The planner's estimate of a search's matches, from what it knows best. The trigram index's LIKE
 * estimate is coarse for a word (its selectivity read off a histogram of 100 texts: 'cacak' 30,303
 * rows for 13,160); the narrowing suffix index's statistics (most common elements) are a word's own
 * ('cacak':* 13,611). An exact narrowing (its keys decide) is the estimate; any other finds a superset
 * of the matches, so the smaller of the two. The Admin's exact narrowing was estimated already
 * (narrowestMatch: the table's rows); a scope's is asked with the scope's condition.
 */
export function matchEstimate(
  scope: LogScope,
  where: SQL,
  narrow: Narrowing | null,
): { explain: SQL[]; of: (answers: Record<string, unknown>[][]) => number } {
  const ofRows = (answer: Record<string, unknown>[] | undefined) => estimateOf(answer ?? []);
  if (!narrow) return { explain: [explainRows(where)], of: (a) => ofRows(a[0]) };
  if (narrow.exact && scope.all) return { explain: [], of: () => narrow.rows };
  const narrowed = explainRows(and(logScopeCondition(scope), narrow.condition));
  if (narrow.exact) return { explain: [narrowed], of: (a) => ofRows(a[0]) };
  return { explain: [explainRows(where), narrowed], of: (a) => Math.min(ofRows(a[0]), ofRows(a[1])) };
}

/**
 * Whether the scope has no more rows than `window`: counted on the index up to the window, when the
 * planner's estimate says it may (a Rukovodilac's ~9,000 rows: counting 5,001 entries cost 2–8 ms
 * for nothing; the Admin's whole table is never counted).
 */
export async function scopeWithin(db: Executor, scope: LogScope, window: number): Promise<boolean> {
  const condition = logScopeCondition(scope);
  if ((await estimate(db, condition)) > window * 1.25) return false;
  return (await cappedCount(db, condition, window)) <= window;
}

/**
 * Whether the window would read more rows than the narrowing index finds, for a page ending at `end`: a
 * word in `rows` of the table's rows fills a page every (table / rows) rows of the window (a scope's own
 * share assumed alike). 'cacak' (13,160 rows): page 1 in the window (~770 rows), page 101 of a
 * Rukovodilac's or 2,007 of the Admin's through the letters (the window: its 20,200 or 100,000 rows,
 * then the letters anyway when the page is past the last match).
 */
export function windowReadsMore(tableRows: number, narrow: Narrowing, end: number, window: number): boolean {
  return Math.min(window, (end * tableRows) / Math.max(narrow.rows, 1)) > narrow.rows;
}

/**
 * Whether the window is expected to hold fewer matches than a page ending at `end` needs, at the
 * table's share of rows the narrowing index finds (a scope's own share assumed alike).
 */
export function windowFallsShort(tableRows: number, narrow: Narrowing, end: number, window: number): boolean {
  return (window * narrow.rows) / Math.max(tableRows, 1) < end;
}

/**
 * The window's path: the page among the newest rows of the scope, read in order. A full page is the
 * answer (a frequent word; its total the estimate). A short page read the window to its end: exact when
 * the window was the whole scope, otherwise every match is read after all (allMatches).
 */
export async function windowPage(facts: SearchFacts): Promise<LogsPage> {
  const { search, narrow, offset, window } = facts;
  const { db, scope, terms, query, dir } = search;
  const inWindow = sql`select id, created_at from (${newestRows(scope, dir, sql`${ID_COLUMNS}, ${SEARCH_TEXT} as search_text`)} limit ${window}) w
    where ${windowMatch(terms)} order by created_at ${dir}, id ${dir} limit ${query.limit} offset ${offset}`;
  // Read newest first, range by range, stopping as soon as the page is full (the planner would rather
  // read a team's whole range and sort it, not knowing how soon a frequent word fills the page). One
  // round trip: the settings (set local, for this batch only), the page, and — the settings reset — the
  // planner's estimate of the matches, the total when a frequent word fills the page (frequentTotal).
  const where = logListCondition(scope, query) as SQL;
  const estimated = matchEstimate(scope, where, narrow);
  const [, , windowRows, , , ...explained] = await runBatch(db, [
    sql`set local enable_bitmapscan = off`,
    sql`set local enable_sort = off`,
    pageRowsSql(inWindow, dir),
    sql`reset enable_bitmapscan`,
    sql`reset enable_sort`,
    ...estimated.explain,
  ]);
  const fromWindow = (windowRows ?? []) as PageRow[];
  if (fromWindow.length === query.limit) {
    const logs = present(fromWindow);
    return { logs, ...(await frequentTotal(db, where, query, logs.length, estimated.of(explained))) };
  }
  // A short page: the window was read to its end. When the scope has no more rows than the window
  // (a Zaposleni's group: ~900 rows at 1,000,000), the window was the whole scope and its matches are
  // every match: the page and its count are exact without the trigram index (whose posting lists of
  // frequent trigrams cost 30–70 ms for a rare text; EXPLAIN in docs/performance.md). The scope's rows
  // counted up to the window on the index alone.
  const known = countFromPage(query, fromWindow.length);
  if (known && (await facts.within())) return { logs: present(fromWindow), ...known };
  // Kept when the scope's matches are many, or the index's rows are (what reading every match costs: a
  // Rukovodilac's 'prijavio' reads the letter index's ~100,000 entries for their ~1,500 matches).
  return allMatches(search, lettersOf(narrow), Math.max(estimated.of(explained), narrow?.rows ?? 0));
}
