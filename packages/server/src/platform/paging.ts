import { type PageQuery, pageQuery, searchQuery } from '@trasa/domain';
import { getTableName, type SQL, sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { Executor } from './database.js';

/** `page` (1-based) and `limit`, clamped (pageQuery in @trasa/domain). */
export const pagingQuery = pageQuery;
export type Paging = PageQuery;

/** GET /api/search/*: the typed text (eng), its transliteration (srb) and the clamped paging. */
export const searchPagingQuery = searchQuery;

export const offsetOf = (p: Paging) => (p.page - 1) * p.limit;

/** Up to this many rows a list's totalResults is exact; past it, the planner's estimate. */
export const EXACT_COUNT_LIMIT = 10_000;

/** The planner's estimate of the rows `where` selects from `table` (EXPLAIN). */
export async function estimatedRows(db: Executor, table: PgTable, where: SQL | undefined): Promise<number> {
  const plan = await db.execute<{ 'QUERY PLAN': [{ Plan: { 'Plan Rows': number } }] }>(
    sql`explain (format json) ${db.select({ one: sql`1` }).from(table).where(where)}`,
  );
  return Math.round(plan.rows[0]?.['QUERY PLAN'][0].Plan['Plan Rows'] ?? 0);
}

/** The rows `where` selects from `table`, counted up to `cap` + 1 (an expression: a statement of its own or a column). */
export const cappedCountSql = (table: PgTable, where: SQL | undefined, cap: number = EXACT_COUNT_LIMIT) =>
  sql`(select count(*)::int from (select 1 from ${table}${where ? sql` where ${where}` : sql``} limit ${cap + 1}) capped)`;

/**
 * The planner's estimate of a whole table's rows, as it makes it for a scan without a condition
 * (PostgreSQL's table_block_relation_estimate_size: the density of the last ANALYZE times the pages the
 * table has now; `round` of a float8 is rint there too), read inside a list's statement instead of an
 * EXPLAIN of its own. Null before the table was ever analyzed (the caller then asks EXPLAIN).
 */
export function tableEstimateSql(table: PgTable): SQL {
  return sql`(select case when relpages > 0 and reltuples >= 0
      then round(reltuples::float8 / relpages * (pg_relation_size(oid) / current_setting('block_size')::int)) end
    from pg_class where oid = ${getTableName(table)}::regclass)`;
}

/**
 * totalResults of a list: counted exactly up to `exactUpTo` (EXACT_COUNT_LIMIT unless given; a count that
 * stops there), past it the planner's estimate of the rows `where` selects (EXPLAIN; accurate for the
 * unfiltered lists, whose statistics are the table's). Counting 50,000 users on every page cost more than
 * the page itself (issue 15, docs/decisions.md "Counts").
 *
 * `estimateFirst` (lists over a whole table with plain conditions: the Admin's users, users of a role):
 * the estimate is asked first, and when it is past twice the limit it is the answer — the capped count
 * read 10,001 rows (2.8–3.8 ms of the Admin's users-per-role request's 5 ms of SQL) only to be replaced
 * by the estimate; below that the count runs as without it (exact up to the limit).
 */
export async function countOf(
  db: Executor,
  table: PgTable,
  where: SQL | undefined,
  exactUpTo: number = EXACT_COUNT_LIMIT,
  opts: { estimateFirst?: boolean } = {},
): Promise<number> {
  const estimated = () => estimatedRows(db, table, where);
  const early = opts.estimateFirst ? await estimated() : null;
  if (early !== null && early > 2 * exactUpTo) return early;
  const capped = db
    .select({ one: sql`1` })
    .from(table)
    .where(where)
    .limit(exactUpTo + 1)
    .as('capped');
  const [exact] = await db.select({ n: sql<number>`count(*)::int` }).from(capped);
  const n = exact?.n ?? 0;
  if (n <= exactUpTo) return n;
  return Math.max(exactUpTo + 1, early ?? (await estimated()));
}
