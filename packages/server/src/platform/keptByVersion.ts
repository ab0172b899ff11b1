import pg from 'pg';
import { clientOf, type Executor } from './database.js';

/**
 * Values kept in memory under the data version they were read at (report_cache_state: a version moves
 * once per transaction, at the commit of any change of the data it names, through whichever instance —
 * drizzle/0020's trasa_list_changed). A kept value is used only while the version read now is the one
 * it was kept under, so it is never older than what a fresh read would give at the moment that version
 * was read.
 *
 * One set per pool (one database: two databases' versions are unrelated numbers); none on a
 * transaction's connection (its own changes move no version before its commit), where `of` answers null
 * and callers read afresh. At most `max` keys, then the set starts again; with `bytes`, also at most
 * `bytes.max` of the values' sizes as `bytes.of` counts them (a value bigger than that is not kept).
 */
export function keptByVersion<T>(max = 5_000, bytes?: { of: (value: T) => number; max: number }) {
  const byPool = new WeakMap<object, { entries: Map<string, { version: string; value: T; size: number }>; bytes: number }>();
  const setOf = (db: Executor) => {
    const client = clientOf(db);
    if (!(client instanceof pg.Pool)) return null;
    let kept = byPool.get(client);
    if (!kept) {
      kept = { entries: new Map(), bytes: 0 };
      byPool.set(client, kept);
    }
    return kept;
  };
  return {
    /** What is kept for `key` on `db`'s pool (any version), or null inside a transaction. */
    get(db: Executor, key: string): { version: string; value: T } | undefined | null {
      const kept = setOf(db);
      return kept ? kept.entries.get(key) : null;
    },
    /** Keeps `value` for `key` under `version` (nothing for a null version or inside a transaction). */
    set(db: Executor, key: string, version: string | null, value: T): void {
      const kept = setOf(db);
      if (!kept || version === null) return;
      const size = bytes ? bytes.of(value) : 0;
      if (bytes && size > bytes.max) return;
      const previous = kept.entries.get(key);
      if (previous) {
        kept.entries.delete(key);
        kept.bytes -= previous.size;
      }
      if (kept.entries.size >= max || (bytes && kept.bytes + size > bytes.max)) {
        kept.entries.clear();
        kept.bytes = 0;
      }
      kept.entries.set(key, { version, value, size });
      kept.bytes += size;
    },
    /**
     * The value kept for `key` when it was kept under `version`, else `read()`'s answer, kept under
     * `version` (read() must read the data as of that version or later: a statement after the one that
     * read the version).
     */
    async remember(db: Executor, key: string, version: string | null | undefined, read: () => Promise<T>): Promise<T> {
      if (version == null) return read();
      const kept = this.get(db, key);
      if (kept && kept.version === version) return kept.value;
      const value = await read();
      this.set(db, key, version, value);
      return value;
    },
  };
}
