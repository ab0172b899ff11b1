import { foldForSearch, LOGS, type LogListQuery, type LogSearchQuery, type LogsPage, type Sorting, type SortKey } from '@trasa/domain';
import { and, eq, inArray, or, type SQL, sql } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import { auditLogs } from '../../db/schema.js';
import { writeLog } from '../../platform/audit.js';
import type { Actor } from '../../platform/auth.js';
import { conditionKey, type Db, type Executor, runBatch } from '../../platform/database.js';
import { notFound } from '../../platform/errors.js';
import { keptByVersion } from '../../platform/keptByVersion.js';
import { cappedCountSql, estimatedRows, offsetOf, tableEstimateSql } from '../../platform/paging.js';
import { listVersionSql } from '../../platform/searchCounts.js';
import { type SortMap, sortKeyOf } from '../../platform/sorting.js';
import { searchTerms } from '../../platform/textSearch.js';
import { type LogScope, logScopeCondition, logScopeOf } from './policy.js';
import { presentLog } from './presenter.js';

/**
 * The audit log at any size (bench/logs.mjs: 1,000,000 rows; docs/api/logs-comments-ijo.md "Speed").
 *
 * - A page is found on the (created_at, id) index and only its rows are read; a Rukovodilac's groups are
 *   merged range by range (one ordered range per group), so page 2,500 skips 25,000 index entries, never
 *   sorts the scope.
 * - `totalLogs` is exact up to a cap, counted with LIMIT cap + 1, and the planner's estimate past it
 *   (`totalExact: false`).
 * - A search first looks among the newest rows of the scope (a frequent word fills a page there at
 *   once; its total is the estimate); a scope no bigger than that window was searched whole there (exact);
 *   otherwise, when they don't hold the page, the trigram index finds every match, sorted and counted in
 *   one query (exact).
 */

export type RequestInfo = { ip: string; url: string };

/**
 * Rows counted exactly (100 pages of 10): an index-only count of 1,001 entries costs ~0.3 ms, and
 * every page asks for the total again.
 */
export const EXACT_COUNT_CAP = 1_000;
/** Newest rows a search looks at before it asks the trigram index (more for deeper pages, up to `max`; tests change them). */
export const SEARCH_WINDOW = { rows: 5_000, max: 100_000 };
/** A scope of more groups is filtered by group_id in (…) instead of merging range by range. */
const MERGE_GROUPS_MAX = 100;

/**
 * What the search box searches: the message, the user, the IP and the URL, folded like every search
 * (trasa_fold: both scripts, any case, with or without diacritics): the stored column search_text with
 * its trigram index (drizzle/0006_log_search.sql; folding per row would cost ~70 µs a row).
 */
const SEARCH_TEXT = sql`${auditLogs.searchText}`;

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

const likePattern = (term: string) => `%${escapeLike(foldForSearch(term))}%`;

function matchCondition(searchText: SQL, terms: string[]): SQL | undefined {
  if (terms.length === 0) return undefined;
  return or(...terms.map((t) => sql`${searchText} like ${likePattern(t)}`));
}

/**
 * `sort` of the log (LIST_SORTS.logs): the time alone, the order both indexes keep, so a deep page
 * going up (oldest first, a backward walk of the same ranges) costs what it costs going down.
 */
const LOG_SORTS: SortMap<'logs'> = { createdAt: { value: auditLogs.createdAt } };
type LogSorting = Sorting<SortKey<'logs'>>;

/** The time direction of a page: newest first without `sort`. */
function directionOf(sorting: LogSorting): SQL {
  return sortKeyOf(LOG_SORTS, sorting)?.direction ?? sql.raw('desc');
}

const timeOrder = (dir: SQL) => sql`order by ${auditLogs.createdAt} ${dir}, ${auditLogs.id} ${dir}`;
const ID_COLUMNS = sql`${auditLogs.id} as id, ${auditLogs.createdAt} as created_at`;

/**
 * The scope's rows newest (or, with `asc`, oldest) first, as a subquery of (id, created_at[, extra
 * columns]): the whole table for all, otherwise one ordered range of the (group_id, created_at, id)
 * index per group, merged (Merge Append reads only as many entries as the page needs). `bound`: a
 * condition on the time columns that narrows each range (a walk from a kept position, MatchIndex).
 */
function newestRows(scope: LogScope, dir: SQL, columns: SQL = ID_COLUMNS, bound?: SQL): SQL {
  const order = timeOrder(dir);
  if (scope.all) return sql`select ${columns} from ${auditLogs} ${bound ? sql`where ${bound}` : sql``} ${order}`;
  if (scope.groupIds.length === 0) return sql`select ${columns} from ${auditLogs} where false`;
  if (scope.groupIds.length > MERGE_GROUPS_MAX) {
    return sql`select ${columns} from ${auditLogs} where ${and(inArray(auditLogs.groupId, scope.groupIds), bound)} ${order}`;
  }
  const ranges = scope.groupIds.map(
    (id) => sql`(select ${columns} from ${auditLogs} where ${and(eq(auditLogs.groupId, id), bound)} ${order})`,
  );
  if (ranges.length === 1) return ranges[0] as SQL;
  return sql`select * from (${sql.join(ranges, sql` union all `)}) merged order by created_at ${dir}, id ${dir}`;
}

