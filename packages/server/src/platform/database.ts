import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type AnyColumn, type SQL, sql } from 'drizzle-orm';
import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import * as schema from '../db/schema.js';

export type Db = NodePgDatabase<typeof schema> & { $client: pg.Pool };
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
/** Either the pool or a transaction: services accept both. */
export type Executor = Db | Tx;

// DATE columns come back as 'YYYY-MM-DD' strings, not shifted Date objects.
pg.types.setTypeParser(1082, (v: string) => v);

export function connect(url: string, max = 10): Db {
  const pool = new pg.Pool({ connectionString: url, max, idleTimeoutMillis: 30_000 });
  pool.on('error', () => {
    /* a dropped idle connection is replaced on next use */
  });
  return drizzle(pool, { schema }) as Db;
}

/** The committed migrations: next to the built bundle (dist/drizzle) or the sources (../drizzle). */
export function migrationsFolder(): string {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const found = [path.resolve(here, 'drizzle'), path.resolve(here, '../../drizzle')].find((dir) =>
    existsSync(path.join(dir, 'meta', '_journal.json')),
  );
  if (!found) throw new Error('migrations folder not found');
  return found;
}

/**
 * Several servers starting at once on one database: the migrations run under a session advisory lock
 * held on a connection of its own (outside the pool), so one applies them and the others, waiting,
 * then find them applied.
 */
export async function runMigrations(db: Db): Promise<void> {
  const holder = new pg.Client(db.$client.options);
  await holder.connect();
  try {
    await holder.query(`select pg_advisory_lock(hashtext('trasa:migrations'))`);
    await migrate(db, { migrationsFolder: migrationsFolder() });
  } finally {
    await holder.end().catch(() => undefined);
  }
}

/** A text column in the Serbian alphabet's order (collation trasa_sr, drizzle/0003_serbian_order.sql). */
export function serbianOrder(column: AnyColumn): SQL {
  return sql`${column} collate trasa_sr`;
}
