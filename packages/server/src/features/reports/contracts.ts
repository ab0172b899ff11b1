import type { ReportContract } from '@trasa/domain';
import { and, eq } from 'drizzle-orm';
import { contractClusters, contracts } from '../../db/schema-clusters.js';
import type { Executor } from '../../platform/database.js';
import { serbianCompare } from '../../platform/sorting.js';
import { type ClusterScope, visibleClusterCondition } from '../clusters/policy.js';
import { contractColumns } from './filters.js';

/** GET /api/report/contracts: the general contracts of the visible clusters (the reports' contract filter), by name. */
export async function reportContracts(db: Executor, scope: ClusterScope): Promise<ReportContract[]> {
  const rows = await db
    .selectDistinct(contractColumns)
    .from(contracts)
    .innerJoin(contractClusters, eq(contractClusters.contractId, contracts.id))
    .where(and(eq(contracts.kind, 'contract'), visibleClusterCondition(scope, contractClusters.clusterId)));
  return rows.map((c) => ({ _id: c.id, naziv: c.naziv, broj: c.broj })).sort((a, b) => serbianCompare(a.naziv, b.naziv));
}
