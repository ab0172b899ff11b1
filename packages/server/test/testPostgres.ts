import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { ensureReferenceData } from '../src/bootstrap.js';
import { connect, runMigrations } from '../src/platform/database.js';
import { type EmbeddedDatabase, startEmbeddedPostgres } from '../src/platform/embeddedPostgres.js';
import { ensureDatabase } from '../src/platform/ensureDatabase.js';

/** The run's PostgreSQL as a global set-up holds it. */
export type TestPostgres = {
  /** A URL to the `postgres` database, for CREATE DATABASE. */
  adminUrl: string;
  /** Migrated, with the reference data: every test database is a copy of it (CREATE DATABASE … TEMPLATE). */
  templateDb: string;
  /** Every database of the run is named with it, so that the end of the run finds them all. */
  prefix: string;
  /** Gives this hold back; the last one ends the run's databases (and its embedded PostgreSQL). */
  release(): Promise<void>;
};

type Shared = { ready: Promise<Omit<TestPostgres, 'release'> & { end(): Promise<void> }>; holders: number };

// Each project's global set-up is loaded by a module runner of its own, so this module may be evaluated
// twice in vitest's process; what they share lives on globalThis.
const KEY = Symbol.for('trasa.test.postgres');
const slots = globalThis as unknown as Record<symbol, Shared | undefined>;

/**
 * One PostgreSQL for a test run, whichever projects run (the server tests, the web's component tests):
 * the server at DATABASE_URL when set, otherwise one embedded PostgreSQL in a temporary directory, with
 * one template database migrated once. The first global set-up to ask starts it; the others share it.
 *
 * The end of the run: on DATABASE_URL the run's databases are dropped, several at once (each DROP
 * DATABASE waits for a checkpoint; side by side they share them). An embedded one is thrown away as a
 * whole: an immediate shutdown (no shutdown checkpoint writing out the pages of databases about to be
 * deleted) and its directory removed, without dropping each database first.
 */
export function holdTestPostgres(): Promise<TestPostgres> {
  let shared = slots[KEY];
  if (!shared) {
    shared = { ready: start(), holders: 0 };
    slots[KEY] = shared;
  }
  const held = shared;
  held.holders++;
  let released = false;
  return held.ready.then(
    (run) => ({
      adminUrl: run.adminUrl,
      templateDb: run.templateDb,
      prefix: run.prefix,
      async release() {
        if (released) return;
        released = true;
        held.holders--;
        if (held.holders > 0) return;
        slots[KEY] = undefined;
        await run.end();
      },
    }),
    (error) => {
      held.holders--;
      if (held.holders === 0) slots[KEY] = undefined;
      throw error;
    },
  );
}

async function start() {
  let embedded: EmbeddedDatabase | undefined;
  let dir: string | undefined;
  let adminUrl = process.env.DATABASE_URL;
  const prefix = `trasa_t_${randomBytes(4).toString('hex')}`;
  const end = async () => {
    if (embedded && dir) {
      await stopAtOnce(embedded, path.join(dir, 'pg'));
      await rm(dir, { recursive: true, force: true });
    } else if (adminUrl) {
      await dropAll(adminUrl, prefix);
    }
  };
  try {
    if (!adminUrl) {
      dir = await mkdtemp(path.join(os.tmpdir(), 'trasa-test-pg-'));
      embedded = await startEmbeddedPostgres({ dir, log: () => undefined });
      adminUrl = embedded.url;
    }
    const templateDb = `${prefix}_tpl`;
    const db = connect(await ensureDatabase(adminUrl, templateDb), 1);
    try {
      await runMigrations(db);
      await ensureReferenceData(db);
    } finally {
      await db.$client.end();
    }
    return { adminUrl, templateDb, prefix, end };
  } catch (error) {
    await end().catch(() => undefined);
    throw error;
  }
}

/** Drops the databases named with `prefix`, four at a time. */
async function dropAll(adminUrl: string, prefix: string) {
  const pool = new pg.Pool({ connectionString: adminUrl, max: 4 });
  try {
    const { rows } = await pool.query<{ datname: string }>('select datname from pg_database where datname like $1', [`${prefix}%`]);
    const names = rows.map((r) => r.datname);
    const worker = async () => {
      for (let name = names.pop(); name !== undefined; name = names.pop())
        await pool.query(`DROP DATABASE IF EXISTS ${pg.escapeIdentifier(name)} WITH (FORCE)`);
    };
    await Promise.all(Array.from({ length: 4 }, worker));
  } finally {
    await pool.end();
  }
}

/**
 * Stops a throw-away embedded PostgreSQL at once: its own stop (SIGINT, a fast shutdown, and waiting for
 * the process to end), turned into an immediate shutdown by SIGQUIT to the postmaster (named in its
 * postmaster.pid), which writes nothing out.
 */
async function stopAtOnce(embedded: EmbeddedDatabase, pgData: string) {
  const pid = Number((await readFile(path.join(pgData, 'postmaster.pid'), 'utf8').catch(() => '')).split('\n')[0]);
  const stopping = embedded.stop();
  if (Number.isInteger(pid) && pid > 0) {
    try {
      process.kill(pid, 'SIGQUIT');
    } catch {
      // Already gone.
    }
  }
  await stopping;
}
