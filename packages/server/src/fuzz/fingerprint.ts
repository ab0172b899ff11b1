import fs from 'node:fs/promises';
import path from 'node:path';
import type { Db } from '../platform/database.js';

/**
 * Snapshots for "a refused request changes nothing": every table of the database and the file store.
 *
 * A table's fingerprint is (row count, newest row version): PostgreSQL stamps every inserted or updated
 * row version with the id of the transaction that wrote it (xmin), and ids only grow, so any committed
 * insert or update raises max(xmin) and any delete lowers the count, while a rolled-back write leaves
 * neither. It is stricter than comparing contents (a write that put back the same values counts too)
 * and costs one scan of each table's row headers, about a millisecond for the whole demo database once
 * the statement is prepared, so it can run after every request. `contents` (count + md5 of the ordered rows) names what changed in a report.
 * The file store's snapshot is the sorted list of names under DATA_DIR/files and DATA_DIR/tmp (stored
 * files are never rewritten in place: a change is always a name added or removed).
 */
export type DbSnapshot = Map<string, string>;

const ident = (name: string) => `"${name.replace(/"/g, '""')}"`;

export function fingerprinter(db: Db, opts: { ignore?: readonly string[] } = {}) {
  let query: string | undefined;
  const ignore = new Set(opts.ignore ?? []);

  async function tableNames(): Promise<string[]> {
    const { rows } = await db.$client.query<{ name: string }>(
      `select table_name as name from information_schema.tables
       where table_schema = 'public' and table_type = 'BASE TABLE' order by table_name`,
    );
    return rows.map((r) => r.name).filter((n) => !ignore.has(n));
  }

  async function snapshot(): Promise<DbSnapshot> {
    query ??= (await tableNames())
      .map((n) => `select '${n}' as t, count(*)::text || ':' || coalesce(max(xmin::text::bigint), 0)::text as f from public.${ident(n)}`)
      .join(' union all ');
    // A named (prepared) statement: planning the union of every table costs more than running it.
    const { rows } = await db.$client.query<{ t: string; f: string }>({ name: 'trasa-fuzz-fingerprint', text: query });
    return new Map(rows.map((r) => [r.t, r.f]));
  }

  /** The tables whose fingerprint differs from `before`. */
  async function changedSince(before: DbSnapshot): Promise<string[]> {
    const now = await snapshot();
    return [...now].filter(([t, f]) => before.get(t) !== f).map(([t]) => t);
  }

  /** count + md5 of the ordered rows of a table (for reports). */
  async function contents(table: string): Promise<string> {
    const { rows } = await db.$client.query<{ f: string }>(
      `select count(*)::text || ':' || md5(coalesce(string_agg(r, E'\\n' order by r), '')) as f
       from (select t::text as r from public.${ident(table)} t) s`,
    );
    return rows[0]?.f ?? '';
  }

  return { snapshot, changedSince, contents, tableNames };
}

/** The names under DATA_DIR/files and DATA_DIR/tmp, sorted. */
export async function filesSnapshot(dataDir: string): Promise<string> {
  const lines: string[] = [];
  for (const sub of ['files', 'tmp']) {
    const names = await fs.readdir(path.join(dataDir, sub)).catch(() => [] as string[]);
    for (const name of names.sort()) lines.push(`${sub}/${name}`);
  }
  return lines.join('\n');
}
