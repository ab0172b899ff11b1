import {
  type ActivityBrief,
  type ActivityStatus,
  addDays,
  type ClusterStatus,
  type ContractBrief,
  type ContractKind,
  type ContractStatus,
  type DeadlineColour,
  deadlineColour,
  FINISHED,
  type GroupBrief,
  IN_PROGRESS,
  type LocationDto,
  NOT_STARTED,
} from '@trasa/domain';
import { asc, eq, inArray, sql } from 'drizzle-orm';
import { groups, groupTypes } from '../../db/schema.js';
import { activities, activityCatalogue, activityComments } from '../../db/schema-activities.js';
import { clusterGroups, clusterSettlements, clusters, contractClusters, contracts, settlements } from '../../db/schema-clusters.js';
import { type Executor, serbianOrder } from '../../platform/database.js';
import { activityColour } from '../notifications/colour.js';
import { presentSettlement, settlementColumns } from '../settlements/presenter.js';

/** Shapes of docs/api/clusters-contracts.md, built field by field. */

export type { ClusterStatus, ContractBrief, GroupBrief, LocationDto };

/**
 * A cluster's status, in SQL over its activities (activity-catalogue.md "Flow rules"): 'Nije započet'
 * while every activity is 'Nije započeta' (A1 not started; also a cluster without activity records),
 * 'Završen' when every one is 'Završena', 'U toku' otherwise. One aggregate per cluster over
 * activities_cluster_code_uq (cluster_id, code): ~36 index entries. It names the outer row
 * `clusters.id` in full (drizzle leaves columns unqualified in a one-table select), so the query must
 * read `clusters` under that name. Lists evaluate it for their page only; `aktivne` counts use
 * clusterInProgressSql.
 */
export const clusterStatusSql = sql<ClusterStatus>`(select case
    when count(*) filter (where a.status <> ${NOT_STARTED}) = 0 then 'Nije započet'
    when count(*) filter (where a.status <> ${FINISHED}) = 0 then 'Završen'
    else 'U toku' end
  from ${activities} a where a.cluster_id = clusters.id)`;

/**
 * The same rule as a condition for counting clusters in progress (lists' `aktivne`) without an aggregate
 * per cluster: a cluster is 'U toku' when one of its activities is, or, with none in progress, when some
 * are finished and some not started. The first part reads the in-progress index once (a hashed subplan);
 * only the clusters outside it are probed, and a probe stops at the first match.
 */
export const clusterInProgressSql = sql<boolean>`(clusters.id in (select a.cluster_id from ${activities} a where a.status = ${IN_PROGRESS})
  or (exists (select 1 from ${activities} a where a.cluster_id = clusters.id and a.status = ${FINISHED})
    and exists (select 1 from ${activities} a where a.cluster_id = clusters.id and a.status = ${NOT_STARTED})))`;

/** When a finished cluster finished: its latest datumZavrsetka (YYYY-MM-DD); null unless 'Završen'. */
export const clusterFinishedSql = sql<string | null>`(select case
    when count(*) > 0 and count(*) filter (where a.status <> ${FINISHED}) = 0 then max(a.datum_zavrsetka)::text end
  from ${activities} a where a.cluster_id = clusters.id)`;

/** The columns of a cluster row a LocationDto needs. */
export const clusterColumns = {
  id: clusters.id,
  naziv: clusters.naziv,
  indikativnaDuzinaKlastera: clusters.indikativnaDuzinaKlastera,
  ugovorenaVrednostKlastera: clusters.ugovorenaVrednostKlastera,
  adresa: clusters.adresa,
  status: clusterStatusSql,
  datumZavrsetka: clusterFinishedSql,
};
export type ClusterRow = {
  id: string;
  naziv: string;
  indikativnaDuzinaKlastera: number | null;
  ugovorenaVrednostKlastera: number | null;
  adresa: string;
  status: ClusterStatus;
  datumZavrsetka: string | null;
};

export const clusterOrder = [serbianOrder(clusters.naziv), clusters.id] as const;

/** The plain columns of a cluster row: a list's page query reads these alone (see withStatus). */
export const clusterListColumns = {
  id: clusters.id,
  naziv: clusters.naziv,
  indikativnaDuzinaKlastera: clusters.indikativnaDuzinaKlastera,
  ugovorenaVrednostKlastera: clusters.ugovorenaVrednostKlastera,
  adresa: clusters.adresa,
};
export type ClusterListRow = Omit<ClusterRow, 'status' | 'datumZavrsetka'>;

