import { type SQL, sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import { clusters } from '../../db/schema-clusters.js';
import type { Executor } from '../../platform/database.js';
import { type KeptCount, keptCountOf, searchCountKey } from '../../platform/kept/counts.js';
import { cappedCountSql, EXACT_COUNT_LIMIT, estimatedRows, tableEstimateSql } from '../../platform/paging.js';
import { sqlDirection, sqlIdent, sqlLiteral } from '../../platform/sqlText.js';
import { type ClusterScope, visibleClusterIds } from './policy.js';

/**
 * The lists whose number of rows per cluster is kept in cluster_list_counts (drizzle/0025: recounted by
 * triggers on every insert, delete and move of a comment or topic; not in the schema files).
 */
const COUNTED_LISTS = ['comments', 'topics'] as const;
export type CountedList = (typeof COUNTED_LISTS)[number];

/**
 * One integer `n`: how many comments or topics the scope's clusters hold, summed from the kept numbers
 * (a limited scope's 300 clusters: 300 index probes, where counting its comments read 9,774 index
 * entries). Only for a list without a search or filter: the kept numbers count every row of a cluster.
 */
export function keptTotal(list: CountedList, scope: ClusterScope): SQL {
  const column = sql`k.${sqlIdent(list, COUNTED_LISTS)}`;
  // The Admin's: every cluster's (a row left of a removed one is 0, but a restored copy need not be).
  const visible = scope.all
    ? sql`where k.cluster_id in (select id from ${clusters})`
    : sql`where k.cluster_id in (${visibleClusterIds(scope)})`;
  return sql`select coalesce(sum(${column}), 0)::int as n from cluster_list_counts k ${visible}`;
}

/** How many of everybody's first rows in the list's order headOfScopePage reads per row of the page it wants. */
const HEAD_PER_ROW = 20;

/**
 * The ids of a shallow page of a limited scope's comments or topics in an order of the row's own columns
 * (`key`, then `id`, as `by` writes them): the first HEAD_PER_ROW × (offset + limit) rows of everybody that
 * `search` selects, in that order (the list's order index walked), those of the scope's `clusters` kept; when
 * they are offset + limit or more, they are the scope's first (a row of the scope not among them comes
 * after all of them), so the page is theirs. Otherwise (a scope of few rows, a deeper page) the rows that
 * `where` selects (the scope's own, searched) sorted, as before: PostgreSQL evaluates that branch only then
 * (a one-time filter). An employee's 300 clusters hold a tenth of the comments and topics: page 1 reads 200
 * index entries instead of sorting the scope's 10,000 comments or 2,000 topics.
 */
export function headOfScopePage(opts: {
  table: PgTable;
  id: SQL;
  key: SQL;
  cluster: SQL;
  search: SQL;
  where: SQL;
  clusters: SQL;
  by: (key: SQL, id: SQL) => SQL;
  limit: number;
  offset: number;
}): SQL {
  const { table, id, key, by } = opts;
  const wanted = opts.offset + opts.limit;
  return sql`with head as materialized (
      select h.id, h.k from (select ${id} as id, ${key} as k, ${opts.cluster} as cluster_id
        from ${table} where ${opts.search} order by ${by(key, id)} limit ${wanted * HEAD_PER_ROW}) h
      where h.cluster_id in (${opts.clusters}) order by ${by(sql`h.k`, sql`h.id`)} limit ${wanted})
    select p.id from (
      select id, k from head where (select count(*) from head) = ${wanted}
      union all
      select f.id, f.k from (select ${id} as id, ${key} as k from ${table} where ${opts.where}
        order by ${by(key, id)} limit ${wanted}) f
      where (select count(*) from head) < ${wanted}) p
    order by ${by(sql`p.k`, sql`p.id`)} offset ${opts.offset}`;
}

/**
 * A limited scope's comments keptTotal kept once more, in the server, under the versions of the comments
 * (drizzle/0030) and of which clusters groups see (0033's 'visibility': a cluster's groups, a contract's
 * clusters and groups; the scope's own groups are its key): platform/kept kind 'commentScopeTotal'. `n` is
 * the kept number while both versions read what it was summed under, else the sum (a CASE: PostgreSQL sums
 * only then). Summing an employee's 300 clusters' kept numbers was half of a page's statement (a hash of
 * the 300 ids against the 3,000 rows, 0.55 of 1.0 ms). `version` is read in the same statement; `keep`
 * keeps the total answered under it. On a transaction's connection nothing is kept (`version` is null) and
 * the sum is read every time. (The topics' total is summed on every request: keeping it saved no CPU
 * measurable in the bench.)
 */
export function keptScopeTotal(
  db: Executor,
  list: 'comments',
  scope: ClusterScope & { all: false },
): { n: SQL; version: SQL; keep(version: string | null, total: number): Promise<void> } {
  const count = keptCountOf(db, 'commentScopeTotal', searchCountKey(`${list} in scope`, scope, []));
  const sum = sql`(${keptTotal(list, scope)})`;
  if (!count) return { n: sum, version: sql`null::text`, keep: async () => undefined };
  return { n: count.n(sum), version: count.version, keep: (v, total) => count.keep(v, total) };
}

/**
 * The ids of a page of comments or topics sorted by their cluster's name, then their id, both in `dir`
 * (the order of the lists' `klaster` / `nazivKlastera` sort; cluster names are unique, so no two clusters'
 * rows mix), without a search or filter. The (visible) clusters are taken in name order with the running
 * sum of their kept numbers, and only the one to few clusters the page falls in are read (`rowsOf`: the
 * cluster's rows in id order from an index, given the cluster's id), at the offset left inside them: the
 * Admin's page 2,500 walked the 25,000 comments before it, now 3,000 kept numbers and 2 clusters' comments.
 */
export function pageByKeptClusters(
  list: CountedList,
  opts: { scope: ClusterScope; dir: 'asc' | 'desc'; limit: number; offset: number; rowsOf: (clusterId: SQL) => SQL },
): SQL {
  const dir = sqlDirection(opts.dir);
  const column = sql`k.${sqlIdent(list, COUNTED_LISTS)}`;
  const visible = opts.scope.all ? sql`` : sql`where c.id in (${visibleClusterIds(opts.scope)})`;
  const offset = sql`${opts.offset}::bigint`;
  // The running sums are read in the clusters' order and stop at the page's clusters (at most `limit` of
  // them: each holds a row at least), so page 1 reads one or two kept numbers, not every cluster's.
  return sql`with s as materialized (
      select id, naziv, before from (
        select id, naziv, n, sum(n) over (order by naziv collate trasa_sr ${dir} rows unbounded preceding) - n as before
        from (select c.id, c.naziv, coalesce((select ${column} from cluster_list_counts k where k.cluster_id = c.id), 0) as n
          from ${clusters} c ${visible} order by c.naziv collate trasa_sr ${dir} offset 0) c
      ) w where n > 0 and before + n > ${offset} limit ${opts.limit})
    select x.id from (select id, naziv from s order by naziv collate trasa_sr ${dir} offset 0) c
    cross join lateral (${opts.rowsOf(sql`c.id`)} offset 0) x
    order by c.naziv collate trasa_sr ${dir}, x.id ${dir}
    limit ${opts.limit} offset (select ${offset} - coalesce(min(before), 0) from s)`;
}

/**
 * What totalColumns adds to a list's statement: `n` (the kept or capped count, or null), `estimate` and
 * `version` (with `keptCount`: the version the count is kept under, else null).
 */
export type TotalColumns = { n: number | string | null; estimate: number | string | null; version: string | null };

/**
 * A list's total as columns to read in the statement that reads its page (one round trip; totalOf
 * turns them into the answer countOf gave):
 * - `kept`: a statement answering `n`, the exact number kept (keptTotal), and `estimate` when the list is a
 *   whole table (tableEstimateSql: what EXPLAIN would answer past the limit); with `exact` (a limited
 *   scope's sum) the number itself is the answer at any size: it is its own estimate, no EXPLAIN is asked,
 *   and `version` the version it is kept under (keptScopeTotal);
 * - otherwise the rows of `table` that `where` selects counted up to EXACT_COUNT_LIMIT + 1; with
 *   `estimateFirst` (the whole table) the table's estimate too, and the count only when that estimate is
 *   not past twice the limit (countOf's estimateFirst; PostgreSQL runs the count's subplan only then);
 *   with `keptCount` (a search) the total kept under `version` unless the version has moved
 *   (platform/kept/counts.ts; a kept total past the limit as `estimate` too), and the version read.
 */
export function totalColumns(
  opts:
    | { kept: SQL; estimate?: SQL; exact?: boolean; version?: SQL }
    | { table: PgTable; where: SQL | undefined; estimateFirst?: boolean; keptCount?: KeptCount },
): SQL {
  // offset 0: the kept number read once (a flattened subquery would read it for each column).
  if ('kept' in opts && opts.exact)
    return sql`select k.n, k.n::float8 as estimate, ${opts.version ?? sql`null::text`} as version from (select (${opts.kept}) as n offset 0) k`;
  if ('kept' in opts) return sql`select (${opts.kept}) as n, ${opts.estimate ?? sql`null`}::float8 as estimate, null::text as version`;
  const capped = cappedCountSql(opts.table, opts.where);
  if (opts.keptCount) {
    return sql`select ${opts.keptCount.n(capped)} as n, ${opts.keptCount.estimate} as estimate, ${opts.keptCount.version} as version`;
  }
  if (!opts.estimateFirst) return sql`select ${capped} as n, null::float8 as estimate, null::text as version`;
  return sql`select case when e.estimate > ${sqlLiteral(2 * EXACT_COUNT_LIMIT)} then null else ${capped} end as n, e.estimate,
      null::text as version
    from (select ${tableEstimateSql(opts.table)} as estimate) e`;
}

/**
 * The total from totalColumns' `row`: exact up to EXACT_COUNT_LIMIT, past it the planner's estimate (at
 * least the limit + 1) — countOf's answer. EXPLAIN is asked only past the limit (or,
 * with `estimateFirst`, for a table never analyzed), as they asked it.
 */
export async function totalOf(
  db: Executor,
  row: TotalColumns | undefined,
  table: PgTable,
  where: SQL | undefined,
  opts: { estimateFirst?: boolean } = {},
): Promise<number> {
  let estimate = row?.estimate == null ? null : Number(row.estimate);
  if (opts.estimateFirst) {
    estimate ??= await estimatedRows(db, table, where);
    if (estimate > 2 * EXACT_COUNT_LIMIT) return estimate;
  }
  const n = Number(row?.n ?? 0);
  if (n <= EXACT_COUNT_LIMIT) return n;
  return Math.max(EXACT_COUNT_LIMIT + 1, estimate ?? (await estimatedRows(db, table, where)));
}
