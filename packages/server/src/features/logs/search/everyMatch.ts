import type { LogsPage } from '@trasa/domain';
import { sql } from 'drizzle-orm';
import { auditLogs } from '../../../db/schema.js';
import { runBatch } from '../../../platform/database.js';
import { offsetOf } from '../../../platform/paging.js';
import { PAGE_COLUMNS, type PageRow, present } from '../rows.js';
import type { LogSearch } from './facts.js';
import { matchingSql } from './matching.js';
import type { Narrowing } from './narrowing.js';

/** Every match of the terms in the scope (matchingSql), sorted for the page and counted on the way. */
export async function everyMatch({ db, scope, terms, query, dir }: LogSearch, letters: Narrowing | null): Promise<LogsPage> {
  const matching = matchingSql(scope, terms, query, letters);
  // The page and the count in one read of the matches (kept once): a page past the last match still
  // answers one row, without a log, carrying the count (and sorts nothing). Only the indexes' bitmaps
  // (no walk of the time index filtering a million rows): the settings and the statement in one round
  // trip (runBatch).
  const offset = offsetOf(query);
  const [, , rows] = await runBatch(db, [
    sql`set local enable_indexscan = off`,
    sql`set local enable_seqscan = off`,
    sql`with found as materialized (${matching}),
        page as (select id, created_at from found where (select count(*) from found) > ${offset}
          order by created_at ${dir}, id ${dir} limit ${query.limit} offset ${offset})
      select ${PAGE_COLUMNS}, (select count(*) from found) as matches
      from (select 1) one left join (page join ${auditLogs} l on l.id = page.id) on true
      order by page.created_at ${dir}, page.id ${dir}`,
  ]);
  const result = (rows ?? []) as PageRow[];
  const logs = present(result.filter((r) => r.id !== null));
  return { logs, totalLogs: Number(result[0]?.matches ?? 0), totalExact: true };
}
