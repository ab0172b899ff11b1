import { type SQL, sql } from 'drizzle-orm';
import type { Executor } from './database.js';
import { epochSql } from './epoch.js';
import { keptByVersion } from './keptByVersion.js';

/**
 * Counts of searches kept by data version (docs/decisions.md "Search counts kept by data version"). A
 * search's total is its matches counted up to 10,000 on every page asked — for a frequent word most of
 * the request (the comments' 'kabl': 10,001 rows rechecked, 60 ms of PostgreSQL against 0.3 ms for the
 * page). The count is kept under the version of the data its
 * condition reads (report_cache_state: a version moves once per transaction, at the commit of any such
 * change, through whichever instance: drizzle/0020's trasa_list_changed) and counted again only when the
 * version read in the page's own statement is another: a kept count is only ever used while the data it
 * was counted from is unchanged.
 *
 * Kept per pool, never inside a transaction (platform/keptByVersion.ts). Keyed by the list and the search
 * (the caller's scope and the terms: searchCountKey).
 */
const kept = keptByVersion<number>();

/** The key of a search's kept count: the list, what the caller sees ('all' or their groups) and the typed terms. */
export const searchCountKey = (list: string, scope: { all: true } | { all: false; groupIds: Iterable<string> }, terms: string[]) =>
  JSON.stringify([list, scope.all ? 'all' : [...scope.groupIds].sort(), terms]);

/**
 * The versions of the named lists as one text, after the database's epoch (platform/epoch.ts: a
 * restore's versions may repeat earlier ones); null when one's row is missing.
 */
export function listVersionSql(lists: [string, ...string[]]): SQL {
  return sql`(${epochSql} || '/' || (select case when count(*) = ${lists.length} then string_agg(name || ':' || version, '.' order by name) end
    from report_cache_state where name in (${sql.join(
      lists.map((l) => sql`${l}`),
      sql`, `,
    )})))`;
}

export type SearchCount = {
  /**
   * The search's count as an SQL expression: the kept total when `version` (an expression of the same
   * statement) still reads what it was counted under, else `count` (PostgreSQL evaluates a CASE's
   * branches lazily, so the count runs only then).
   */
  n(count: SQL): SQL;
  /**
   * The kept total past the exact count's limit (the planner's estimate it was given then), or null: read
   * beside `n`, so a kept total past the limit asks no EXPLAIN again.
   */
  estimate: SQL;
  /** Keeps the total answered under the version the statement read. */
  keep(version: string | null, total: number): void;
  /**
   * The kept total and the SQL condition under which it is the statement's own (its version unmoved):
   * a page near the end may then be read from the other end (usersPageJson). Absent when nothing is kept.
   */
  known?: { total: number; current: SQL };
};

/**
 * The kept count of the search `key` on `db`'s pool, read and written around the statement that builds
 * the page; null on a transaction's connection (the caller then counts every time).
 */
export function searchCountOf(db: Executor, key: string, version: SQL): SearchCount | null {
  const found = kept.get(db, key);
  if (found === null) return null;
  const current = found ? sql`${version} = ${found.version}` : null;
  return {
    n: (count) => (current && found ? sql`(case when ${current} then ${found.value}::int else ${count} end)` : count),
    estimate: current && found ? sql`(case when ${current} then ${found.value}::float8 end)` : sql`null::float8`,
    keep: (v, total) => kept.set(db, key, v, total),
    ...(current && found && { known: { total: found.value, current } }),
  };
}
