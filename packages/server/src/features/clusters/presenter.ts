import {
  type ActivityBrief,
  type ActivityStatus,
  addDays,
  type ClusterStatus,
  CONTRACT_KINDS,
  type ContractBrief,
  type ContractKind,
  type ContractorRef,
  type ContractStatus,
  type DeadlineColour,
  deadlineColour,
  type GroupBrief,
  IN_PROGRESS,
  type LocationDto,
  type LocationListItem,
} from '@trasa/domain';
import { asc, eq, inArray, type Placeholder, type SQL, sql } from 'drizzle-orm';
import { groups, groupTypes } from '../../db/schema.js';
import { activities, activityCatalogue, activityComments } from '../../db/schema-activities.js';
import { clusterGroups, clusterSettlements, clusters, contractClusters, contracts, settlements } from '../../db/schema-clusters.js';
import { type Executor, serbianOrder } from '../../platform/database.js';
import { jsonArrayAgg, jsonFields, jsonObject, jsonPlain, jsonValue } from '../../platform/jsonText.js';
import { sqlIdent, sqlLiteral } from '../../platform/sqlText.js';
import { appToday } from '../../platform/time.js';
import { activityColour } from '../../shared/activityColour.js';
import { presentSettlement, settlementColumns } from '../settlements/presenter.js';

/** Shapes of docs/api/clusters-contracts.md, built field by field. */

export type { ClusterStatus, ContractBrief, GroupBrief, LocationDto, LocationListItem };

/**
 * A cluster's status (activity-catalogue.md "Flow rules"): 'Nije započet' while every activity is
 * 'Nije započeta' (A1 not started; also a cluster without activity records), 'Završen' when every one is
 * 'Završena', 'U toku' otherwise. Stored on the cluster's row and kept by the activities' triggers
 * (drizzle/0017_cluster_status.sql; test: clusters/storedStatus.test.ts recounts it in JS after each kind
 * of step). It names the row `clusters.status_klastera` in full (drizzle leaves columns unqualified in a
 * one-table select), so the query must read `clusters` under that name.
 */
export const clusterStatusSql = sql<ClusterStatus>`clusters.status_klastera`;

/** The same as a condition for counting clusters in progress (lists' `aktivne`). */
export const clusterInProgressSql = sql<boolean>`(clusters.status_klastera = ${sqlLiteral(IN_PROGRESS)})`;

/** When a finished cluster finished: its latest datumZavrsetka (YYYY-MM-DD); null unless 'Završen' (stored beside the status). */
export const clusterFinishedSql = sql<string | null>`clusters.datum_zavrsetka_klastera::text`;

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

/**
 * A cluster's colour in SQL: deadlineColour (domain colours.ts) of `status` against the general contract's
 * period (`start`, `due`) as of `today`, finished at `finished` — the rule clusterColour applies in JS
 * (clusters never have a floating deadline). `left / total > 10 %` is compared in whole days as
 * `left × 10 > total`. Test: clusters/listJson.test.ts compares it with clusterColour.
 */
export function clusterColourSql(status: SQL, start: SQL, due: SQL, finished: SQL, today: SQL): SQL {
  return sql`(case
    when ${status} = ${sqlLiteral(FINISHED_CLUSTER)} then
      case when ${due} is null then 'green' when coalesce(${finished}, ${today}) > ${due} then 'greenRed' else 'green' end
    when ${status} <> ${sqlLiteral(IN_PROGRESS)} then 'white'
    when ${due} is null or ${start} is null then 'white'
    when ${today} > ${due} then 'red'
    when ${due} - ${start} <= 0 then 'orange'
    when (${due} - ${today}) * 10 > ${due} - ${start} then 'blue'
    else 'orange' end)`;
}
const FINISHED_CLUSTER: ClusterStatus = 'Završen';

