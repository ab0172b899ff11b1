import { type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../database.js';
import type { CountKind } from './kinds.js';
import { kept, versionSql } from './store.js';

/**
 * Counts kept by data version and compared in the page's own statement (docs/decisions.md "Search counts
 * kept by data version"). A search's total is its matches counted up to 10,000 on every page asked — for a
 * frequent word most of the request (the comments' 'kabl': 10,001 rows rechecked, 60 ms of PostgreSQL
 * against 0.3 ms for the page). The count is kept under the versions of the data its condition reads (its
 * kind's, kinds.ts) and counted again only when the version read in the page's own statement is another:
 * `case when <version> = <kept version> then <kept> else <count> end` — PostgreSQL evaluates a CASE's
 * branches lazily, so a kept count costs a row lookup and a moved one no second round trip.
 *
 * Under TRASA_KEPT_VERIFY the statement always counts, and `keep` compares the count with the one kept
 * when the version read is the kept one (read in the same statement: no race is possible).
 */

/** The key of a search's kept count: the list, what the caller sees ('all' or their groups) and the typed terms. */
export const searchCountKey = (list: string, scope: { all: true } | { all: false; groupIds: Iterable<string> }, terms: string[]) =>
  JSON.stringify([list, scope.all ? 'all' : [...scope.groupIds].sort(), terms]);

export type KeptCount = {
  /** The kind's versions as an expression of the statement (versionSql): read it as the statement's `version`. */
  version: SQL;
  /**
   * The count as an SQL expression: the kept total when `version` still reads what it was counted under,
   * else `count` (counted only then).
   */
  n(count: SQL): SQL;
  /**
   * The kept total past the exact count's limit (the planner's estimate it was given then), or null: read
   * beside `n`, so a kept total past the limit asks no EXPLAIN again.
   */
  estimate: SQL;
  /** Keeps the total answered under the version the statement read (under verify: compares it first). */
  keep(version: string | null, total: number): Promise<void>;
  /**
   * The kept total and the SQL condition under which it is the statement's own (its version unmoved): a
   * page near the end may then be read from the other end (usersPageJson). Absent when nothing is kept.
   */
  known?: { total: number; current: SQL };
};

/**
 * The kept count of `key` of `kind` on `db`'s database, read and written around the statement that builds
 * the page; null on a transaction's connection or with the kind switched off (the caller then counts every
 * time).
 */
export function keptCountOf(db: Executor, kind: CountKind, key: string): KeptCount | null {
  const counts = kept<number>(kind);
  const found = counts.find(db, key);
  if (found === null) return null;
  const version = versionSql(kind);
  const verify = counts.verifying(db);
  const current = found ? sql`${version} = ${found.version}` : null;
  const use = current && found && !verify;
  return {
    version,
    n: (count) => (use ? sql`(case when ${current} then ${found.value}::int else ${count} end)` : count),
    estimate: use ? sql`(case when ${current} then ${found.value}::float8 end)` : sql`null::float8`,
    async keep(v, total) {
      // A hit: the kept total was the answer (under verify, the count just made is compared with it).
      if (found && v !== null && found.version === v) {
        if (verify) await counts.check(db, key, found, total);
        return;
      }
      counts.keep(db, key, v, total);
    },
    ...(current && found && { known: { total: found.value, current } }),
  };
}