/**
 * The status and finishing date of a page of clusters (the rules of clusterStatusSql and
 * clusterFinishedSql) in one grouped query over their activities, instead of two aggregates per row:
 * at limit=1000 those were 2,000 subplans, and their estimated cost made PostgreSQL compile the query
 * (JIT, ~50 ms) on every call (issue 15).
 */
export async function withStatus(db: Executor, rows: ClusterListRow[]): Promise<ClusterRow[]> {
  if (rows.length === 0) return [];
  const ids = `{${rows.map((r) => r.id).join(',')}}`;
  const counts = await db
    .select({
      clusterId: activities.clusterId,
      started: sql<number>`(count(*) filter (where ${activities.status} <> ${NOT_STARTED}))::int`,
      open: sql<number>`(count(*) filter (where ${activities.status} <> ${FINISHED}))::int`,
      last: sql<string | null>`max(${activities.datumZavrsetka})::text`,
    })
    .from(activities)
    .where(sql`${activities.clusterId} = any(${ids}::uuid[])`)
    .groupBy(activities.clusterId);
  const byCluster = new Map(counts.map((c) => [c.clusterId, c]));
  return rows.map((row) => {
    const c = byCluster.get(row.id);
    const status: ClusterStatus = !c || c.started === 0 ? 'Nije započet' : c.open === 0 ? 'Završen' : 'U toku';
    return { ...row, status, datumZavrsetka: status === 'Završen' ? (c?.last ?? null) : null };
  });
}

type ContractRow = Pick<
  typeof contracts.$inferSelect,
  'id' | 'kind' | 'naziv' | 'broj' | 'status' | 'datumPocetka' | 'rokTrajanja' | 'datumZavrsetka'
>;

export function presentContractBrief(row: ContractRow): ContractBrief {
  return {
    _id: row.id,
    naziv: row.naziv,
    broj: row.broj,
    status: row.status as ContractStatus,
    datumPocetka: row.datumPocetka,
    rokTrajanja: row.rokTrajanja,
    datumZavrsetka: row.datumZavrsetka ?? null,
    rokZavrsetka: addDays(row.datumPocetka, row.rokTrajanja),
    route: row.kind as ContractKind,
  };
}

/** The cluster's colour against its general contract's period (in progress while status 'U toku'). */
export function clusterColour(
  status: ClusterStatus,
  ugovor: ContractBrief | null,
  finishedAt: string | null,
  today = new Date(),
): DeadlineColour {
  return deadlineColour(
    {
      inProgress: status === 'U toku',
      finished: status === 'Završen',
      start: ugovor?.datumPocetka ?? null,
      due: ugovor?.rokZavrsetka ?? null,
      finishedAt,
    },
    today,
  );
}

function groupBy<T>(rows: T[], key: (row: T) => string): Map<string, T[]> {
  const map = new Map<string, T[]>();
  for (const row of rows) {
    const k = key(row);
    const list = map.get(k);
    if (list) list.push(row);
    else map.set(k, [row]);
  }
  return map;
}

/**
 * The activities of clusters as their activities table shows them (ActivityBrief), in catalogue order,
 * each with the text of its newest comment (activity_comments_activity_idx), in one query.
 */
export async function activityBriefsOf(db: Executor, clusterIds: string[], now = new Date()): Promise<Map<string, ActivityBrief[]>> {
  if (clusterIds.length === 0) return new Map();
  const rows = await db
    .select({
      id: activities.id,
      clusterId: activities.clusterId,
      code: activities.code,
      status: activities.status,
      datumPocetka: activities.datumPocetka,
      datumZavrsetka: activities.datumZavrsetka,
      rokZavrsetka: activities.rokZavrsetka,
      returned: activities.returned,
      naziv: activityCatalogue.naziv,
      odgovoran: activityCatalogue.odgovoran,
      poslednjiKomentar: sql<string | null>`(select c.komentar from ${activityComments} c
        where c.activity_id = ${activities.id} order by c.created_at desc, c.id desc limit 1)`,
    })
    .from(activities)
    .innerJoin(activityCatalogue, eq(activityCatalogue.code, activities.code))
    .where(inArray(activities.clusterId, clusterIds))
    .orderBy(asc(activityCatalogue.position), asc(activities.code));
  const briefs = groupBy(rows, (r) => r.clusterId);
  return new Map(
    [...briefs].map(([clusterId, list]) => [
      clusterId,
      list.map(
        (r): ActivityBrief => ({
          _id: r.id,
          kratakNaziv: r.code,
          naziv: r.naziv,
          status: r.status as ActivityStatus,
          odgovoran: [...r.odgovoran],
          datumPocetka: r.datumPocetka,
          datumZavrsetka: r.datumZavrsetka,
          rokZavrsetka: r.rokZavrsetka,
          boja: activityColour(r, now),
          returned: r.returned,
          poslednjiKomentar: r.poslednjiKomentar ?? null,
        }),
      ),
    ]),
  );
}

