import type pg from 'pg';
import type { AppContext } from '../../context.js';

/** A query as drizzle renders it (`.toSQL()`): text with $n placeholders and its values. */
export type RenderedQuery = { sql: string; params: unknown[] };

export const BATCH_ROWS = 1000;

/**
 * The rows of an export, read through a server-side cursor: one connection, a read-only REPEATABLE READ
 * transaction (the file is one consistent snapshot), `DECLARE … NO SCROLL CURSOR`, then FETCH 1,000 rows
 * at a time as arrays, so memory holds one batch whatever the list's length. `open` declares the cursor
 * before anything is sent: a bad query fails while the caller can still answer with an error.
 */
export async function openCursor(ctx: AppContext, query: RenderedQuery): Promise<AsyncGenerator<unknown[][]>> {
  const client: pg.PoolClient = await ctx.db.$client.connect();
  try {
    await client.query('begin transaction isolation level repeatable read read only');
    await client.query({ text: `declare export_rows no scroll cursor for ${query.sql}`, values: query.params });
  } catch (error) {
    client.release(true);
    throw error;
  }
  return batches(client);
}

async function* batches(client: pg.PoolClient): AsyncGenerator<unknown[][]> {
  let clean = false;
  try {
    for (;;) {
      const result = await client.query<unknown[]>({ text: `fetch ${BATCH_ROWS} from export_rows`, rowMode: 'array' });
      if (result.rows.length === 0) break;
      yield result.rows;
    }
    await client.query('commit');
    clean = true;
  } finally {
    // Stopped early (the client went away) or failed: the connection is dropped, never returned mid-transaction.
    client.release(!clean);
  }
}
