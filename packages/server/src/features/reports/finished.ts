import { FINISHED, type FinishedActivity, type FinishedReport, type FinishedRow, type Sorting, type SortKey } from '@trasa/domain';
import { and, asc, eq, inArray, type SQL, sql } from 'drizzle-orm';
import { activities, activityCatalogue } from '../../db/schema-activities.js';
import { clusters, contractClusters, contracts } from '../../db/schema-clusters.js';
import type { Executor } from '../../platform/database.js';
import { orderOf, type SortMap } from '../../platform/sorting.js';
import { type ClusterScope, visibleClusterCondition } from '../clusters/policy.js';
import { clusterOrder } from '../clusters/presenter.js';
import { contractColumns, contractOf, generalLink, groupBy, offsetOf, type Paging } from './filters.js';

export const onTime = (datumZavrsetka: string | null, rokZavrsetka: string | null) =>
  !rokZavrsetka || !datumZavrsetka || datumZavrsetka <= rokZavrsetka;

type FinishedFlat = {
  clusterId: string;
  code: string;
  naziv: string;
  datumZavrsetka: string | null;
  rokZavrsetka: string | null;
};

/** The finished activities of the clusters `where` selects (as of `asOf`: finished on or before it), catalogue order. */
export async function finishedActivitiesOf(db: Executor, where: SQL, asOf?: string): Promise<FinishedFlat[]> {
  return db
    .select({
      clusterId: activities.clusterId,
      code: activities.code,
      naziv: activityCatalogue.naziv,
      datumZavrsetka: activities.datumZavrsetka,
      rokZavrsetka: activities.rokZavrsetka,
    })
    .from(activities)
    .innerJoin(activityCatalogue, eq(activityCatalogue.code, activities.code))
    .where(
      and(
        eq(activities.status, FINISHED),
        where,
        asOf ? sql`coalesce(${activities.datumZavrsetka}, ${asOf}::date) <= ${asOf}::date` : undefined,
      ),
    )
    .orderBy(asc(activities.clusterId), asc(activities.position));
}

export function presentFinished(list: readonly FinishedFlat[]): FinishedActivity[] {
  return list.map((a) => ({
    kratakNaziv: a.code,
    naziv: a.naziv,
    datumZavrsetka: a.datumZavrsetka,
    rokZavrsetka: a.rokZavrsetka,
    uRoku: onTime(a.datumZavrsetka, a.rokZavrsetka),
  }));
}

/** A cluster with at least one finished activity: the count kept on it (migration 0022, with 0017's status). */
const hasFinished = sql`${clusters}.zavrsenih_aktivnosti > 0`;

/** `sort` of the finished activities report (LIST_SORTS.finishedReport): zavrsene is how many finished. */
const FINISHED_SORTS: SortMap<'finishedReport'> = {
  klaster: { text: clusters.naziv },
  ugovor: { text: contracts.naziv },
  zavrsene: {
    value: sql`(select count(*) from ${activities} a where a.cluster_id = ${clusters.id} and a.status = ${FINISHED})`,
  },
};

/** GET /api/report/finished?page&limit: visible clusters with finished activities, by name (or `sort`), paged. */
export async function finishedReport(
  db: Executor,
  scope: ClusterScope,
  paging: Paging & Sorting<SortKey<'finishedReport'>>,
): Promise<FinishedReport> {
  const where = and(visibleClusterCondition(scope), hasFinished);
  const page = await db
    .select({ id: clusters.id, naziv: clusters.naziv, contract: contractColumns })
    .from(clusters)
    .leftJoin(contractClusters, generalLink)
    .leftJoin(contracts, eq(contracts.id, contractClusters.contractId))
    .where(where)
    .orderBy(...orderOf(FINISHED_SORTS, paging, clusterOrder, clusters.id))
    .limit(paging.limit)
    .offset(offsetOf(paging));
  const [total] = await db.select({ n: sql<number>`count(*)::int` }).from(clusters).where(where);
  const ids = page.map((c) => c.id);
  const byCluster = groupBy(ids.length ? await finishedActivitiesOf(db, inArray(activities.clusterId, ids)) : [], (a) => a.clusterId);
  return {
    clusters: page.map((c): FinishedRow => {
      const zavrsene = presentFinished(byCluster.get(c.id) ?? []);
      const uRoku = zavrsene.filter((a) => a.uRoku).length;
      return { _id: c.id, klaster: c.naziv, ugovor: contractOf(c.contract), zavrsene, uRoku, kasni: zavrsene.length - uRoku };
    }),
    totalResults: total?.n ?? 0,
  };
}
