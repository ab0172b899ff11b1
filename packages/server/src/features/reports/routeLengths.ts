import type { RouteLengthCode, RouteLengthReport, Sorting, SortKey } from '@trasa/domain';
import { and, asc, eq, type SQL, sql } from 'drizzle-orm';
import { activities } from '../../db/schema-activities.js';
import { clusterSettlements, clusters, contractClusters, contracts, settlements } from '../../db/schema-clusters.js';
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
  matchOf,
  offsetOf,
  type Paging,
  progressOf,
  round2,
  type SearchText,
  underContract,
} from './filters.js';

const lengthValue = (ref: SQL | null) => sql<string | null>`(select e->>'vrednost' from jsonb_array_elements(${activities.podaci}) e
  where e->>'key' = 'DuzinaTrase' and ${ref ? sql`e->>'ref' = ${ref}` : sql`coalesce(e->>'ref', '') = ''`} limit 1)`;
/**
 * The length as a number, the value's subquery run once per row: `case when v ~ … then v::numeric` ran it
 * twice (12,000 scans of the A1 data for 6,000 rows at 3,000 clusters); OFFSET 0 keeps PostgreSQL from
 * pulling the inner select up into two copies again.
 */
const numeric = (v: SQL) => sql`(select case when x ~ '^-?[0-9]+(\\.[0-9]+)?$' then x::numeric end from (select ${v} as x offset 0) q)`;

/**
 * GET /api/report/duzine/{A1|A9|A12}?page&limit&eng&srb&contract: route length in metres as each stage
 * recorded it: A1 per cluster and settlement (its own settlements, not the incidental ones), A9 (PZI)
 * and A12 (PIO) per cluster. `ukupno`: the sum over every filtered row.
 */
export async function routeLengthReport(
  db: Executor,
  scope: ClusterScope,
  code: RouteLengthCode,
  input: Paging & SearchText & Sorting<SortKey<'routeLengthReport'>> & { contract?: string },
): Promise<RouteLengthReport> {
  const entry = await catalogueEntryOf(db, code);
  const contractId = contractFilter(input.contract);
  const where = and(
    eq(activities.code, code),
    visibleClusterCondition(scope, activities.clusterId),
    underContract(contractId),
    matchOf(input),
  );
  const perSettlement = code === 'A1';
  const value = lengthValue(perSettlement ? sql`${settlements.id}::text` : null);
  const base = () => {
    const q = db
      .select({
        id: activities.id,
        clusterId: clusters.id,
        klaster: clusters.naziv,
        status: activities.status,
        datumZavrsetka: activities.datumZavrsetka,
        contract: contractColumns,
        settlementId: perSettlement ? settlements.id : sql<string | null>`null`,
        settlementNaziv: perSettlement ? settlements.naziv : sql<string | null>`null`,
        duzina: numeric(value).mapWith(Number),
      })
      .from(activities)
      .innerJoin(clusters, eq(clusters.id, activities.clusterId))
      .leftJoin(contractClusters, generalLink)
      .leftJoin(contracts, eq(contracts.id, contractClusters.contractId));
    return perSettlement
      ? q
          .innerJoin(clusterSettlements, and(eq(clusterSettlements.clusterId, clusters.id), eq(clusterSettlements.usputno, false)))
          .innerJoin(settlements, eq(settlements.id, clusterSettlements.settlementId))
      : q;
  };
  // `sort` (LIST_SORTS.routeLengthReport): the row's columns; A1's rows of one activity then in the settlements' order.
  const sorts: SortMap<'routeLengthReport'> = {
    klaster: { text: clusters.naziv },
    ugovor: { text: contracts.naziv },
    status: { value: progressOf(activities.status) },
    datumZavrsetka: { value: activities.datumZavrsetka },
    duzina: { value: numeric(value) },
  };
  const perRow = perSettlement ? [asc(clusterSettlements.position), asc(settlements.id)] : [];
  const order = input.sort
    ? [...orderOf(sorts, input, [], activities.id), ...perRow]
    : [...clusterOrder, ...(perSettlement ? [asc(clusterSettlements.position), asc(settlements.naziv)] : [])];
  const rows = await base()
    .where(where)
    .orderBy(...order)
    .limit(input.limit)
    .offset(offsetOf(input));
  const totalsQuery = db
    .select({ n: sql<number>`count(*)::int`, sum: sql<string | null>`sum(${numeric(value)})` })
    .from(activities)
    .innerJoin(clusters, eq(clusters.id, activities.clusterId));
  const [totals] = await (perSettlement
    ? totalsQuery
        .innerJoin(clusterSettlements, and(eq(clusterSettlements.clusterId, clusters.id), eq(clusterSettlements.usputno, false)))
        .innerJoin(settlements, eq(settlements.id, clusterSettlements.settlementId))
        .where(where)
    : totalsQuery.where(where));
  return {
    kratakNaziv: code,
    naziv: entry.naziv,
    rows: rows.map((r) => ({
      _id: perSettlement ? `${r.id}:${r.settlementId}` : r.id,
      klaster: { _id: r.clusterId, naziv: r.klaster },
      ugovor: contractOf(r.contract),
      naselje: r.settlementId ? { _id: r.settlementId, naziv: r.settlementNaziv ?? '' } : null,
      status: r.status,
      datumZavrsetka: r.datumZavrsetka,
      duzina: r.duzina === null || Number.isNaN(r.duzina) ? null : r.duzina,
    })),
    totalResults: totals?.n ?? 0,
    ukupno: round2(Number(totals?.sum ?? 0)),
  };
}
