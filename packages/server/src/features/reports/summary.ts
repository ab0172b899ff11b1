import { FINISHED, type SummaryReport, type SummaryRow } from '@trasa/domain';
import { and, sql } from 'drizzle-orm';
import { activities, activityCatalogue } from '../../db/schema-activities.js';
import { clusters } from '../../db/schema-clusters.js';
import type { Executor } from '../../platform/database.js';
import { type ClusterScope, visibleClusterCondition } from '../clusters/policy.js';
import { contractFilter, underContract } from './filters.js';

/**
 * GET /api/report/summary?contract: for each catalogue activity, how many visible clusters have it finished,
 * and how many clusters are visible, in one statement. Everything visible and no contract (the Admin's
 * report): the finished activities counted per code from activities_code_status_idx alone. Otherwise the
 * visible clusters (of the contract) first, then their finished activities read by
 * activities_cluster_code_uq: a limited scope's 300 clusters are 300 index ranges, where a count per
 * catalogue entry with the scope's condition filtered every finished activity of every cluster 36 times
 * (bare SQL 360 ms for a Rukovodilac at 3,000 clusters; bench case `report summary`).
 */
export async function summaryReport(db: Executor, scope: ClusterScope, contract: string | undefined): Promise<SummaryReport> {
  const contractId = contractFilter(contract);
  const everything = scope.all && !contractId;
  const visible = sql`select ${clusters.id} from ${clusters} where ${and(visibleClusterCondition(scope), underContract(contractId))}`;
  const finished = everything
    ? sql`select a.code, count(*)::int as n from ${activities} a where a.status = ${FINISHED} group by a.code`
    : // `= any(array(…))`: the index of (cluster_id, status) probed for each visible cluster. The scope's OR
      // of two subqueries is estimated at three quarters of the clusters: as a join PostgreSQL hashed every
      // finished activity, as a lateral read per cluster its cost estimate started the JIT (50 ms).
      sql`select a.code, count(*)::int as n from ${activities} a
        where a.cluster_id = any(array(select id from visible)) and a.status = ${FINISHED} group by a.code`;
  const result = await db.execute<{ kratakNaziv: string; naziv: string; count: number; total: number }>(sql`
    with visible as (${visible}), finished as (${finished})
    select cat.code as "kratakNaziv", cat.naziv, coalesce(f.n, 0) as count, (select count(*)::int from visible) as total
    from ${activityCatalogue} cat left join finished f on f.code = cat.code
    order by cat.position`);
  return {
    summary: result.rows.map((r): SummaryRow => ({ kratakNaziv: r.kratakNaziv, naziv: r.naziv, count: r.count })),
    totalClusters: result.rows[0]?.total ?? (await countVisible(db, scope, contractId)),
  };
}

/** How many clusters are visible (under the contract): the summary's total when the catalogue is empty. */
async function countVisible(db: Executor, scope: ClusterScope, contractId: string | null): Promise<number> {
  const [total] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(clusters)
    .where(and(visibleClusterCondition(scope), underContract(contractId)));
  return total?.n ?? 0;
}
