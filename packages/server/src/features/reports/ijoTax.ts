import type { IjoTaxReport, IjoTaxRow, Payer, Sorting, SortKey } from '@trasa/domain';
import { and, type SQL, sql } from 'drizzle-orm';
import { activities } from '../../db/schema-activities.js';
import type { Executor } from '../../platform/database.js';
import { type ClusterScope, visibleClusterCondition } from '../clusters/policy.js';
import { contractFilter, offsetOf, type Paging, underContract } from './filters.js';
import { ensureIjoRows, keptRowsCte } from './ijoCache.js';
import { IJO_COLUMNS, type IjoSqlRow, ijoOrder, ijoRowsCte, payerFilter, presentIjoRow, totalsOf } from './ijoRows.js';

/**
 * GET /api/report/ijo-takse?contract&payer[&page&limit][&sort&order]: rows of the page, totals of every
 * filtered row — one statement over the kept rows (ensureIjoRows; the rows computed by ijoRowsCte
 * when the data last changed): the page by ORDER BY … LIMIT/OFFSET, the totals grouped by payer and
 * contractor (exact sums of the fees as numeric, rounded to 2 places here).
 */
export async function ijoTaxReport(
  db: Executor,
  scope: ClusterScope,
  input: { contract?: string; payer?: string } & Paging & Sorting<SortKey<'ijoReport'>>,
): Promise<IjoTaxReport> {
  const contractId = contractFilter(input.contract);
  const payer = payerFilter(input.payer);
  const kept = await ensureIjoRows(db);
  const rowsCte = kept
    ? keptRowsCte(and(visibleClusterCondition(scope, sql`cluster_id`), underContract(contractId, sql`cluster_id`)) as SQL, payer)
    : ijoRowsCte(and(visibleClusterCondition(scope, activities.clusterId), underContract(contractId)) as SQL, payer);
  type Part = IjoSqlRow & { part: number; rn: string; n: number | null };
  const result = await db.execute<Part>(sql`with ${rowsCte},
    page as (select * from r order by ${ijoOrder(input)} limit ${input.limit} offset ${offsetOf(input)}),
    sums as (select zaduzen, izvodjac, count(*)::int as n, coalesce(sum(taksa), 0) as taksa from r group by zaduzen, izvodjac)
    select 0 as part, row_number() over () as rn, ${IJO_COLUMNS}, null::int as n from page
    union all
    select 1, row_number() over (order by izvodjac collate trasa_sr nulls first), null, null, null, null, null, null, null, null,
      taksa::text, zaduzen, izvodjac, n from sums
    order by part, rn`);
  const rows: IjoTaxRow[] = [];
  const sums: { zaduzen: Payer; izvodjac: string | null; sum: number }[] = [];
  let total = 0;
  for (const r of result.rows) {
    if (r.part === 0) rows.push(presentIjoRow(r));
    else {
      total += r.n ?? 0;
      sums.push({ zaduzen: r.zaduzen, izvodjac: r.izvodjac, sum: Number(r.taksa ?? 0) });
    }
  }
  return { rows, totalResults: total, ...totalsOf(sums) };
}
