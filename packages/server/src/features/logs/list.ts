import type { LogListQuery, LogsPage } from '@trasa/domain';
import { and, type SQL, sql } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import { auditLogs } from '../../db/schema.js';
import type { Actor } from '../../platform/auth.js';
import type { Db, Executor } from '../../platform/database.js';
import { cappedCountSql, offsetOf, tableEstimateSql } from '../../platform/paging.js';
import { searchTerms } from '../../platform/textSearch.js';
import { type LogScope, logScopeCondition, logScopeOf } from './policy.js';
import {
  directionOf,
  estimate,
  matchCondition,
  newestRows,
  PAGE_COLUMNS,
  type PageRow,
  type Paging,
  present,
  SEARCH_TEXT,
} from './rows.js';

/**
 * Rows counted exactly (100 pages of 10): an index-only count of 1,001 entries costs ~0.3 ms, and
 * every page asks for the total again.
 */
export const EXACT_COUNT_CAP = 1_000;

export async function cappedCount(db: Executor, where: SQL | undefined, cap: number): Promise<number> {
  const result = await db.execute<{ n: number }>(sql`select ${cappedCountSql(auditLogs, where, cap)} as n`);
  return result.rows[0]?.n ?? 0;
}

export type Total = { totalLogs: number; totalExact: boolean };

/** A short first page is its own count; a short later page tells the count too, unless it is empty. */
export function countFromPage(paging: Paging, shown: number): Total | null {
  const offset = offsetOf(paging);
  return shown < paging.limit && (shown > 0 || offset === 0) ? { totalLogs: offset + shown, totalExact: true } : null;
}

/**
 * Past the cap: the estimate (`known`: already read, e.g. the table's with the page), never less than
 * what the pages already show.
 */
export async function estimatedTotal(
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
  return { totalLogs: Math.max(known ?? (await estimate(db, where)), floor), totalExact: false };
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
