import {
  addDays,
  type ClusterStatus,
  type ContractBrief,
  type ContractKind,
  type ContractStatus,
  type DeadlineColour,
  deadlineColour,
  type GroupBrief,
  type LocationDto,
} from '@trasa/domain';
import { asc, eq, inArray, sql } from 'drizzle-orm';
import { groups, groupTypes } from '../../db/schema.js';
import { clusterGroups, clusterSettlements, clusters, contractClusters, contracts, settlements } from '../../db/schema-clusters.js';
import { type Executor, serbianOrder } from '../../platform/database.js';
import { presentSettlement, settlementColumns } from '../settlements/presenter.js';

/** Shapes of docs/api/clusters-contracts.md, built field by field. */

export type { ClusterStatus, ContractBrief, GroupBrief, LocationDto };

/**
 * A cluster's status, in SQL (lists count `aktivne` with it). Derived from the activities
 * (activity-catalogue.md), which come with the next issue: until then every cluster is 'Nije započet'.
 * This is the one place to change.
 */
export const clusterStatusSql = sql<ClusterStatus>`'Nije započet'::text`;

/** When a cluster finished (its last activity); null until activities exist. Changes with clusterStatusSql. */
export const clusterFinishedSql = sql<string | null>`null::text`;

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
 * LocationDtos of a page of clusters: the groups, settlements and contracts of the whole page in one
 * query each (no query per cluster). Keeps the order of `rows`.
 */
export async function presentLocations(db: Executor, rows: ClusterRow[]): Promise<LocationDto[]> {
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
  const settlementRows = await db
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
      aktivnosti: [],
      datumZavrsetka: row.datumZavrsetka ?? null,
      boja: clusterColour(row.status, ugovor, row.datumZavrsetka ?? null),
    };
  });
}