type Paging = { page: number; limit: number };

type PageRow = {
  id: string;
  user_id: string | null;
  user_label: string;
  ip: string;
  message: string;
  url: string;
  group_id: string | null;
  group_cirilica: string;
  created_at: Date | string;
  /** The number of matches, when the page's query counted them. */
  matches?: number | string;
};

/** A page's columns of its rows (l). */
const PAGE_COLUMNS = sql`l.id, l.user_id, l.user_label, l.ip, l.message, l.url, l.group_id, l.group_cirilica, l.created_at`;

/** The rows of a page's ids (a subquery of id, created_at), in the page's order. */
const pageRowsSql = (ids: SQL, dir: SQL) => sql`select ${PAGE_COLUMNS} from (${ids}) p join ${auditLogs} l on l.id = p.id
    order by p.created_at ${dir}, p.id ${dir}`;

function present(rows: PageRow[]): LogsPage['logs'] {
  return rows.map((r) =>
    presentLog({
      id: r.id,
      userId: r.user_id,
      userLabel: r.user_label,
      ip: r.ip,
      message: r.message,
      url: r.url,
      groupId: r.group_id,
      groupCirilica: r.group_cirilica,
      createdAt: new Date(r.created_at),
    }),
  );
}

/** The EXPLAIN whose estimate of rows is the planner's for `where` (estimateOf reads it). */
const explainRows = (where: SQL | undefined) =>
  sql`explain (format json) select 1 from ${auditLogs} ${where ? sql`where ${where}` : sql``}`;

/** The estimated rows of an EXPLAIN (format json)'s answer. */
function estimateOf(rows: Record<string, unknown>[]): number {
  const plan = rows[0]?.['QUERY PLAN'] as [{ Plan: { 'Plan Rows': number } }] | undefined;
  return Math.round(plan?.[0]?.Plan['Plan Rows'] ?? 0);
}

/** The planner's estimate of the rows `where` selects. */
const estimate = (db: Executor, where: SQL | undefined) => estimatedRows(db, auditLogs, where);

/**
 * A plain list's estimate past the cap, kept per scope condition for the minute it was read in
 * (ESTIMATES_KEPT), as narrowestMatch's are: a Rukovodilac's page 1 is then two statements instead of
 * three (the EXPLAIN's planning over ten groups' ranges was ~0.4 ms of the request's ~1.8 ms of SQL). An
 * estimate over 10,000 rows moves by the rows a minute adds; the exact count below the cap is read on
 * every request.
 */
const keptListEstimates = keptByVersion<number>(1_000);
const listEstimate = (db: Executor, where: SQL | undefined) =>
  keptListEstimates.remember(db, where ? conditionKey(where) : '', estimatesMinute(), () => estimate(db, where));

async function cappedCount(db: Executor, where: SQL | undefined, cap: number): Promise<number> {
  const result = await db.execute<{ n: number }>(sql`select ${cappedCountSql(auditLogs, where, cap)} as n`);
  return result.rows[0]?.n ?? 0;
}

type Total = { totalLogs: number; totalExact: boolean };

/** A short first page is its own count; a short later page tells the count too, unless it is empty. */
function countFromPage(paging: Paging, shown: number): Total | null {
  const offset = offsetOf(paging);
  return shown < paging.limit && (shown > 0 || offset === 0) ? { totalLogs: offset + shown, totalExact: true } : null;
}

/**
 * Past the cap: the estimate (`known`: already read, e.g. the table's with the page), never less than
 * what the pages already show.
 */
async function estimatedTotal(
  db: Executor,
  where: SQL | undefined,
  paging: Paging,
  shown: number,
  known?: number | null,
  counted = EXACT_COUNT_CAP,
): Promise<Total> {
  // An empty page past the end tells nothing beyond what was counted (`counted`: the cap of a list,
  // nothing for a search); a shown page that there are at least as many.
  const seen = shown > 0 ? offsetOf(paging) + shown + (shown === paging.limit ? 1 : 0) : 0;
  const floor = Math.max(counted + 1, seen);
  return { totalLogs: Math.max(known ?? (await listEstimate(db, where)), floor), totalExact: false };
}

type ListedPage = { rows: PageRow[]; capped: number; tableEstimate: number | null };

/**
 * A plain list's page with the scope's rows counted up to the cap (and, for the whole table, its
 * estimate) in one statement: the Node side of a request costs about what its SQL does (the Admin's page
 * 1: 4 statements of ~0.1 ms each), so one round trip instead of three. A page past the end still
 * answers one row, without a log, carrying the count.
 */
