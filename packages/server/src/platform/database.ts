import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type AnyColumn, fillPlaceholders, type SQL, sql } from 'drizzle-orm';
import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import { PgDialect } from 'drizzle-orm/pg-core';
import pg from 'pg';
import * as schema from '../db/schema.js';
import { literalText } from './sqlText.js';

export type Db = NodePgDatabase<typeof schema> & { $client: pg.Pool };
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
/** Either the pool or a transaction: services accept both. */
export type Executor = Db | Tx;

// DATE columns come back as 'YYYY-MM-DD' strings, not shifted Date objects.
pg.types.setTypeParser(1082, (v: string) => v);

/**
 * What every connection of the pool sets before its first statement (docs/decisions.md "No JIT on the
 * app's connections"): PostgreSQL's JIT compiles a statement whose estimated cost passes jit_above_cost
 * anew on every run (nothing is cached), 140 ms per statement for the progress report's two, which run
 * in 20–40 ms without it. A SET, not a startup option: a pooler in front (PgBouncer) may refuse `options`.
 */
export const SESSION_SETTINGS = 'set jit = off';

export function connect(url: string, max = 10): Db {
  // onConnect (pg-pool 3.14): run on each new client before it is handed out; a failure drops the client
  // and fails the checkout with it.
  const pool = new pg.Pool({
    connectionString: url,
    max,
    idleTimeoutMillis: 30_000,
    onConnect: (client) => client.query(SESSION_SETTINGS),
  });
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

/**
 * The `pg` client an executor's statements run on: the pool, or the connection a transaction holds.
 * (drizzle keeps it on the executor's session; every Db and Tx here is node-postgres.)
 */
export function clientOf(db: Executor): pg.Pool | pg.PoolClient {
  return (db as unknown as { session: { client: pg.Pool | pg.PoolClient } }).session.client;
}

/**
 * A drizzle prepared statement (`.prepare('name')`, built once) run on `db` — the pool, or a
 * transaction's connection. drizzle binds a prepared statement to the client it was built on; this
 * runs the same one on another client without building it again (a view over it with that client).
 * pg prepares a named statement once per connection by itself (Parse on first use, then only
 * Bind/Execute), so one prepared object serves every pooled connection.
 */
export function preparedOn<T extends object>(prepared: T, db: Executor): T {
  const client = clientOf(db);
  if ((prepared as { client?: unknown }).client === client) return prepared;
  return Object.create(prepared, { client: { value: client } }) as T;
}

const dialect = new PgDialect();

/**
 * runBatch's dialect: every value (where drizzle would write a `$n` parameter) written as a literal
 * (literalText: strings, finite numbers, bigints, booleans, null; anything else throws). drizzle's own inlining (mapInlineParam) would write an object's toString, NaN or
 * Infinity as they come, so it is refused here (escapeString is used by nothing else).
 */
class BatchDialect extends PgDialect {
  override escapeParam(_num: number, value?: unknown): string {
    try {
      return literalText(value);
    } catch (error) {
      throw new TypeError(`runBatch: ${(error as Error).message}`);
    }
  }
  override escapeString(_str: string): string {
    throw new TypeError('runBatch: a fragment with inlined values (.inlineParams()) is not accepted');
  }
}
const batchDialect = new BatchDialect();

/**
 * A statement written once: its SQL text built at start-up (placeholders `sql.placeholder('x')`), run
 * as a named prepared statement (`pg` sends Parse once per pooled connection; PostgreSQL may keep a
 * generic plan after five runs). Rows come back as `pg` parses them (no drizzle mapping).
 */
export type NamedStatement<Row> = { name: string; text: string; params: unknown[]; _row?: Row };

/** A condition's SQL text and values as one string: the same text for the same condition (a key of kept answers). */
export function conditionKey(condition: SQL): string {
  const built = dialect.sqlToQuery(condition);
  return JSON.stringify([built.sql, built.params]);
}

export function namedStatement<Row = Record<string, unknown>>(name: string, query: SQL): NamedStatement<Row> {
  const built = dialect.sqlToQuery(query);
  return { name, text: built.sql, params: built.params };
}

export async function runNamed<Row>(
  db: Executor,
  statement: NamedStatement<Row>,
  values: Record<string, unknown> = {},
): Promise<{ rows: Row[]; rowCount: number }> {
  const result = await clientOf(db).query({
    name: statement.name,
    text: statement.text,
    values: fillPlaceholders(statement.params, values),
  });
  return { rows: result.rows as Row[], rowCount: result.rowCount ?? 0 };
}

/**
 * Several statements sent as one simple query: one round trip, run by PostgreSQL as one implicit
 * transaction (so `set local` holds for the statements after it and ends with the batch; an error rolls
 * the whole batch back and leaves the connection clean). The simple protocol takes no parameters, so the
 * values are written into the text, each through literalText (strings, finite numbers, bigints,
 * booleans, null; anything else throws before anything is sent); no statement here is prepared: each is
 * planned with its values, as an unnamed statement is. Answers each statement's rows, in order.
 *
 * On the pool only (`Db`): inside a caller's transaction a `set local` would outlive the batch.
 */
export async function runBatch(db: Db, statements: SQL[]): Promise<Record<string, unknown>[][]> {
  const text = statements.map((s) => batchDialect.sqlToQuery(s).sql).join(';\n');
  const result = (await db.$client.query(text)) as pg.QueryResult | pg.QueryResult[];
  return (Array.isArray(result) ? result : [result]).map((r) => r.rows);
}
