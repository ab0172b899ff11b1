import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createReadStream, createWriteStream, existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import readline from 'node:readline';
import { promisify } from 'node:util';
import pg from 'pg';
import { connect, migrationsFolder, runMigrations } from '../platform/database.js';
import { EPOCH_ROW, newEpoch } from '../platform/epoch.js';

/**
 * Backup and restore of one installation: the database and the stored files together, in one archive
 * (docs/operations.md "Backups").
 *
 * Why not pg_dump: the embedded PostgreSQL is 18 and ships no pg_dump, while the client tools a
 * machine offers (Debian 12: PostgreSQL 15) refuse a newer server. So the database is dumped through
 * the same connection the server uses: every table's rows in their PostgreSQL text form, read in one
 * REPEATABLE READ snapshot. The schema is not dumped: it is the code's migrations; the archive names
 * the migrations its data belongs to, a restore migrates an empty database to exactly those, loads
 * the rows, then migrates on to the running code's version (a backup of an older version restores into
 * a newer one; a newer backup is refused).
 *
 * Consistency with the files: the tables holding stored file names (columns `stored_name`) are locked
 * SHARE for the dump (no document is added or deleted meanwhile; reads go on), and the files the
 * snapshot's rows name are hard-linked into the archive's staging directory while the lock holds. Files
 * are never changed once written (generated names), so the archive's files are exactly the snapshot's.
 */
/** A backup or restore that cannot go on; its message is for the operator. */
export class RestoreRefused extends Error {}

export const BACKUP_FORMAT = 'trasa-backup';
export const BACKUP_VERSION = 1;

type Manifest = {
  format: typeof BACKUP_FORMAT;
  version: number;
  createdAt: string;
  postgres: string;
  /** The migrations the data belongs to (drizzle's journal `when` and hash), oldest first. */
  migrations: { when: number; hash: string }[];
  tables: { name: string; rows: number }[];
  sequences: { name: string; lastValue: string; isCalled: boolean }[];
  files: { count: number; bytes: number; missing: string[] };
  /** DATA_DIR/app-secret went along (the SMTP password is encrypted with it). */
  appSecret: boolean;
};

const run = promisify(execFile);
const ident = (name: string) => `"${name.replace(/"/g, '""')}"`;
const STORED_NAME = /^[0-9a-f-]{36}$/;

async function withClient<T>(url: string, work: (c: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url, application_name: 'trasa-backup' });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

async function publicTables(c: pg.Client): Promise<string[]> {
  const { rows } = await c.query<{ name: string }>(
    `select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
     where n.nspname = 'public' and c.relkind in ('r', 'p') and not c.relispartition order by c.relname`,
  );
  return rows.map((r) => r.name);
}

async function writeLine(out: NodeJS.WritableStream, line: string): Promise<void> {
  if (!out.write(`${line}\n`)) await once(out, 'drain');
}

async function closeStream(out: ReturnType<typeof createWriteStream>): Promise<void> {
  out.end();
  await once(out, 'finish');
}

/** Hard link (same file system: instant, no space), else a copy. */
async function linkOrCopy(from: string, to: string): Promise<void> {
  try {
    await fs.link(from, to);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') throw e;
    await fs.copyFile(from, to);
  }
}

export type BackupResult = { file: string; manifest: Manifest };

