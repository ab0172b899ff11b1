import type { Payer } from '@trasa/domain';
import { type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../../platform/database.js';
import { ijoRowsCte } from './ijoRows.js';

/** The columns of `r` (ijoRowsCte) kept in ijo_report_rows (migration 0018). */
const KEPT_COLUMNS = sql.raw(
  'activity_id, cluster_id, klaster, ugovor_id, ugovor, ugovor_broj, imaoc_id, ord, imaoc, status, taksa, zaduzen, izvodjac',
);

/**
 * Brings ijo_report_rows up to date (migration 0018): when a change the rows depend on has bumped
 * report_cache_state.version past `built`, every row is computed again (ijoRowsCte over every cluster)
 * under the state row's lock. A writer bumps the version at its commit and so waits for a rebuild in
 * progress: the rebuild's statement sees a transaction's changes entirely or not at all, and one it
 * did not see leaves the version ahead for the next request. Answers whether the kept rows are current:
 * false without the state row (a database before the migration) or when they are stale in a read-only
 * transaction, and the caller computes the rows itself.
 */
export async function ensureIjoRows(db: Executor): Promise<boolean> {
  type State = { version: string; built: string; ro?: boolean };
  const state = (
    await db.execute<State>(
      sql`select version::text, built::text, current_setting('transaction_read_only') = 'on' as ro
        from report_cache_state where name = 'ijo'`,
    )
  ).rows[0];
  if (!state) return false;
  if (state.version === state.built) return true;
  // Stale inside a read-only transaction (an export's snapshot): the caller computes the rows itself.
  if (state.ro) return false;
  return db.transaction(async (tx) => {
    const locked = (await tx.execute<State>(sql`select version::text, built::text from report_cache_state where name = 'ijo' for update`))
      .rows[0];
    if (!locked) return false;
    if (locked.version === locked.built) return true;
    await tx.execute(sql`delete from ijo_report_rows`);
    await tx.execute(sql`insert into ijo_report_rows (${KEPT_COLUMNS}) with ${ijoRowsCte(sql`true`, null)} select ${KEPT_COLUMNS} from r`);
    await tx.execute(sql`update report_cache_state set built = ${locked.version}::bigint where name = 'ijo'`);
    return true;
  });
}

/** The IJO rows of the clusters `clusterWhere` selects (a condition on `cluster_id`) and of the payer: kept ones, as `r`. */
export function keptRowsCte(clusterWhere: SQL, payer: Payer | null): SQL {
  // Not materialized: the page reads ijo_report_rows_order_idx in the default order (5 ms against 16 for
  // a top-N sort of every row in trasa_sr), the totals scan the rows apart.
  return sql`r as not materialized (select * from ijo_report_rows where ${clusterWhere}${payer ? sql` and zaduzen = ${payer}` : sql``})`;
}
