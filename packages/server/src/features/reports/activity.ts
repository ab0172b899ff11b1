import type { ActivityReport, ActivityReportRow, DataItem, Sorting, SortKey } from '@trasa/domain';
import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import { activities, activityFiles } from '../../db/schema-activities.js';
import { clusters, contractClusters, contracts } from '../../db/schema-clusters.js';
import type { Executor } from '../../platform/database.js';
import { orderOf, type SortMap } from '../../platform/sorting.js';
import { type ClusterScope, visibleClusterCondition } from '../clusters/policy.js';
import { clusterOrder } from '../clusters/presenter.js';
import {
  catalogueEntryOf,
  contractColumns,
  contractFilter,
  contractOf,
  generalLink,
  groupBy,
  matchOf,
  offsetOf,
  type Paging,
  progressOf,
  type SearchText,
  underContract,
} from './filters.js';

/** `sort` of an activity's report (LIST_SORTS.activityReport); `rok` is the deadline (klizno, none, last going up). */
const ACTIVITY_REPORT_SORTS: SortMap<'activityReport'> = {
  klaster: { text: clusters.naziv },
  ugovor: { text: contracts.naziv },
  status: { value: progressOf(activities.status) },
  datumPocetka: { value: activities.datumPocetka },
  datumZavrsetka: { value: activities.datumZavrsetka },
  rok: { value: activities.rokZavrsetka },
};

/** GET /api/report/{activity}?page&limit&eng&srb: every visible cluster's record of the activity, by cluster name (or `sort`). */
export async function activityReport(
  db: Executor,
  scope: ClusterScope,
  code: string,
  input: Paging & SearchText & Sorting<SortKey<'activityReport'>> & { contract?: string },
): Promise<ActivityReport> {
  const entry = await catalogueEntryOf(db, code);
  const contractId = contractFilter(input.contract);
  const search = matchOf(input);
  const where = and(
    eq(activities.code, entry.code),
    visibleClusterCondition(scope, activities.clusterId),
    underContract(contractId, activities.clusterId),
    search,
  );
  const rows = await db
    .select({
      id: activities.id,
      clusterId: clusters.id,
      klaster: clusters.naziv,
      status: activities.status,
      datumPocetka: activities.datumPocetka,
      datumZavrsetka: activities.datumZavrsetka,
      rokZavrsetka: activities.rokZavrsetka,
      podaci: activities.podaci,
      contract: contractColumns,
    })
    .from(activities)
    .innerJoin(clusters, eq(clusters.id, activities.clusterId))
    .leftJoin(contractClusters, generalLink)
    .leftJoin(contracts, eq(contracts.id, contractClusters.contractId))
    .where(where)
    .orderBy(...orderOf(ACTIVITY_REPORT_SORTS, input, clusterOrder, activities.id))
    .limit(input.limit)
    .offset(offsetOf(input));
  // Counted from the activities alone unless the search reads the cluster's name (every activity has its
  // cluster: cluster_id is not null and references clusters): hashing the 3,000 clusters for the join was
  // half of an employee's count.
  const counted = db.select({ n: sql<number>`count(*)::int` }).from(activities);
  const [total] = await (search ? counted.innerJoin(clusters, eq(clusters.id, activities.clusterId)) : counted).where(where);
  const ids = rows.map((r) => r.id);
  const files = ids.length
    ? await db
        .select({
          id: activityFiles.id,
          activityId: activityFiles.activityId,
          originalnoIme: activityFiles.originalnoIme,
          revision: activityFiles.revision,
          createdAt: activityFiles.createdAt,
        })
        .from(activityFiles)
        .where(and(inArray(activityFiles.activityId, ids), isNull(activityFiles.deletedAt)))
        .orderBy(asc(activityFiles.createdAt), asc(activityFiles.id))
    : [];
  const filesOf = groupBy(files, (f) => f.activityId);
  return {
    activity: { kratakNaziv: entry.code, naziv: entry.naziv },
    rows: rows.map(
      (r): ActivityReportRow => ({
        _id: r.id,
        klaster: { _id: r.clusterId, naziv: r.klaster },
        ugovor: contractOf(r.contract),
        status: r.status,
        datumPocetka: r.datumPocetka,
        datumZavrsetka: r.datumZavrsetka,
        rokZavrsetka: r.rokZavrsetka,
        podaci: dataItems(r.podaci),
        fajlovi: (filesOf.get(r.id) ?? []).map((f) => ({
          _id: f.id,
          originalnoIme: f.originalnoIme,
          revizija: f.revision,
          createdAt: f.createdAt.toISOString(),
        })),
      }),
    ),
    totalResults: total?.n ?? 0,
  };
}

/** An activity's stored data items (jsonb) as the API's DataItem list; anything else is skipped. */
export function dataItems(value: unknown): DataItem[] {
  if (!Array.isArray(value)) return [];
  return value
    .filter((v): v is Record<string, unknown> => typeof v === 'object' && v !== null)
    .map((v) => ({
      key: String(v.key ?? ''),
      naziv: String(v.naziv ?? ''),
      vrednost: v.vrednost === null || v.vrednost === undefined ? '' : String(v.vrednost),
      ...(typeof v.ref === 'string' ? { ref: v.ref } : {}),
    }));
}

/** The live documents of the activity across the visible (and matching) clusters, for the zip. */
export async function activityZipFiles(db: Executor, scope: ClusterScope, code: string, search: SearchText & { contract?: string }) {
  const entry = await catalogueEntryOf(db, code);
  const contractId = contractFilter(search.contract);
  const rows = await db
    .select({ klaster: clusters.naziv, name: activityFiles.originalnoIme, storedName: activityFiles.storedName })
    .from(activityFiles)
    .innerJoin(activities, eq(activities.id, activityFiles.activityId))
    .innerJoin(clusters, eq(clusters.id, activities.clusterId))
    .where(
      and(
        eq(activities.code, entry.code),
        isNull(activityFiles.deletedAt),
        visibleClusterCondition(scope, activities.clusterId),
        underContract(contractId),
        matchOf(search),
      ),
    )
    .orderBy(...clusterOrder, asc(activityFiles.createdAt), asc(activityFiles.id));
  return { code: entry.code, rows };
}