/** Writes the archive `out` (a .tar.gz): manifest.json, db/<table>.jsonl, files/, app-secret. */
export async function backup(opts: { databaseUrl: string; dataDir: string; out: string }): Promise<BackupResult> {
  const staging = path.join(opts.dataDir, 'tmp', `backup-${randomBytes(6).toString('hex')}`);
  await fs.mkdir(path.join(staging, 'db'), { recursive: true });
  await fs.mkdir(path.join(staging, 'files'), { recursive: true });
  try {
    const manifest = await withClient(opts.databaseUrl, async (c) => {
      await c.query('begin isolation level repeatable read');
      try {
        const fileColumns = (
          await c.query<{ table: string }>(
            `select table_name as table from information_schema.columns
             where table_schema = 'public' and column_name = 'stored_name' order by table_name`,
          )
        ).rows.map((r) => r.table);
        // Before the first query that takes the snapshot: the snapshot is taken with the locks held.
        for (const table of fileColumns) await c.query(`lock table public.${ident(table)} in share mode`);
        const postgres = (await c.query<{ v: string }>('show server_version')).rows[0]?.v ?? '';
        const migrated = await c.query<{ t: string | null }>(`select to_regclass('drizzle.__drizzle_migrations')::text as t`);
        if (!migrated.rows[0]?.t) throw new RestoreRefused('the database has no Trasa schema yet: start the server once first');
        const migrations = (
          await c.query<{ when: string; hash: string }>(
            'select created_at::text as when, hash from drizzle.__drizzle_migrations order by created_at, id',
          )
        ).rows.map((r) => ({ when: Number(r.when), hash: r.hash }));
        const tables: Manifest['tables'] = [];
        for (const name of await publicTables(c)) {
          const out = createWriteStream(path.join(staging, 'db', `${name}.jsonl`));
          let rows = 0;
          await c.query(`declare dump no scroll cursor for select t::text as r from public.${ident(name)} t`);
          for (;;) {
            const batch = await c.query<{ r: string }>('fetch 2000 from dump');
            for (const row of batch.rows) await writeLine(out, JSON.stringify(row.r));
            rows += batch.rows.length;
            if (batch.rows.length < 2000) break;
          }
          await c.query('close dump');
          await closeStream(out);
          tables.push({ name, rows });
        }
        const sequences: Manifest['sequences'] = [];
        const seqs = await c.query<{ name: string }>(
          `select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
           where n.nspname = 'public' and c.relkind = 'S' order by c.relname`,
        );
        for (const { name } of seqs.rows) {
          const { rows } = await c.query<{ last_value: string; is_called: boolean }>(
            `select last_value::text, is_called from public.${ident(name)}`,
          );
          sequences.push({ name, lastValue: rows[0]?.last_value ?? '1', isCalled: rows[0]?.is_called ?? false });
        }
        // The files the snapshot names, taken while no document can be deleted.
        const files: Manifest['files'] = { count: 0, bytes: 0, missing: [] };
        const seen = new Set<string>();
        for (const table of fileColumns) {
          const { rows } = await c.query<{ name: string }>(`select distinct stored_name as name from public.${ident(table)}`);
          for (const { name } of rows) {
            if (seen.has(name) || !STORED_NAME.test(name)) continue;
            seen.add(name);
            const from = path.join(opts.dataDir, 'files', name);
            try {
              await linkOrCopy(from, path.join(staging, 'files', name));
              files.count++;
              files.bytes += (await fs.stat(from)).size;
            } catch {
              files.missing.push(name);
            }
          }
        }
        await c.query('commit');
        return { postgres, migrations, tables, sequences, files };
      } catch (e) {
        await c.query('rollback').catch(() => undefined);
        throw e;
      }
    });
    const secretFile = path.join(opts.dataDir, 'app-secret');
    const appSecret = existsSync(secretFile);
    if (appSecret) await fs.copyFile(secretFile, path.join(staging, 'app-secret'));
    const full: Manifest = { format: BACKUP_FORMAT, version: BACKUP_VERSION, createdAt: new Date().toISOString(), ...manifest, appSecret };
    await fs.writeFile(path.join(staging, 'manifest.json'), `${JSON.stringify(full, null, 2)}\n`);
    const out = path.resolve(opts.out);
    await fs.mkdir(path.dirname(out), { recursive: true });
    const partial = `${out}.partial`;
    await run('tar', ['-czf', partial, '-C', staging, '.'], { maxBuffer: 16 * 1024 * 1024 });
    await fs.chmod(partial, 0o600);
    await fs.rename(partial, out);
    return { file: out, manifest: full };
  } finally {
    await fs.rm(staging, { recursive: true, force: true });
  }
}

/** The code's migrations (drizzle journal), oldest first. */
async function journal(): Promise<{ folder: string; entries: { idx: number; when: number; tag: string }[] }> {
  const folder = migrationsFolder();
  const meta = JSON.parse(await fs.readFile(path.join(folder, 'meta', '_journal.json'), 'utf8')) as {
    entries: { idx: number; when: number; tag: string }[];
  };
  return { folder, entries: meta.entries };
}

/** A copy of the migrations folder holding only its first `count` migrations. */
async function migrationsUpTo(staging: string, count: number): Promise<string> {
  const { folder } = await journal();
  const target = path.join(staging, 'migrations');
  await fs.cp(folder, target, { recursive: true });
  const file = path.join(target, 'meta', '_journal.json');
  const meta = JSON.parse(await fs.readFile(file, 'utf8')) as { entries: unknown[] };
  meta.entries = meta.entries.slice(0, count);
  await fs.writeFile(file, JSON.stringify(meta));
  return target;
}