/**
 * The list's LocationListItems of the clusters `page` names (a relation with `id` and the list position
 * `n`), as one JSON array text built in SQL, in the order of `n`, keys in LocationDto's order: what the
 * lists' tables show and no more (LocationListItem, issue 15 item 4) — name, the responsible
 * contractors (groups of type Izvođač, by name: ContractorRef), the general contract by id and name, the
 * typed contracts by id, status and colour (as of `today`, YYYY-MM-DD, against the general contract's
 * period). The detail carries all of it whole.
 * presentLocations builds the detail in JS (test: clusters/storedStatus.test.ts compares the two). The groups and contracts of the whole page are read in
 * one grouped join each; the list's answer never passes through objects in Node (the picker's
 * limit=1000 call: 1,000 rows, no parse, no stringify).
 */
export function locationListJsonSql(page: SQL, today: string | Placeholder): SQL {
  const day = sql`${today}::date`;
  const group = jsonFields<ContractorRef>({
    _id: jsonPlain(sql`gr.id`),
    naziv: jsonValue(sql`gr.naziv`),
    tipKod: jsonValue(sql`t.code`),
  });
  const ofKind = (kind: ContractKind) => sql`coalesce(k.${sqlIdent(kind, CONTRACT_KINDS)}, 'null')`;
  const location = jsonFields<LocationListItem>({
    _id: jsonPlain(sql`c.id`),
    naziv: jsonValue(sql`c.naziv`),
    odgovoran: sql`coalesce(g.list, '[]')`,
    ugovor: ofKind('contract'),
    ugovori: jsonFields<LocationListItem['ugovori']>({
      contractIzv: ofKind('contractIzv'),
      contractPro: ofKind('contractPro'),
      contractNad: ofKind('contractNad'),
    }),
    status: jsonValue(sql`c.status_klastera`),
    boja: jsonValue(clusterColourSql(sql`c.status_klastera`, sql`k.start`, sql`k.due`, sql`c.datum_zavrsetka_klastera`, day)),
  });
  // The general contract by id and name (the contract column), the typed ones by id.
  const ref = sql`case when k.kind = 'contract' then ${jsonObject([
    ['_id', jsonPlain(sql`k.id`)],
    ['naziv', jsonValue(sql`k.naziv`)],
  ])} else ${jsonObject([['_id', jsonPlain(sql`k.id`)]])} end`;
  return sql`select ${jsonArrayAgg(location, sql`p.n`)}
    from ${page} p join ${clusters} c on c.id = p.id
    left join (
      select cg.cluster_id, ${jsonArrayAgg(group, sql`gr.naziv, gr.id`)} as list
      from ${page} gp join ${clusterGroups} cg on cg.cluster_id = gp.id join ${groups} gr on gr.id = cg.group_id
      join ${groupTypes} t on t.id = gr.type_id and t.code = 'IZVODJAC'
      group by cg.cluster_id
    ) g on g.cluster_id = c.id
    left join (
      select cc.cluster_id,
        min(b.j) filter (where b.kind = 'contract') as contract,
        min(b.j) filter (where b.kind = 'contractIzv') as "contractIzv",
        min(b.j) filter (where b.kind = 'contractPro') as "contractPro",
        min(b.j) filter (where b.kind = 'contractNad') as "contractNad",
        min(b.start) filter (where b.kind = 'contract') as start,
        min(b.due) filter (where b.kind = 'contract') as due
      from ${page} kp join ${contractClusters} cc on cc.cluster_id = kp.id
      join (select k.id, k.kind, ${ref} as j, k.datum_pocetka as start, k.datum_pocetka + k.rok_trajanja as due from ${contracts} k) b
        on b.id = cc.contract_id
      group by cc.cluster_id
    ) k on k.cluster_id = c.id`;
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
  // The application's today (platform/time.ts), as the list's SQL colours it.
  const today = new Date(`${appToday()}T00:00:00Z`);

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
      boja: clusterColour(row.status, ugovor, row.datumZavrsetka ?? null, today),
    };
  });
}