async function listPage(db: Executor, ids: SQL, dir: SQL, where: SQL | undefined, whole: boolean): Promise<ListedPage> {
  const result = await db.execute<PageRow & { capped: number; table_estimate: number | string | null }>(sql`select ${PAGE_COLUMNS},
      c.capped, c.table_estimate
    from (select ${cappedCountSql(auditLogs, where, EXACT_COUNT_CAP)} as capped,
      ${whole ? tableEstimateSql(auditLogs) : sql`null::float8`} as table_estimate) c
    left join ((${ids}) p join ${auditLogs} l on l.id = p.id) on true
    order by p.created_at ${dir}, p.id ${dir}`);
  const first = result.rows[0];
  return {
    rows: result.rows.filter((r) => r.id !== null),
    capped: Number(first?.capped ?? 0),
    tableEstimate: first?.table_estimate == null ? null : Number(first.table_estimate),
  };
}

/** A plain list's total: counted up to the cap on the index alone, estimated past it. */
async function listTotal(db: Db, where: SQL | undefined, paging: Paging, page: ListedPage): Promise<Total> {
  const shown = page.rows.length;
  const known = countFromPage(paging, shown);
  if (known) return known;
  return page.capped <= EXACT_COUNT_CAP
    ? { totalLogs: page.capped, totalExact: true }
    : estimatedTotal(db, where, paging, shown, page.tableEstimate);
}

/**
 * A search's total when a frequent text filled the page among the newest rows: not counted (counting
 * a text in one row of twenty across a million rows is the cost the window avoided), the estimate
 * (`known`: matchEstimate's), never less than the pages shown so far — and not raised to the list's cap:
 * nothing was counted ('cacak' in a Rukovodilac's ~9,000 rows: 103 matches, ~122 estimated, not 1,001).
 */