/**
 * LocationDtos of a page of clusters: the groups, settlements and contracts of the whole page in one
 * query each (no query per cluster). Keeps the order of `rows`. A cluster's detail asks for its
 * activities too (`withActivities`); list rows carry `aktivnosti: []`. Lists (`list`) carry what their
 * table and pickers show — name, responsible groups, status, contracts, colour — and `naselja: []`,
 * `usputnaNaselja: []`: the settlements are the detail's (the edit form reads GET /api/location/:id),
 * and the pickers' limit=1000 call shrank from 2.5 MB to a fraction (issue 15).
 */
export async function presentLocations(
  db: Executor,
  rows: ClusterRow[],
  opts: { withActivities?: boolean; list?: boolean } = {},
): Promise<LocationDto[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  // One after the other: inside a transaction they share one connection.
  const groupRows = await db
    .select({ clusterId: clusterGroups.clusterId, id: groups.id, naziv: groups.naziv, tip: groupTypes.naziv, tipKod: groupTypes.code })
    .from(clusterGroups)
    .innerJoin(groups, eq(groups.id, clusterGroups.groupId))
    .leftJoin(groupTypes, eq(groupTypes.id, groups.typeId))
    .where(inArray(clusterGroups.clusterId, ids))
    .orderBy(asc(groups.naziv), asc(groups.id));
  const settlementRows = opts.list
    ? []
    : await db
        .select({ clusterId: clusterSettlements.clusterId, usputno: clusterSettlements.usputno, ...settlementColumns })
        .from(clusterSettlements)
        .innerJoin(settlements, eq(settlements.id, clusterSettlements.settlementId))
        .where(inArray(clusterSettlements.clusterId, ids))
        .orderBy(asc(clusterSettlements.position), asc(settlements.naziv), asc(settlements.id));
  const contractRows = await db
    .select({
      clusterId: contractClusters.clusterId,
      id: contracts.id,
      kind: contracts.kind,
      naziv: contracts.naziv,
      broj: contracts.broj,
      status: contracts.status,
      datumPocetka: contracts.datumPocetka,
      rokTrajanja: contracts.rokTrajanja,
      datumZavrsetka: contracts.datumZavrsetka,
    })
    .from(contractClusters)
    .innerJoin(contracts, eq(contracts.id, contractClusters.contractId))
    .where(inArray(contractClusters.clusterId, ids));
  const activitiesOf = opts.withActivities ? await activityBriefsOf(db, ids) : new Map<string, ActivityBrief[]>();
  const groupsOf = groupBy(groupRows, (r) => r.clusterId);
  const settlementsOf = groupBy(settlementRows, (r) => r.clusterId);
  const contractsOf = groupBy(contractRows, (r) => r.clusterId);

  return rows.map((row) => {
    const own = contractsOf.get(row.id) ?? [];
    const ofKind = (kind: ContractKind) => {
      const c = own.find((x) => x.kind === kind);
      return c ? presentContractBrief(c) : null;
    };
    const ugovor = ofKind('contract');
    const linked = settlementsOf.get(row.id) ?? [];
    return {
      _id: row.id,
      naziv: row.naziv,
      odgovoran: (groupsOf.get(row.id) ?? []).map((g) => ({ _id: g.id, naziv: g.naziv, tip: g.tip ?? '', tipKod: g.tipKod ?? null })),
      ugovor,
      ugovori: { contractIzv: ofKind('contractIzv'), contractPro: ofKind('contractPro'), contractNad: ofKind('contractNad') },
      indikativnaDuzinaKlastera: row.indikativnaDuzinaKlastera ?? null,
      ugovorenaVrednostKlastera: row.ugovorenaVrednostKlastera ?? null,
      naselja: linked.filter((s) => !s.usputno).map(presentSettlement),
      usputnaNaselja: linked.filter((s) => s.usputno).map(presentSettlement),
      status: row.status,
      adresa: row.adresa,
      aktivnosti: activitiesOf.get(row.id) ?? [],
      datumZavrsetka: row.datumZavrsetka ?? null,
      boja: clusterColour(row.status, ugovor, row.datumZavrsetka ?? null),
    };
  });
}
