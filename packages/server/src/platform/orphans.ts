import fs from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from 'pino';
import type { Db } from './database.js';

/**
 * The start-up sweep of the file store (docs/decisions.md "Crash safety of stored files").
 *
 * Uploads write the file first and its row after (a killed server leaves at most a file without a
 * row); deletes remove the row first and the file after (the same). So after a crash the store can hold
 * files no row names, and DATA_DIR/tmp the halves of interrupted imports. On start this removes:
 * - a file under DATA_DIR/files with a stored name (a UUID) that no `stored_name` column of any table
 *   names (contract documents, activity files, and any table that stores files later: the columns are
 *   found by name, as the backup finds them);
 * - an interrupted import's temporary file (DATA_DIR/tmp/import-*);
 * each only when it was last written more than `minAgeMs` ago (10 minutes): several servers share one
 * DATA_DIR and another may be mid-upload, its row not yet committed. Anything else (names the server
 * never generates, backup staging directories) is left alone. What it removed is logged.
 *
 * Deleted activity documents (activity_files.deleted_at: a responsible employee deleted it; the row stays
 * as the record the log and the revision history name, and nothing serves the file any more) keep their
 * bytes for DELETED_FILE_RETENTION_DAYS (30) days, a window to recover a mistaken delete from the store
 * or a backup; after that the sweep removes the bytes (`purgedDeleted`) and keeps the row. A stored name
 * another row still uses (a live file, another table) is never purged. Such rows are not reported as
 * missing.
 *
 * A row whose file is missing (the file store lost what the database kept: a restore of one without
 * the other, a disk failure) is kept and logged as a warning: the row is the record of the upload (the
 * audit log and the revision history point at it), its download answers 404, and the document can be
 * uploaded again.
 */
export const ORPHAN_MIN_AGE_MS = 10 * 60 * 1000;
/** Days a deleted activity document keeps its bytes (docs/decisions.md "Deleted activity documents"). */
export const DELETED_FILE_RETENTION_DAYS = 30;

const STORED_NAME = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const IMPORT_TEMP = /^import-[0-9a-f-]{36}$/;

export type SweepResult = {
  /** Stored files no row names, removed. */
  removedFiles: string[];
  /** Temporary files of interrupted imports, removed. */
  removedTemp: string[];
  /** Unreferenced files too young to judge (another server may be uploading them). */
  keptYoung: number;
  /** Files of activity documents deleted more than DELETED_FILE_RETENTION_DAYS ago, removed (rows kept). */
  purgedDeleted: string[];
  /** Rows naming a file that is not in the store. */
  missing: { table: string; id: string; storedName: string }[];
};

/** Stored names whose every row is an activity document deleted before the retention; no other table names them. */
async function expiredDeletedNames(db: Db, referenced: Map<string, { table: string; id: string }[]>, now: number): Promise<Set<string>> {
  const cutoff = new Date(now - DELETED_FILE_RETENTION_DAYS * 86_400_000);
  const { rows } = await db.$client.query<{ name: string }>(
    `select stored_name as name from public.activity_files group by stored_name
     having bool_and(deleted_at is not null and deleted_at < $1)`,
    [cutoff],
  );
  const out = new Set<string>();
  for (const { name } of rows) {
    if ((referenced.get(name) ?? []).every((r) => r.table === 'activity_files')) out.add(name);
  }
  return out;
}

type Entry = { name: string; mtimeMs: number };

async function listFiles(dir: string): Promise<Entry[]> {
  const names = await fs.readdir(dir).catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') return [] as string[];
    throw err;
  });
  const out: Entry[] = [];
  for (const name of names) {
    const stat = await fs.lstat(path.join(dir, name)).catch(() => null);
    if (stat?.isFile()) out.push({ name, mtimeMs: stat.mtimeMs });
  }
  return out;
}

/** Every stored name the database references, by table (the tables with a `stored_name` column). */
async function referencedNames(db: Db): Promise<Map<string, { table: string; id: string }[]>> {
  const { rows: tables } = await db.$client.query<{ table: string }>(
    `select table_name as table from information_schema.columns
     where table_schema = 'public' and column_name = 'stored_name' order by table_name`,
  );
  const out = new Map<string, { table: string; id: string }[]>();
  for (const { table } of tables) {
    const ident = `"${table.replace(/"/g, '""')}"`;
    const { rows } = await db.$client.query<{ id: string; name: string }>(
      `select id::text as id, stored_name as name from public.${ident}`,
    );
    for (const r of rows) out.set(r.name, [...(out.get(r.name) ?? []), { table, id: r.id }]);
  }
  return out;
}

export async function sweepOrphans(opts: {
  db: Db;
  dataDir: string;
  log: Pick<Logger, 'info' | 'warn'>;
  minAgeMs?: number;
  now?: number;
}): Promise<SweepResult> {
  const minAge = opts.minAgeMs ?? ORPHAN_MIN_AGE_MS;
  const filesDir = path.join(opts.dataDir, 'files');
  const tmpDir = path.join(opts.dataDir, 'tmp');
  // The directory first, the rows after: a file whose row commits in between is seen as referenced.
  const stored = await listFiles(filesDir);
  const temps = await listFiles(tmpDir);
  const now = opts.now ?? Date.now();
  const referenced = await referencedNames(opts.db);
  const expired = await expiredDeletedNames(opts.db, referenced, now);
  const result: SweepResult = { removedFiles: [], removedTemp: [], keptYoung: 0, purgedDeleted: [], missing: [] };

  for (const f of stored) {
    if (!STORED_NAME.test(f.name) || referenced.has(f.name)) continue;
    if (now - f.mtimeMs < minAge) {
      result.keptYoung++;
      continue;
    }
    await fs.rm(path.join(filesDir, f.name), { force: true });
    result.removedFiles.push(f.name);
  }
  for (const f of temps) {
    if (!IMPORT_TEMP.test(f.name) || now - f.mtimeMs < minAge) continue;
    await fs.rm(path.join(tmpDir, f.name), { force: true });
    result.removedTemp.push(f.name);
  }
  for (const f of stored) {
    if (!STORED_NAME.test(f.name) || !expired.has(f.name)) continue;
    await fs.rm(path.join(filesDir, f.name), { force: true });
    result.purgedDeleted.push(f.name);
  }
  const present = new Set(stored.map((f) => f.name));
  for (const [name, rows] of referenced) {
    if (present.has(name) || expired.has(name)) continue;
    // Written after the listing (an upload that committed meanwhile)?
    const exists = await fs
      .stat(path.join(filesDir, name))
      .then((s) => s.isFile())
      .catch(() => false);
    if (!exists) for (const r of rows) result.missing.push({ table: r.table, id: r.id, storedName: name });
  }

  if (result.removedFiles.length || result.removedTemp.length) {
    opts.log.info(
      { removedFiles: result.removedFiles, removedTemp: result.removedTemp },
      `file store sweep: removed ${result.removedFiles.length} stored file(s) no row references and ${result.removedTemp.length} temporary file(s) of interrupted uploads`,
    );
  }
  if (result.purgedDeleted.length) {
    opts.log.info(
      { purgedDeleted: result.purgedDeleted },
      `file store sweep: removed ${result.purgedDeleted.length} file(s) of activity documents deleted more than ${DELETED_FILE_RETENTION_DAYS} days ago (their rows are kept)`,
    );
  }
  if (result.missing.length) {
    opts.log.warn(
      { missing: result.missing.slice(0, 50) },
      `file store sweep: ${result.missing.length} row(s) name a file that is not in ${filesDir}; their downloads answer 404 until the document is uploaded again or the files are restored`,
    );
  }
  return result;
}