/**
 * Sets the database's epoch (platform/epoch.ts) to `epoch`, where the versions' table exists (a backup
 * older than migration 0018 has none before the later migrations).
 */
async function setEpoch(c: pg.Client, epoch: string): Promise<void> {
  const { rows } = await c.query<{ t: string | null }>(`select to_regclass('public.report_cache_state')::text as t`);
  if (!rows[0]?.t) return;
  await c.query(
    `insert into public.report_cache_state (name, version) values ($1, $2::bigint)
     on conflict (name) do update set version = excluded.version`,
    [EPOCH_ROW, epoch],
  );
}

/** The other connections to the database: clients of PostgreSQL on it but the restore's own. */
async function otherClients(c: pg.Client): Promise<{ count: number; names: string }> {
  const { rows } = await c.query<{ n: number; names: string | null }>(
    `select count(*)::int as n, string_agg(distinct nullif(application_name, ''), ', ') as names from pg_stat_activity
     where datname = current_database() and pid <> pg_backend_pid() and backend_type = 'client backend'`,
  );
  return { count: rows[0]?.n ?? 0, names: rows[0]?.names ?? '' };
}

/**
 * Restores an archive into the database at `databaseUrl` (emptied first: schema public and the
 * migration records are dropped) and DATA_DIR/files (the current one is moved aside to
 * files.before-restore-<time>). A database holding data is overwritten only with `force`.
 *
 * The servers using the database should be stopped: while other clients are connected to it the restore
 * is refused, unless `whileRunning`. Either way it starts a new epoch of the database (platform/epoch.ts):
 * no value a running server kept before matches a version of the restored data, and every session ends
 * (a sign-out made after the backup cannot come back with its token). It is set three times: for the
 * emptied schema (a server reading it meanwhile keeps nothing under the old epoch), with the rows in
 * their transaction (the restored data is never seen under an earlier epoch), and after the later
 * migrations (a backup older than the versions' table).
 */
