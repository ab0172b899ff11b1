import { foldForSearch, type LogsPage, type Sorting, type SortKey } from '@trasa/domain';
import { and, eq, inArray, or, type SQL, sql } from 'drizzle-orm';
import { auditLogs } from '../../db/schema.js';
import type { Executor } from '../../platform/database.js';
import { estimatedRows } from '../../platform/paging.js';
import { type SortMap, sortKeyOf } from '../../platform/sorting.js';
import type { LogScope } from './policy.js';
import { presentLog } from './presenter.js';

/** The SQL of the log's rows that the list and every search path share: the text searched, the order, a page's rows, the planner's estimates. */

/** A scope of more groups is filtered by group_id in (…) instead of merging range by range. */
export const MERGE_GROUPS_MAX = 100;

/**
 * What the search box searches: the message, the user, the IP and the URL, folded like every search
 * (trasa_fold: both scripts, any case, with or without diacritics): the stored column search_text with
 * its trigram index (drizzle/0006_log_search.sql; folding per row would cost ~70 µs a row).
 */
export const SEARCH_TEXT = sql`${auditLogs.searchText}`;

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

const likePattern = (term: string) => `%${escapeLike(foldForSearch(term))}%`;

export function matchCondition(searchText: SQL, terms: string[]): SQL | undefined {
  if (terms.length === 0) return undefined;
  return or(...terms.map((t) => sql`${searchText} like ${likePattern(t)}`));
}

/**
 * `sort` of the log (LIST_SORTS.logs): the time alone, the order both indexes keep, so a deep page
 * going up (oldest first, a backward walk of the same ranges) costs what it costs going down.
 */
export const LOG_SORTS: SortMap<'logs'> = { createdAt: { value: auditLogs.createdAt } };
type LogSorting = Sorting<SortKey<'logs'>>;

/** The time direction of a page: newest first without `sort`. */
export function directionOf(sorting: LogSorting): SQL {
  return sortKeyOf(LOG_SORTS, sorting)?.direction ?? sql.raw('desc');
}

const timeOrder = (dir: SQL) => sql`order by ${auditLogs.createdAt} ${dir}, ${auditLogs.id} ${dir}`;
export const ID_COLUMNS = sql`${auditLogs.id} as id, ${auditLogs.createdAt} as created_at`;

/**
 * The scope's rows newest (or, with `asc`, oldest) first, as a subquery of (id, created_at[, extra
 * columns]): the whole table for all, otherwise one ordered range of the (group_id, created_at, id)
 * index per group, merged (Merge Append reads only as many entries as the page needs). `bound`: a
 * condition on the time columns that narrows each range (a walk from a kept position, MatchIndex).
 */
export function newestRows(scope: LogScope, dir: SQL, columns: SQL = ID_COLUMNS, bound?: SQL): SQL {
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

export type Paging = { page: number; limit: number };

export type PageRow = {
  id: string;
  user_id: string | null;
  user_label: string;
  ip: string;
  message: string;
  /** Where the message's typed values lie (null on rows written before they were kept). */
  typed_spans: number[] | null;
  url: string;
  group_id: string | null;
  group_cirilica: string;
  created_at: Date | string;
  /** The number of matches, when the page's query counted them. */
  matches?: number | string;
};

/** A page's columns of its rows (l). */
export const PAGE_COLUMNS = sql`l.id, l.user_id, l.user_label, l.ip, l.message, l.typed_spans, l.url, l.group_id, l.group_cirilica, l.created_at`;

/** The rows of a page's ids (a subquery of id, created_at), in the page's order. */
export const pageRowsSql = (ids: SQL, dir: SQL) => sql`select ${PAGE_COLUMNS} from (${ids}) p join ${auditLogs} l on l.id = p.id
    order by p.created_at ${dir}, p.id ${dir}`;

/** A page's rows as the API answers them; each `message` a composed text (logs/routes.ts puts it in the reader's script). */
export function present(rows: PageRow[]): LogsPage['logs'] {
  return rows.map((r) =>
    presentLog({
      id: r.id,
      userId: r.user_id,
      userLabel: r.user_label,
      ip: r.ip,
      message: r.message,
      typedSpans: r.typed_spans,
      url: r.url,
      groupId: r.group_id,
      groupCirilica: r.group_cirilica,
      createdAt: new Date(r.created_at),
    }),
  );
}

/** The match over the window's own column (w.search_text). */
export function windowMatch(terms: string[]): SQL {
  return matchCondition(sql`w.search_text`, terms) as SQL;
}

/** The EXPLAIN whose estimate of rows is the planner's for `where` (estimateOf reads it). */
export const explainRows = (where: SQL | undefined) =>
  sql`explain (format json) select 1 from ${auditLogs} ${where ? sql`where ${where}` : sql``}`;

/** The estimated rows of an EXPLAIN (format json)'s answer. */
export function estimateOf(rows: Record<string, unknown>[]): number {
  const plan = rows[0]?.['QUERY PLAN'] as [{ Plan: { 'Plan Rows': number } }] | undefined;
  return Math.round(plan?.[0]?.Plan['Plan Rows'] ?? 0);
}

/** The planner's estimate of the rows `where` selects. */
export const estimate = (db: Executor, where: SQL | undefined) => estimatedRows(db, auditLogs, where);
