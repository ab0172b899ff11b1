import { type PageQuery, pageQuery, searchQuery } from '@trasa/domain';
import { type SQL, sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { Executor } from '../../platform/database.js';

/** `page` (1-based) and `limit`, clamped (pageQuery in @trasa/domain). */
export const pagingQuery = pageQuery;
export type Paging = PageQuery;

/** GET /api/search/*: the typed text (eng), its transliteration (srb) and the clamped paging. */
export const searchPagingQuery = searchQuery;

export const offsetOf = (p: Paging) => (p.page - 1) * p.limit;

/** Up to this many rows a list's totalResults is exact; past it, the planner's estimate. */
export const EXACT_COUNT_LIMIT = 10_000;

/**
 * A search's total is exact up to this many matches (as the audit log's): a common word's matches are
 * rechecked row by row against the text (a trigram index is lossy), 10,000 of them cost more than the page.
 */
export const SEARCH_EXACT_COUNT_LIMIT = 1_000;

/**
 * totalResults of a list: counted exactly up to EXACT_COUNT_LIMIT (a count that stops there), past it
 * the planner's estimate of the rows `where` selects (EXPLAIN; accurate for the unfiltered lists, whose
 * statistics are the table's). Counting 50,000 users on every page cost more than the page itself
 * (issue 15, docs/performance.md "Counts").
 */
export async function countOf(
  db: Executor,
  table: PgTable,
  where: SQL | undefined,
  exactUpTo: number = EXACT_COUNT_LIMIT,
): Promise<number> {
  const capped = db
    .select({ one: sql`1` })
    .from(table)
    .where(where)
    .limit(exactUpTo + 1)
    .as('capped');
  const [exact] = await db.select({ n: sql<number>`count(*)::int` }).from(capped);
  const n = exact?.n ?? 0;
  if (n <= exactUpTo) return n;
  const plan = await db.execute<{ 'QUERY PLAN': [{ Plan: { 'Plan Rows': number } }] }>(
    sql`explain (format json) ${db.select({ one: sql`1` }).from(table).where(where)}`,
  );
  const estimate = Math.round(plan.rows[0]?.['QUERY PLAN'][0].Plan['Plan Rows'] ?? 0);
  return Math.max(exactUpTo + 1, estimate);
}