async function frequentTotal(db: Db, where: SQL, paging: Paging, shown: number, known: number): Promise<Total> {
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
function matchEstimate(
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
 * Every row of the list and its search as one condition (the log's export, features/exports): the
 * scope's rows matching the typed text (eng) or its transliteration (srb), if any.
 */
export function logListCondition(scope: LogScope, input: { eng?: string; srb?: string }): SQL | undefined {
  return and(logScopeCondition(scope), matchCondition(SEARCH_TEXT, searchTerms({ eng: input.eng ?? '', srb: input.srb ?? '' })));
}

/** GET /api/log: the caller's scope (policy.ts), optionally one group's rows, newest first (or by `sort`). */
export async function listLogs(ctx: AppContext, actor: Actor, query: LogListQuery): Promise<LogsPage> {
  const dir = directionOf(query);
  const scope = await logScopeOf(ctx.db, actor, query.group);
  const where = logScopeCondition(scope);
  const page = await listPage(ctx.db, sql`${newestRows(scope, dir)} limit ${query.limit} offset ${offsetOf(query)}`, dir, where, scope.all);
  return { logs: present(page.rows), ...(await listTotal(ctx.db, where, query, page)) };
}

/**
 * GET /api/search/log: the same list narrowed by the typed text (eng) or its transliteration (srb).
 * A text the letter index expects in few rows is answered there at once (every match, counted). Any
 * other is looked for among the newest rows of the scope first (window), where a frequent word fills
 * the page at once; when the window doesn't hold the page, every match is found through the letter
 * index or, for a text it can't narrow enough, the trigram index (planner told to use it: it can't tell
 * a rare text from a frequent one by their trigrams).
 */
export async function searchLogs(ctx: AppContext, actor: Actor, query: LogSearchQuery): Promise<LogsPage> {
  const terms = searchTerms(query);
  if (terms.length === 0) return listLogs(ctx, actor, query);
  const dir = directionOf(query);
  const scope = await logScopeOf(ctx.db, actor, query.group);
  const offset = offsetOf(query);
  const window = Math.min(SEARCH_WINDOW.max, Math.max(SEARCH_WINDOW.rows, 20 * (offset + query.limit)));
  const { narrow, tableRows } = await narrowestMatch(ctx.db, terms);
  const search: LogSearch = { db: ctx.db, scope, terms, query, dir };
  // A search whose matches' positions are kept (MATCH_INDEX) answers its deeper pages through them,
  // exact. Not a page the newest rows are expected to hold (page 1 of a frequent word): the window
  // answers it in one short read, where the walk from a kept match and the count of the newer matches
  // cost three times as much (stop 34: 'cacak' page 1, Admin, p99 18 → 72 ms once kept).
  // Whether the window is expected to hold fewer matches than the page needs (no narrowing: not known).
  const fallsShort = !narrow || windowFallsShort(tableRows, narrow, offset + query.limit, window);
  if (fallsShort) {
    const kept = await indexedMatches(search, lettersOf(narrow), { keptOnly: true });
    if (kept) return kept;
  }
  if (
    narrow &&
    (narrow.rows <= LETTER_PATHS.firstMax ||
      (narrow.rows <= LETTER_PATHS.rowsMax && windowReadsMore(tableRows, narrow, offset + query.limit, window)))
  ) {
    return allMatches(search, narrow, narrow.rows);
  }
  // A scope's page the window can't be expected to hold (a Rukovodilac's 'cacak', page 13: 130 matches
  // wanted, ~68 expected among 5,000 rows): every match at once, unless the window is the whole scope.
  // The whole log's page the window can't be expected to hold ('prijavio' at page 2,500: 25,000 matches
  // wanted, ~5,000 expected among 100,000 rows, 100 ms of PostgreSQL for nothing): every match at once.
  let within: boolean | undefined;
  if (scope.all && narrow && fallsShort) {
    return allMatches(search, lettersOf(narrow), narrow.rows);
  }
  if (!scope.all && narrow && narrow.rows <= LETTER_PATHS.rowsMax && fallsShort) {
    within = await scopeWithin(ctx.db, scope, window);
    if (!within) return allMatches(search, narrow, narrow.rows);
  }
  const inWindow = sql`select id, created_at from (${newestRows(scope, dir, sql`${ID_COLUMNS}, ${SEARCH_TEXT} as search_text`)} limit ${window}) w
    where ${windowMatch(terms)} order by created_at ${dir}, id ${dir} limit ${query.limit} offset ${offset}`;
  // Read newest first, range by range, stopping as soon as the page is full (the planner would rather
  // read a team's whole range and sort it, not knowing how soon a frequent word fills the page). One
  // round trip: the settings (set local, for this batch only), the page, and — the settings reset — the
  // planner's estimate of the matches, the total when a frequent word fills the page (frequentTotal).
  const where = logListCondition(scope, query) as SQL;
  const estimated = matchEstimate(scope, where, narrow);
  const [, , windowRows, , , ...explained] = await runBatch(ctx.db, [
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
    return { logs, ...(await frequentTotal(ctx.db, where, query, logs.length, estimated.of(explained))) };
  }
  // A short page: the window was read to its end. When the scope has no more rows than the window
  // (a Zaposleni's group: ~900 rows at 1,000,000), the window was the whole scope and its matches are
  // every match: the page and its count are exact without the trigram index (whose posting lists of
  // frequent trigrams cost 30–70 ms for a rare text; EXPLAIN in docs/performance.md). The scope's rows
  // counted up to the window on the index alone.
  const known = countFromPage(query, fromWindow.length);
  if (known && (within ?? (await scopeWithin(ctx.db, scope, window)))) return { logs: present(fromWindow), ...known };
  // Kept when the scope's matches are many, or the index's rows are (what reading every match costs: a
  // Rukovodilac's 'prijavio' reads the letter index's ~100,000 entries for their ~1,500 matches).
  return allMatches(search, lettersOf(narrow), Math.max(estimated.of(explained), narrow?.rows ?? 0));
}

/**
 * Every match of the terms in the scope as a query of (id, created_at): the scope's rows the letter or
 * the address index finds (`letters`), read once (materialized: the planner must not compute each row's
 * suffixes to filter a range of the trigram index) and kept where the text is in them, or, without it,
 * the trigram index's. When the index's keys alone decide (`letters.exact`: every term one run of
 * letters), its rows are the matches without reading their text (see exactLetterQuery). Read with
 * index and sequential scans off (only the indexes' bitmaps: no walk of the time index filtering a
 * million rows).
 */
function matchingSql(scope: LogScope, terms: string[], query: { eng?: string; srb?: string }, letters: Narrowing | null): SQL {
  const inScope = logScopeCondition(scope);
  const likeAny = (column: SQL) => matchCondition(column, terms) as SQL;
  // The scope is read with the index's rows (a Rukovodilac's groups: a BitmapAnd of the two indexes,
  // the heap read only for the scope's matches: 'cacak' 118 rows instead of 13,160).
  if (letters?.exact) {
    // The keys decide: every row holding a key is a match, read for its time only (no text, no LIKE:
    // 'cacak', 13,160 rows, 15 → 8 ms of CPU). A row cut at 1,000 suffixes ('~long') may hold a term
    // past its keys: those rows are read and filtered, unless the first arm already has them.
    const { fn, query: keys } = letters.exact;
    const keyed = sql`${fn}(${auditLogs.searchText}) @@ ${keys}::tsquery`;
    return sql`select ${ID_COLUMNS} from ${auditLogs} where ${and(keyed, inScope)}
      union all
      select ${ID_COLUMNS} from ${auditLogs}
        where ${and(sql`${fn}(${auditLogs.searchText}) @@ ${LONG_ROW_KEY}::tsquery`, inScope, likeAny(SEARCH_TEXT), sql`not (${keyed})`)}`;
  }
  if (letters) {
    return sql`with m as materialized (select id, created_at, search_text from ${auditLogs} where ${and(letters.condition, inScope)})
        select id, created_at from m where ${likeAny(sql`m.search_text`)}`;
  }
  return sql`select ${ID_COLUMNS} from ${auditLogs} where ${logListCondition(scope, query) as SQL}`;
}

/** A search of the log as searchLogs resolved it: the caller's scope, the terms, the query and its time direction. */
type LogSearch = { db: Db; scope: LogScope; terms: string[]; query: LogSearchQuery; dir: SQL };

/** Every match of the terms in the scope (matchingSql), sorted for the page and counted on the way. */
async function everyMatch({ db, scope, terms, query, dir }: LogSearch, letters: Narrowing | null): Promise<LogsPage> {
  const matching = matchingSql(scope, terms, query, letters);
  // The page and the count in one read of the matches (kept once): a page past the last match still
  // answers one row, without a log, carrying the count (and sorts nothing). Only the indexes' bitmaps
  // (no walk of the time index filtering a million rows): the settings and the statement in one round
  // trip (runBatch).
  const offset = offsetOf(query);
  const [, , rows] = await runBatch(db, [
    sql`set local enable_indexscan = off`,
    sql`set local enable_seqscan = off`,
    sql`with found as materialized (${matching}),
        page as (select id, created_at from found where (select count(*) from found) > ${offset}
          order by created_at ${dir}, id ${dir} limit ${query.limit} offset ${offset})
      select ${PAGE_COLUMNS}, (select count(*) from found) as matches
      from (select 1) one left join (page join ${auditLogs} l on l.id = page.id) on true
      order by page.created_at ${dir}, page.id ${dir}`,
  ]);
  const result = (rows ?? []) as PageRow[];
  const logs = present(result.filter((r) => r.id !== null));
  return { logs, totalLogs: Number(result[0]?.matches ?? 0), totalExact: true };
}

/**
 * The kept positions of a frequent text's matches (docs/decisions.md "A frequent text's deep pages in
 * the log"). A deep page of a search everyMatch answers by reading, sorting and counting every match
 * ('cacak' at page 1,316 of the Admin's: 13,160 rows from 4,389 heap pages, ~35 ms of PostgreSQL); with
 * the position of every `every`-th match kept (newest first) and the count of the matches up to a
 * cutoff, the page is a walk of the time index from the nearest kept match, filtered by the text (at
 * most `every` matches, ~MATCH_INDEX.walkRows rows), and the matches newer than the cutoff are counted
 * on every request (a walk of the time index over the last minutes' rows).
 *
 * What was kept stays right: rows newer than the cutoff are never among the kept ones, and a row older
 * than it can appear later only from a transaction longer than `marginMs` (its time is the
 * transaction's start): it is counted once the positions are read again (`keptMs`). Deleted or changed
 * rows move the 'logs' version (drizzle/0036), read with the count: the positions are then read again.
 */
export const MATCH_INDEX = {
  /** A search expected to find more matches than this (the table's, for the whole log) is kept. */
  min: 2_000,
  /** The cutoff lies this long before the positions were read. */
  marginMs: 5 * 60_000,
  /** The positions are read again after this long. */
  keptMs: 60_000,
  /** The rows a walk to a page is meant to read at most: `every` is the matches found in as many rows. */
  walkRows: 1_500,
};

/** A kept match: its time as PostgreSQL writes it (microseconds, which a Date would lose) and its id. */
type Mark = { t: string; id: string };
type MatchIndex = {
  /** Every `every`-th match older than the cutoff, newest first (marks[b] is match b × every). */
  marks: Mark[];
  every: number;
  /** The matches older than the cutoff. */
  older: number;
  cutoff: string;
  /** The 'logs' version they were read under, and when (Date.now()). */
  version: string;
  readAt: number;
};
const keptIndexes = keptByVersion<MatchIndex>(200, { of: (v) => 200 + v.marks.length * 100, max: 16 * 1024 * 1024 });
const LOGS_VERSION = listVersionSql(['logs']);

/** A search's kept positions are the scope's ('all' or its groups) and the terms'. */
const indexKey = (scope: LogScope, terms: string[]) => JSON.stringify([scope.all ? 'all' : [...scope.groupIds].sort(), terms]);

/**
 * The narrowing every match is read by: a suffix index whose keys decide (any number of rows: the heap
 * is read for the matches alone, as the trigram index's would be, without its rechecks), or one that
 * finds at most LETTER_PATHS.rowsMax rows; otherwise none (the trigram index).
 */
const lettersOf = (narrow: Narrowing | null) => (narrow && (narrow.exact || narrow.rows <= LETTER_PATHS.rowsMax) ? narrow : null);

/**
 * The page of every match: through the kept positions of the matches when more than MATCH_INDEX.min are
 * `expected` (the whole table's estimate: a limited scope's own share is less, and its positions are
 * kept the same way), else (or where nothing can be kept) read, sorted and counted at once (everyMatch).
 */
async function allMatches(search: LogSearch, letters: Narrowing | null, expected: number): Promise<LogsPage> {
  const indexed = expected > MATCH_INDEX.min ? await indexedMatches(search, letters) : null;
  return indexed ?? everyMatch(search, letters);
}

/** The marks, the counts (the older and the newer matches) and the version, read in one statement (one snapshot). */
async function readMatchIndex(db: Db, matching: SQL): Promise<{ index: MatchIndex; newer: number } | null> {
  const walkRows = MATCH_INDEX.walkRows;
  const [, , rows] = await runBatch(db, [
    sql`set local enable_indexscan = off`,
    sql`set local enable_seqscan = off`,
    sql`with found as materialized (${matching}),
        cut as (select (now() - ${MATCH_INDEX.marginMs} * interval '1 millisecond') as cutoff),
        counts as (select count(*) filter (where found.created_at < cut.cutoff) as older,
          count(*) filter (where found.created_at >= cut.cutoff) as newer from found, cut),
        every as (select greatest(1, least(100, floor(${walkRows}::float8 * (counts.older + counts.newer)
          / greatest((select reltuples from pg_class where oid = 'audit_logs'::regclass), 1))))::int as n from counts),
        ranked as (select id, created_at, row_number() over (order by created_at desc, id desc) - 1 as i
          from found, cut where found.created_at < cut.cutoff)
      select cut.cutoff::text as cutoff, counts.older, counts.newer, every.n as every, ${LOGS_VERSION} as version,
        ranked.created_at::text as t, ranked.id
      from cut cross join counts cross join every
        left join ranked on ranked.i % every.n = 0
      order by ranked.i`,
  ]);
  const result = (rows ?? []) as {
    cutoff: string;
    older: string;
    newer: string;
    every: number;
    version: string | null;
    t: string | null;
    id: string | null;
  }[];
  const first = result[0];
  if (!first || first.version === null) return null;
  const index = {
    marks: result.flatMap((r) => (r.t !== null && r.id !== null ? [{ t: r.t, id: r.id }] : [])),
    every: first.every,
    older: Number(first.older),
    cutoff: first.cutoff,
    version: first.version,
    readAt: Date.now(),
  };
  return { index, newer: Number(first.newer) };
}

/**
 * A page of the scope's matches through their kept positions (read first when not kept, older
 * than `keptMs` or under another 'logs' version; with `keptOnly`, null then, before any statement). Null
 * inside a transaction or before migration 0036 (the caller reads every match).
 */
async function indexedMatches(search: LogSearch, letters: Narrowing | null, { keptOnly = false } = {}): Promise<LogsPage | null> {
  const { db, scope, terms, query } = search;
  const key = indexKey(scope, terms);
  const kept = keptIndexes.get(db, key);
  if (kept === null) return null;
  let index = kept && Date.now() - kept.value.readAt < MATCH_INDEX.keptMs ? kept.value : null;
  if (!index && keptOnly) return null;
  const like = windowMatch(terms);
  const rowsAt = (bound: SQL) => newestRows(scope, sql.raw('desc'), sql`${ID_COLUMNS}, ${SEARCH_TEXT} as search_text`, bound);
  let newer = 0;
  if (index) {
    // The matches newer than the cutoff (the time index's last minutes) and the version, in one statement.
    const current = index;
    const newerOnes = and(
      sql`${auditLogs.createdAt} >= ${current.cutoff}::timestamptz`,
      logScopeCondition(scope),
      matchCondition(SEARCH_TEXT, terms),
    );
    const counted = await db.execute<{ newer: number; version: string | null }>(sql`select
        (select count(*)::int from ${auditLogs} where ${newerOnes}) as newer, ${LOGS_VERSION} as version`);
    const row = counted.rows[0];
    if (row?.version === current.version) newer = row.newer;
    else index = null;
  }
  if (!index) {
    const read = await readMatchIndex(db, matchingSql(scope, terms, query, letters));
    if (!read) return null;
    index = read.index;
    newer = read.newer;
    keptIndexes.set(db, key, index.version, index);
  }
  const total = newer + index.older;
  // The page's matches as positions newest first: [from, to).
  const offset = offsetOf(query);
  const ascending = sortKeyOf(LOG_SORTS, query) !== null && query.order !== 'desc';
  const to = Math.min(total, ascending ? total - offset : offset + query.limit);
  const from = Math.max(0, ascending ? to - query.limit : offset);
  if (from >= to) return { logs: [], totalLogs: total, totalExact: true };
  // From the newest row (a page among the newer matches) or from the kept match nearest above the page.
  let walk: SQL;
  let skip: number;
  if (from < newer) {
    walk = rowsAt(sql`true`);
    skip = from;
  } else {
    const b = Math.min(Math.floor((from - newer) / index.every), index.marks.length - 1);
    const mark = index.marks[b] as Mark;
    walk = rowsAt(sql`(${auditLogs.createdAt}, ${auditLogs.id}) <= (${mark.t}::timestamptz, ${mark.id}::uuid)`);
    skip = from - newer - b * index.every;
  }
  const page = sql`select id, created_at from (${walk}) w where ${like} order by created_at desc, id desc limit ${to - from} offset ${skip}`;
  const [, , rows] = await runBatch(db, [
    sql`set local enable_bitmapscan = off`,
    sql`set local enable_sort = off`,
    pageRowsSql(page, sql.raw('desc')),
  ]);
  const found = (rows ?? []) as PageRow[];
  return { logs: present(ascending ? found.reverse() : found), totalLogs: total, totalExact: true };
}

/**
 * Whether the scope has no more rows than `window`: counted on the index up to the window, when the
 * planner's estimate says it may (a Rukovodilac's ~9,000 rows: counting 5,001 entries cost 2–8 ms
 * for nothing; the Admin's whole table is never counted).
 */
async function scopeWithin(db: Executor, scope: LogScope, window: number): Promise<boolean> {
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
function windowReadsMore(tableRows: number, narrow: Narrowing, end: number, window: number): boolean {
  return Math.min(window, (end * tableRows) / Math.max(narrow.rows, 1)) > narrow.rows;
}

/**
 * Whether the window is expected to hold fewer matches than a page ending at `end` needs, at the
 * table's share of rows the narrowing index finds (a scope's own share assumed alike).
 */
function windowFallsShort(tableRows: number, narrow: Narrowing, end: number, window: number): boolean {
  return (window * narrow.rows) / Math.max(tableRows, 1) < end;
}

/** The match over the window's own column (w.search_text). */
function windowMatch(terms: string[]): SQL {
  return matchCondition(sql`w.search_text`, terms) as SQL;
}

/**
 * Where a search looks, by the rows the planner expects the letter index (drizzle/0023_log_letters.sql)
 * to find. Tests set them to walk every path on a small table.
 */
export const LETTER_PATHS = {
  /**
   * Up to this the letter index answers before the window: a word not frequent enough to be among
   * the index's most common elements (~700, each in ≥ 0.08 % of rows) is estimated at half the least
   * of them (~420 rows at 1,000,000), and a hundred rows are read in well under a millisecond; the
   * window would read thousands of rows to find none.
   */
  firstMax: 1_000,
  /**
   * Past this, after the window, the trigram index is asked instead: 'cacak' (13,160 rows) cost 29 ms
   * through the letters and 33 ms through the trigrams, but a text whose letters are frequent and
   * whose digits are rare ('marko.1969': 'marko' in 76,000 rows, the text in 21) costs the letters a
   * heap read of every 'marko' row.
   */
  rowsMax: 20_000,
};
/** Letters of a run the letter index keeps suffixes of (shorter runs are not looked up). */
const LETTER_RUN_MIN = 3;
/** Characters of a suffix both indexes keep (drizzle/0026_log_addresses.sql): a longer run is looked up by its start. */
const SUFFIX_MAX = 64;
/** The key a row gets when it has more than 1,000 suffixes (the rest not kept): every lookup asks for it too. */
const LONG_ROW_KEY = "'~long'";

/**
 * The runs of letters a–z of a folded text, as trasa_letter_suffixes splits search_text (both split
 * at anything else: digits, spaces, punctuation, letters of other alphabets), cut to the suffixes' length.
 */
export function letterRuns(term: string): string[] {
  return foldForSearch(term)
    .split(/[^a-z]+/)
    .filter((run) => run.length >= LETTER_RUN_MIN)
    .map((run) => run.slice(0, SUFFIX_MAX));
}

/**
 * The runs of an address's characters (a–z, 0–9, . _ @ + -) of a folded text that hold a '.' or an '@'
 * before their final dots, without those dots, as trasa_address_suffixes keeps them (drizzle/0026):
 * 'marko.123@firma.rs.' → 'marko.123@firma.rs', '10.20.30' → itself, 'prijavio.' → none.
 */
export function addressRuns(term: string): string[] {
  return (foldForSearch(term).match(/[a-z0-9._@+-]+/g) ?? [])
    .map((run) => run.replace(/\.+$/, ''))
    .filter((run) => run.length >= LETTER_RUN_MIN && /[.@]/.test(run))
    .map((run) => run.slice(0, SUFFIX_MAX));
}

/**
 * The tsquery of a suffix index: each term's runs as prefixes, all of one term, any term; null when a
 * term has no run. Runs hold only a–z, 0–9 and . _ @ + -: quoted, nothing in them means anything to
 * tsquery's syntax.
 */
function suffixQuery(terms: string[], runsOf: (term: string) => string[]): string | null {
  const runs = terms.map(runsOf);
  if (runs.length === 0 || runs.some((r) => r.length === 0)) return null;
  return runs.map((r) => `(${r.map((run) => `'${run}':*`).join(' & ')})`).join(' | ');
}

/** The tsquery of the letter index (drizzle/0023_log_letters.sql). */
export function letterQuery(terms: string[]): string | null {
  return suffixQuery(terms, letterRuns);
}

/** The tsquery of the address index (drizzle/0026_log_addresses.sql). */
export function addressQuery(terms: string[]): string | null {
  return suffixQuery(terms, addressRuns);
}

/** The suffix indexes a search may narrow by: the function of each and its runs (tests choose among them). */
export const SUFFIX_INDEXES = {
  letters: { fn: sql.raw('trasa_letter_suffixes'), query: letterQuery },
  addresses: { fn: sql.raw('trasa_address_suffixes'), query: addressQuery },
};
export const NARROWING: { use: (keyof typeof SUFFIX_INDEXES)[] } = { use: ['letters', 'addresses'] };

/**
 * A narrowing of a search: the condition on one suffix index (every row of the table that may hold a
 * term, and some more, which the LIKE then drops) and the planner's estimate of those rows; `exact` when
 * the index's keys alone decide (exactLetterQuery).
 */
type Narrowing = { condition: SQL; rows: number; exact?: { fn: SQL; query: string } };

/**
 * The letter index's tsquery when its keys alone decide which rows hold the terms: every term folds to
 * one run of 3–64 letters a–z ('cacak', 'чачак'). A row's folded text holds such a term exactly when one
 * of its runs of letters does, that is when a suffix of that run starts with the term — a key
 * `'term':*` finds (a suffix kept whole, or its first 64 characters, which still start with a term of
 * at most 64). Only a row cut at 1,000 suffixes ('~long') may hold the term without the key. Null for
 * any other text (several runs, digits, punctuation, a longer run: the LIKE decides).
 */
export function exactLetterQuery(terms: string[]): string | null {
  const exact = terms.every((term) => {
    const folded = foldForSearch(term);
    return folded.length >= LETTER_RUN_MIN && folded.length <= SUFFIX_MAX && /^[a-z]+$/.test(folded);
  });
  return exact ? letterQuery(terms) : null;
}

/**
 * The planner's estimates narrowestMatch reads, kept per database for the minute they were read in (a
 * search paged through, or asked by many at once, reads them once a minute instead of once a page: one
 * round trip and the planning of two EXPLAINs, 0.3–0.5 ms of a request's 2–5). They move only when the
 * table is analyzed, and they choose a path and estimate a total, both of which any minute's figures do
 * as well: every path finds the same rows (logs.test.ts).
 */
const keptEstimates = keptByVersion<{ rows: number[]; tableRows: number }>(1_000);
/** How long they are kept (tests change it). */
export const ESTIMATES_KEPT = { ms: 60_000 };
/** The version kept estimates are kept under: the ESTIMATES_KEPT period they were read in. */
const estimatesMinute = () => String(Math.floor(Date.now() / ESTIMATES_KEPT.ms));

/**
 * The suffix index that narrows the search most, by the planner's estimate (from the statistics of each
 * index's expression), or null when neither can (a term without a run: '10', 'ab'). 'markovac' → the
 * letters ('markovac':*, ~420 rows estimated); 'marko.123' → the addresses (the letters would read every
 * 'marko': 76,000 rows); '10.20.30' → the addresses (no letters). The table's rows, not the scope's: a
 * Rukovodilac's page 1 of 'cacak' (~103 of their rows) is cheaper in the window (~770 rows read in
 * order) than as a BitmapAnd of the letter and group indexes (9,000 group entries; measured 10 against
 * 14 ms median at load 16), which pays off for the pages past the window.
 */
async function narrowestMatch(db: Db, terms: string[]): Promise<{ narrow: Narrowing | null; tableRows: number }> {
  const asked = NARROWING.use.flatMap((name) => {
    const index = SUFFIX_INDEXES[name];
    const query = index.query(terms);
    return query === null ? [] : [{ name, index, query }];
  });
  // Each index's estimate and the table's rows (windowReadsMore) in one round trip, kept for the minute.
  const key = asked.map(({ name, query }) => `${name} ${query}`).join('\n');
  const estimates = await keptEstimates.remember(db, key, estimatesMinute(), async () => {
    const answers = await runBatch(db, [
      ...asked.map(({ index, query }) => explainRows(sql`${index.fn}(${auditLogs.searchText}) @@ ${query}::tsquery`)),
      sql`select reltuples::float8 as n from pg_class where oid = 'audit_logs'::regclass`,
    ]);
    return { rows: asked.map((_, i) => estimateOf(answers[i] ?? [])), tableRows: Number(answers.at(-1)?.[0]?.n ?? 0) };
  });
  let narrow: Narrowing | null = null;
  asked.forEach(({ name, index, query }, i) => {
    const rows = estimates.rows[i] ?? 0;
    if (narrow === null || rows < narrow.rows) {
      const exact = name === 'letters' ? exactLetterQuery(terms) : null;
      narrow = {
        condition: sql`${index.fn}(${auditLogs.searchText}) @@ ${`${query} | ${LONG_ROW_KEY}`}::tsquery`,
        rows,
        ...(exact !== null && { exact: { fn: index.fn, query: exact } }),
      };
    }
  });
  return { narrow, tableRows: estimates.tableRows };
}

/** 1 log, 2–4 loga, 5+ logova (21 log, 22 loga, 11–14 logova). */
function logsCount(n: number): string {
  const mod10 = n % 10;
  const mod100 = n % 100;
  if (mod10 === 1 && mod100 !== 11) return `${n} log`;
  if (mod10 >= 2 && mod10 <= 4 && (mod100 < 12 || mod100 > 14)) return `${n} loga`;
  return `${n} logova`;
}

/**
 * DELETE /api/log/ (Admin): the chosen rows go; the deletion itself leaves a row, so the trail shows
 * that someone thinned it. None of the ids found: 404.
 */
export async function deleteLogs(ctx: AppContext, actor: Actor, logIds: string[], req: RequestInfo): Promise<string> {
  return ctx.db.transaction(async (tx) => {
    const deleted = await tx.delete(auditLogs).where(inArray(auditLogs.id, logIds)).returning({ id: auditLogs.id });
    if (deleted.length === 0) throw notFound();
    await writeLog(tx, { actor, ...req, message: `Korisnik ${actor.email} je obrisao ${logsCount(deleted.length)}.` });
    return LOGS.deleted;
  });
}
