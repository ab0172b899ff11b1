import type pg from 'pg';
import type { AppContext } from '../../context.js';
import type { Db, Tx } from '../../platform/database.js';

/** A query as drizzle renders it (`.toSQL()`): text with $n placeholders and its values. */
export type RenderedQuery = { sql: string; params: unknown[] };

export const BATCH_ROWS = 1000;

/**
 * The rows of an export, read through a server-side cursor on the export's snapshot transaction
 * (`exportSnapshot`: one connection, READ ONLY REPEATABLE READ, so the file is one consistent snapshot):
 * `DECLARE … NO SCROLL CURSOR`, then FETCH 1,000 rows at a time as arrays, so memory holds one batch
 * whatever the list's length. The cursor is declared before anything is sent: a bad query fails while
 * the caller can still answer with an error. The transaction's end closes it.
 */
export async function openCursor(client: pg.ClientBase, query: RenderedQuery): Promise<AsyncGenerator<unknown[][]>> {
  await client.query({ text: `declare export_rows no scroll cursor for ${query.sql}`, values: query.params });
  return batches(client);
}

async function* batches(client: pg.ClientBase): AsyncGenerator<unknown[][]> {
  for (;;) {
    const result = await client.query<unknown[]>({ text: `fetch ${BATCH_ROWS} from export_rows`, rowMode: 'array' });
    if (result.rows.length === 0) return;
    yield result.rows;
  }
}

/** The connection under a drizzle transaction (node-postgres' session keeps it as `client`). */
function clientOf(tx: Tx): pg.ClientBase {
  const client = (tx as unknown as { session?: { client?: pg.ClientBase } }).session?.client;
  if (!client || typeof client.query !== 'function') throw new Error('no connection under the export transaction');
  return client;
}

export type ExportSnapshot = {
  /** The context whose `db` reads in the snapshot (a service's own transaction becomes a savepoint). */
  ctx: AppContext;
  client: pg.ClientBase;
  /** Ends the transaction (read only: nothing to keep) and returns the connection; safe to call twice. */
  end: () => Promise<void>;
};

/**
 * One READ ONLY REPEATABLE READ transaction for everything an export reads — the plan's lookups (scope,
 * names), the service pages of reports and the cursor — so a file's rows and totals are of one moment
 * even when the list is read in several statements. Held until `end`.
 */
export async function exportSnapshot(ctx: AppContext): Promise<ExportSnapshot> {
  let finish!: () => void;
  const finished = new Promise<void>((resolve) => {
    finish = resolve;
  });
  let handOver!: (snapshot: Omit<ExportSnapshot, 'end'>) => void;
  const ready = new Promise<Omit<ExportSnapshot, 'end'>>((resolve) => {
    handOver = resolve;
  });
  const done = ctx.db.transaction(
    async (tx) => {
      handOver({ ctx: { ...ctx, db: tx as unknown as Db }, client: clientOf(tx) });
      await finished;
    },
    { isolationLevel: 'repeatable read', accessMode: 'read only' },
  );
  const opened = await Promise.race([
    ready,
    done.then(() => {
      throw new Error('export snapshot ended before it was used');
    }),
  ]);
  return {
    ...opened,
    end: async () => {
      finish();
      await done.catch(() => undefined);
    },
  };
}
