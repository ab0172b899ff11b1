import type { LogsPage } from '@trasa/domain';
import { and, type SQL, sql } from 'drizzle-orm';
import { auditLogs } from '../../../db/schema.js';
import { type Db, runBatch } from '../../../platform/database.js';
import { kept, versionSql } from '../../../platform/kept/store.js';
import { offsetOf } from '../../../platform/paging.js';
import { sortKeyOf } from '../../../platform/sorting.js';
import { type LogScope, logScopeCondition } from '../policy.js';
import {
  ID_COLUMNS,
  LOG_SORTS,
  matchCondition,
  newestRows,
  type PageRow,
  pageRowsSql,
  present,
  SEARCH_TEXT,
  windowMatch,
} from '../rows.js';
import type { LogSearch } from './facts.js';
import { matchingSql } from './matching.js';
import type { Narrowing } from './narrowing.js';

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
 * Kept as platform/kept kind 'logPositions'.
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
const keptIndexes = kept<MatchIndex>('logPositions');
const LOGS_VERSION = versionSql('logPositions');

/** A search's kept positions are the scope's ('all' or its groups) and the terms'. */
const indexKey = (scope: LogScope, terms: string[]) => JSON.stringify([scope.all ? 'all' : [...scope.groupIds].sort(), terms]);

/**
 * The marks, the counts (the older and the newer matches) and the version, read in one statement (one
 * snapshot). `at`: at a given cutoff and spacing (a kept index read again under TRASA_KEPT_VERIFY).
 */
async function readMatchIndex(
  db: Db,
  matching: SQL,
  at?: { cutoff: string; every: number },
): Promise<{ index: MatchIndex; newer: number } | null> {
  const walkRows = MATCH_INDEX.walkRows;
  const [, , rows] = await runBatch(db, [
    sql`set local enable_indexscan = off`,
    sql`set local enable_seqscan = off`,
    sql`with found as materialized (${matching}),
        cut as (select ${at ? sql`${at.cutoff}::timestamptz` : sql`(now() - ${MATCH_INDEX.marginMs} * interval '1 millisecond')`} as cutoff),
        counts as (select count(*) filter (where found.created_at < cut.cutoff) as older,
          count(*) filter (where found.created_at >= cut.cutoff) as newer from found, cut),
        every as (select ${
          at
            ? sql`${at.every}::int`
            : sql`greatest(1, least(100, floor(${walkRows}::float8 * (counts.older + counts.newer)
          / greatest((select reltuples from pg_class where oid = 'audit_logs'::regclass), 1))))::int`
        } as n from counts),
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
export async function indexedMatches(search: LogSearch, letters: Narrowing | null, { keptOnly = false } = {}): Promise<LogsPage | null> {
  const { db, scope, terms, query } = search;
  const key = indexKey(scope, terms);
  const entry = keptIndexes.find(db, key);
  if (entry === null) return null;
  let index = entry && Date.now() - entry.value.readAt < MATCH_INDEX.keptMs ? entry.value : null;
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
    if (row?.version === current.version) {
      newer = row.newer;
      if (entry && keptIndexes.verifying(db)) {
        const again = await readMatchIndex(db, matchingSql(scope, terms, query, letters), current);
        if (again) await keptIndexes.check(db, key, entry, again.index);
      }
    } else index = null;
  }
  if (!index) {
    const read = await readMatchIndex(db, matchingSql(scope, terms, query, letters));
    if (!read) return null;
    index = read.index;
    newer = read.newer;
    keptIndexes.keep(db, key, index.version, index);
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