export async function restore(opts: {
  databaseUrl: string;
  dataDir: string;
  archive: string;
  force?: boolean;
  whileRunning?: boolean;
}): Promise<Manifest> {
  const tmp = path.join(opts.dataDir, 'tmp');
  const staging = path.join(tmp, `restore-${randomBytes(6).toString('hex')}`);
  await fs.mkdir(staging, { recursive: true });
  try {
    await run('tar', ['-xzf', path.resolve(opts.archive), '-C', staging], { maxBuffer: 16 * 1024 * 1024 });
    const manifest = JSON.parse(await fs.readFile(path.join(staging, 'manifest.json'), 'utf8')) as Manifest;
    if (manifest.format !== BACKUP_FORMAT || manifest.version !== BACKUP_VERSION) {
      throw new RestoreRefused(`${opts.archive} is not a Trasa backup of format version ${BACKUP_VERSION}`);
    }
    const { entries } = await journal();
    const level = manifest.migrations.length;
    if (level > entries.length || manifest.migrations.some((m, i) => entries[i]?.when !== m.when)) {
      throw new RestoreRefused('the backup was taken by a newer or different version of Trasa: install that version, then restore');
    }

    await withClient(opts.databaseUrl, async (c) => {
      if (!opts.whileRunning) {
        const others = await otherClients(c);
        if (others.count > 0) {
          throw new RestoreRefused(
            `${others.count} other connection${others.count === 1 ? ' is' : 's are'} open to the database${others.names ? ` (${others.names})` : ''}: ` +
              'stop the servers using it and restore again, or restore with --while-running to go on (every session then ends; ' +
              'a running server answers from the restored data)',
          );
        }
      }
      const tables = await publicTables(c);
      if (!opts.force && tables.includes('users')) {
        const { rows } = await c.query<{ n: number }>('select count(*)::int as n from public.users');
        if ((rows[0]?.n ?? 0) > 0) throw new RestoreRefused('the database holds data: restore with --force to overwrite it');
      }
      await c.query('drop schema if exists drizzle cascade');
      await c.query('drop schema if exists public cascade');
      await c.query('create schema public');
    });

    // The schema of the backup's version, then its rows, then the code's own later migrations.
    const db = connect(opts.databaseUrl, 1);
    try {
      const { migrate } = await import('drizzle-orm/node-postgres/migrator');
      await migrate(db, { migrationsFolder: await migrationsUpTo(staging, level) });
    } finally {
      await db.$client.end();
    }
    const epoch = newEpoch();
    await withClient(opts.databaseUrl, (c) => setEpoch(c, newEpoch()));
    await withClient(opts.databaseUrl, async (c) => {
      await c.query('begin');
      try {
        const present = new Set(await publicTables(c));
        const fks = await c.query<{ table: string; name: string; def: string }>(
          `select conrelid::regclass::text as table, conname as name, pg_get_constraintdef(oid) as def
           from pg_constraint where contype = 'f' and connamespace = 'public'::regnamespace`,
        );
        // Rows go in in any order: the foreign keys are dropped for the load and checked when re-added.
        for (const fk of fks.rows) await c.query(`alter table ${fk.table} drop constraint ${ident(fk.name)}`);
        // Rows the migrations wrote themselves (reference data) make way for the backup's.
        if (present.size > 0) await c.query(`truncate ${[...present].map((t) => `public.${ident(t)}`).join(', ')}`);
        for (const table of manifest.tables) {
          if (!present.has(table.name)) throw new RestoreRefused(`table ${table.name} is missing after the migrations`);
          const cols = await c.query<{ name: string; identity: string }>(
            `select attname as name, attidentity as identity from pg_attribute
             where attrelid = $1::regclass and attnum > 0 and not attisdropped and attgenerated = '' order by attnum`,
            [`public.${ident(table.name)}`],
          );
          const names = cols.rows.map((r) => ident(r.name));
          const overriding = cols.rows.some((r) => r.identity === 'a') ? ' overriding system value' : '';
          const insert = `insert into public.${ident(table.name)} (${names.join(', ')})${overriding}
            select ${names.map((n) => `(r).${n}`).join(', ')}
            from (select u.txt::public.${ident(table.name)} as r from unnest($1::text[]) as u(txt) offset 0) s`;
          const lines = readline.createInterface({
            input: createReadStream(path.join(staging, 'db', `${table.name}.jsonl`)),
            crlfDelay: Infinity,
          });
          let batch: string[] = [];
          let loaded = 0;
          for await (const line of lines) {
            if (!line) continue;
            batch.push(JSON.parse(line) as string);
            if (batch.length === 1000) {
              await c.query(insert, [batch]);
              loaded += batch.length;
              batch = [];
            }
          }
          if (batch.length > 0) await c.query(insert, [batch]);
          loaded += batch.length;
          if (loaded !== table.rows) throw new RestoreRefused(`table ${table.name}: ${loaded} rows read, ${table.rows} expected`);
        }
        // Deferred constraint triggers (the kept reports' version, drizzle/0018) queued by the load fire
        // now: a table with pending trigger events cannot be altered.
        await c.query('set constraints all immediate');
        for (const fk of fks.rows) await c.query(`alter table ${fk.table} add constraint ${ident(fk.name)} ${fk.def}`);
        for (const s of manifest.sequences) {
          await c.query('select setval($1::regclass, $2::bigint, $3)', [`public.${ident(s.name)}`, s.lastValue, s.isCalled]);
        }
        // The backup's epoch row (if any) was loaded with the rows: the restored data starts a new one.
        await setEpoch(c, epoch);
        await c.query('commit');
      } catch (e) {
        await c.query('rollback').catch(() => undefined);
        throw e;
      }
    });
    const later = connect(opts.databaseUrl, 1);
    try {
      await runMigrations(later);
    } finally {
      await later.$client.end();
    }
    await withClient(opts.databaseUrl, (c) => setEpoch(c, epoch));

    // Files: the backup's set replaces the current one (kept aside, not deleted).
    const stamp = new Date().toISOString().replace(/[:.]/g, '-');
    const filesDir = path.join(opts.dataDir, 'files');
    if (existsSync(filesDir)) await fs.rename(filesDir, `${filesDir}.before-restore-${stamp}`);
    await fs.rename(path.join(staging, 'files'), filesDir);
    if (manifest.appSecret) {
      const secretFile = path.join(opts.dataDir, 'app-secret');
      const incoming = await fs.readFile(path.join(staging, 'app-secret'), 'utf8');
      const current = existsSync(secretFile) ? await fs.readFile(secretFile, 'utf8') : null;
      if (current !== incoming) {
        if (current !== null) await fs.rename(secretFile, `${secretFile}.before-restore-${stamp}`);
        await fs.writeFile(secretFile, incoming, { mode: 0o600 });
      }
    }
    return manifest;
  } finally {
    await fs.rm(staging, { recursive: true, force: true });
  }
}
