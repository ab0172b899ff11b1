import {
  ACTIVITY_STATUSES,
  type ActivityReport,
  type ActivityReportRow,
  DATA_KEYS,
  type DataItem,
  FINISHED,
  type FinishedActivity,
  type FinishedReport,
  type FinishedRow,
  type IjoTaxReport,
  type IjoTaxRow,
  type IjoTaxTotals,
  type Payer,
  REPORTS,
  type ReportContract,
  type RouteLengthCode,
  type RouteLengthReport,
  type Sorting,
  type SortKey,
  type SummaryReport,
  type SummaryRow,
  toLatin,
} from '@trasa/domain';
import { and, asc, eq, inArray, isNull, type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { groups, groupTypes } from '../../db/schema.js';
import { activities, activityCatalogue, activityFiles, ijoHolders } from '../../db/schema-activities.js';
import {
  clusterGroups,
  clusterSettlements,
  clusters,
  contractClusters,
  contractGroups,
  contracts,
  settlements,
} from '../../db/schema-clusters.js';
import type { Executor } from '../../platform/database.js';
import { epochSql } from '../../platform/epoch.js';
import { badRequest, notFound } from '../../platform/errors.js';
import { orderOf, type SortMap, serbianCompare, sortKeyOf } from '../../platform/sorting.js';
import { sqlLiteral } from '../../platform/sqlText.js';
import { searchTerms } from '../../platform/textSearch.js';
import { type ClusterScope, visibleClusterCondition } from '../clusters/policy.js';
import { clusterOrder } from '../clusters/presenter.js';
import { clusterMatchCondition } from '../clusters/search.js';

/**
 * The reports of spec 3 §2.7 / §7 (docs/api/reports.md). Every query is set-based (one statement per
 * report part, never one per cluster) and sees only the clusters of the caller's scope
 * (features/clusters/policy.ts: visibleClusterCondition).
 */

export type Paging = { page: number; limit: number };
const offsetOf = (p: Paging) => (p.page - 1) * p.limit;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const round2 = (n: number) => Math.round(n * 100) / 100;

/** The general contract a cluster is under (at most one per kind). */
const generalLink = and(eq(contractClusters.clusterId, clusters.id), eq(contractClusters.kind, 'contract'));
const contractColumns = { id: contracts.id, naziv: contracts.naziv, broj: contracts.broj };
const contractOf = (c: { id: string | null; naziv: string | null; broj: string | null } | null): ReportContract | null =>
  c?.id ? { _id: c.id, naziv: c.naziv ?? '', broj: c.broj ?? '' } : null;

/** `contract` of a filter: empty or 'all' = every contract; a malformed id is a 400. */
export function contractFilter(contract: string | undefined): string | null {
  const c = (contract ?? '').trim();
  if (!c || c.toLowerCase() === 'all' || c.toLowerCase() === 'sve') return null;
  if (!UUID.test(c)) throw badRequest(REPORTS.unknownReport, { contract: 'Neispravna vrednost.' });
  return c.toLowerCase();
}

/** Clusters (by `clusterId`) under the general contract, or true without one. */
export function underContract(contractId: string | null, clusterId: SQL | AnyPgColumn = clusters.id): SQL {
  if (!contractId) return sql`true`;
  return sql`${clusterId} in (select ${contractClusters.clusterId} from ${contractClusters} where ${contractClusters.contractId} = ${contractId})`;
}

/** GET /api/report/contracts: the general contracts of the visible clusters (the reports' contract filter), by name. */
export async function reportContracts(db: Executor, scope: ClusterScope): Promise<ReportContract[]> {
  const rows = await db
    .selectDistinct(contractColumns)
    .from(contracts)
    .innerJoin(contractClusters, eq(contractClusters.contractId, contracts.id))
    .where(and(eq(contracts.kind, 'contract'), visibleClusterCondition(scope, contractClusters.clusterId)));
  return rows.map((c) => ({ _id: c.id, naziv: c.naziv, broj: c.broj })).sort((a, b) => serbianCompare(a.naziv, b.naziv));
}

// ---------------------------------------------------------------------------------------------- summary

/**
 * GET /api/report/summary?contract: for each catalogue activity, how many visible clusters have it finished,
 * and how many clusters are visible, in one statement. Everything visible and no contract (the Admin's
 * report): the finished activities counted per code from activities_code_status_idx alone. Otherwise the
 * visible clusters (of the contract) first, then their finished activities read by
 * activities_cluster_code_uq: a limited scope's 300 clusters are 300 index ranges, where a count per
 * catalogue entry with the scope's condition filtered every finished activity of every cluster 36 times
 * (bare SQL 360 ms for a Rukovodilac at 3,000 clusters, issue 15). (Helper "clusters", stop 20: only this
 * statement of features/reports changed.)
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

// --------------------------------------------------------------------------------------------- finished

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

export function groupBy<T, K>(items: readonly T[], key: (t: T) => K): Map<K, T[]> {
  const map = new Map<K, T[]>();
  for (const item of items) {
    const k = key(item);
    const list = map.get(k);
    if (list) list.push(item);
    else map.set(k, [item]);
  }
  return map;
}

/** A cluster with at least one finished activity: the count kept on it (migration 0022, with 0017's status). */
const hasFinished = sql`${clusters}.zavrsenih_aktivnosti > 0`;

/** An activity's status in the order of progress (not started, in progress, finished), as the clusters list sorts it. */
const progressOf = (status: SQL | AnyPgColumn) =>
  sql`case ${status} ${sql.join(
    ACTIVITY_STATUSES.map((s, i) => sql`when ${s} then ${sqlLiteral(i)}`),
    sql` `,
  )} end`;

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

// --------------------------------------------------------------------------------------- per activity

/** The catalogue entry of a report's activity code (case aside); 404 for an unknown one. */
export async function catalogueEntryOf(db: Executor, code: string): Promise<{ code: string; naziv: string }> {
  const [row] = await db
    .select({ code: activityCatalogue.code, naziv: activityCatalogue.naziv })
    .from(activityCatalogue)
    .where(sql`upper(${activityCatalogue.code}) = upper(${code.trim()})`)
    .limit(1);
  if (!row) throw notFound(REPORTS.unknownActivity);
  return row;
}

export type SearchText = { eng?: string; srb?: string };
const matchOf = (search: SearchText) => clusterMatchCondition(searchTerms({ eng: search.eng ?? '', srb: search.srb ?? '' }));

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

// ------------------------------------------------------------------------------------------ IJO taxes

/** 'Izvođač' / 'Naručilac' in either script, with or without diacritics; null for none; 400 otherwise. */
export function payerFilter(payer: string | undefined): Payer | null {
  const folded = toLatin((payer ?? '').trim())
    .toLowerCase()
    .replace(/đ/g, 'dj')
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '');
  if (!folded || folded === 'all' || folded === 'sve' || folded === 'svi') return null;
  if (folded === 'izvodjac' || folded === 'izvodac') return 'Izvođač';
  if (folded === 'narucilac') return 'Naručilac';
  throw badRequest(REPORTS.unknownReport, { payer: 'Neispravna vrednost.' });
}

export const NO_CONTRACTOR = 'Nije određen';

/**
 * The first data item of an A7 with the key (any ref), its value trimmed, as `dataValue` reads it
 * (a JSON null or a missing value is ''); null without one.
 */
const firstValue = (key: string) =>
  sql`(select trasa_trim(coalesce(e->>'vrednost', '')) from jsonb_array_elements(${activities.podaci}) with ordinality x(e, n)
    where e->>'key' = ${key} order by n limit 1)`;

/** The contractor's name of each of the A7s' clusters (the groups of a contractor contract, else the responsible IZVODJAC groups). */
const contractorNames = (groupsOf: SQL) =>
  sql`select x.cluster_id, string_agg(x.naziv, ', ' order by x.naziv collate trasa_sr) as naziv
    from (${groupsOf}) x group by x.cluster_id`;

/**
 * The rows of the IJO fees report as a chain of CTEs ending in `r`: one row per holder id on each A7
 * (of the clusters `where` selects, and of `payer` when given), in the columns of IjoTaxRow. It does in
 * SQL what the report did in the server from each A7's data (@trasa/domain: holderIds, checkedHolderIds,
 * dataValue, parseAmount — trasa_amount, migration 0015): the first `Ijos` item's value split at commas,
 * each id trimmed, empty ones dropped, duplicates kept, in the list's order (`ord`); done when on the
 * first `A7IjoChecked` item's list; the fee from the first `A7Taksa` item whose `ref` is that id; the
 * holder's name from the codebook, else that item's `naziv`, else the id; the payer 'Naručilac' only for a
 * codebook holder of that responsibility; an Izvođač row's contractor: the names of the groups of the
 * cluster's contractor contract, else of its responsible IZVODJAC groups, distinct, in Serbian order,
 * joined by ', ' (NO_CONTRACTOR for none). ijoRows.test.ts compares it with that reading row by row.
 */
function ijoRowsCte(where: SQL, payer: Payer | null): SQL {
  const general = sql`gc`;
  return sql`a7 as (
    select ${activities.id} as activity_id, ${clusters.id} as cluster_id, ${clusters.naziv} as klaster, ${activities.podaci} as podaci,
      k.id as ugovor_id, k.naziv as ugovor, k.broj as ugovor_broj,
      ${firstValue(DATA_KEYS.holders)} as ijos,
      array(select trasa_trim(v) from unnest(string_to_array(${firstValue(DATA_KEYS.a7Checked)}, ',')) v) as checked
    from ${activities}
    join ${clusters} on ${clusters.id} = ${activities.clusterId}
    left join ${contractClusters} ${general} on ${general}.cluster_id = ${clusters.id} and ${general}.kind = 'contract'
    left join ${contracts} k on k.id = ${general}.contract_id
    where ${activities.code} = 'A7' and ${activities.podaci} @> '[{"key":"Ijos"}]'::jsonb and ${where}
  ),
  by_contract as (${contractorNames(sql`select distinct cc.cluster_id, g.naziv from ${contractClusters} cc
    join ${contractGroups} cg on cg.contract_id = cc.contract_id join ${groups} g on g.id = cg.group_id
    where cc.kind = 'contractIzv' and cc.cluster_id in (select cluster_id from a7)`)}),
  by_responsible as (${contractorNames(sql`select distinct cg.cluster_id, g.naziv from ${clusterGroups} cg
    join ${groups} g on g.id = cg.group_id join ${groupTypes} t on t.id = g.type_id
    where t.code = 'IZVODJAC' and cg.cluster_id in (select cluster_id from a7)`)}),
  rows as (
    select a7.activity_id, a7.cluster_id, a7.klaster, a7.ugovor_id, coalesce(a7.ugovor, '') as ugovor,
      coalesce(a7.ugovor_broj, '') as ugovor_broj, h.id as imaoc_id, h.n as ord,
      coalesce(ih.naziv, nullif(fee.naziv, ''), h.id) as imaoc,
      h.id = any(a7.checked) as status,
      trasa_amount(fee.vrednost) as taksa,
      case when ih.odgovoran = 'Naručilac' then 'Naručilac' else 'Izvođač' end as zaduzen,
      case when ih.odgovoran = 'Naručilac' then null else coalesce(nullif(coalesce(bc.naziv, br.naziv), ''), ${NO_CONTRACTOR}) end as izvodjac
    from a7
    cross join lateral (select trasa_trim(u.v) as id, u.n from unnest(string_to_array(a7.ijos, ',')) with ordinality u(v, n) offset 0) h
    left join lateral (select coalesce(e->>'vrednost', '') as vrednost, coalesce(e->>'naziv', '') as naziv
      from jsonb_array_elements(a7.podaci) with ordinality x(e, n)
      where e->>'key' = ${DATA_KEYS.a7Fee} and jsonb_typeof(e->'ref') = 'string' and e->>'ref' = h.id order by n limit 1) fee on true
    left join ${ijoHolders} ih on ih.id::text = h.id
    left join by_contract bc on bc.cluster_id = a7.cluster_id
    left join by_responsible br on br.cluster_id = a7.cluster_id
    where h.id <> ''
  ),
  r as (select * from rows${payer ? sql` where zaduzen = ${payer}` : sql``})`;
}

/** The report's default order: by cluster name (trasa_sr), the cluster, its A7, then the holder list's order. */
const IJO_DEFAULT_ORDER = sql`klaster collate trasa_sr, cluster_id, activity_id, ord`;

/** `sort` of the IJO fees report (LIST_SORTS.ijoReport): columns of `r` (ijoRowsCte). */
const IJO_SORTS: SortMap<'ijoReport'> = {
  ugovor: { text: sql.raw('ugovor') },
  klaster: { text: sql.raw('klaster') },
  imaoc: { text: sql.raw('imaoc') },
  status: { value: sql.raw('status') },
  taksa: { value: sql.raw('taksa') },
  zaduzen: { text: sql.raw('zaduzen') },
  izvodjac: { text: sql.raw('izvodjac') },
};

/** The ORDER BY of a page: the chosen column in its direction (empty values last going up), then the default order. */
function ijoOrder(sorting: Sorting<SortKey<'ijoReport'>>): SQL {
  const key = sortKeyOf(IJO_SORTS, sorting);
  return key ? sql`${key.expression} ${key.direction}, ${IJO_DEFAULT_ORDER}` : IJO_DEFAULT_ORDER;
}

type IjoSqlRow = {
  ugovor: string;
  ugovor_id: string | null;
  ugovor_broj: string;
  klaster: string;
  cluster_id: string;
  imaoc: string;
  imaoc_id: string;
  status: boolean;
  taksa: string | null;
  zaduzen: Payer;
  izvodjac: string | null;
};
/** The answer's columns of `r` (the page's ORDER BY runs before: `taksa` as text here would sort as text). */
const IJO_COLUMNS = sql`ugovor, ugovor_id, ugovor_broj, klaster, cluster_id, imaoc, imaoc_id, status, taksa::text as taksa, zaduzen, izvodjac`;

/** A row of the answer, its fields in the order (and with the values) the report has always sent. */
function presentIjoRow(r: IjoSqlRow): IjoTaxRow {
  return {
    ugovor: r.ugovor,
    ugovorId: r.ugovor_id,
    ugovorBroj: r.ugovor_broj,
    klaster: r.klaster,
    klasterId: r.cluster_id,
    imaoc: r.imaoc,
    imaocId: r.imaoc_id,
    status: r.status,
    taksa: r.taksa === null ? null : Number(r.taksa),
    zaduzen: r.zaduzen,
    ...(r.zaduzen === 'Izvođač' ? { izvodjacNaziv: r.izvodjac ?? NO_CONTRACTOR } : {}),
  };
}

/** One row per holder on each A7 of the clusters `where` selects, in the report's default order (the snapshots). */
export async function ijoRowsOf(db: Executor, where: SQL): Promise<IjoTaxRow[]> {
  const result = await db.execute<IjoSqlRow>(
    sql`with ${ijoRowsCte(where, null)} select ${IJO_COLUMNS} from (select * from r order by ${IJO_DEFAULT_ORDER}) r`,
  );
  return result.rows.map(presentIjoRow);
}

/** The totals of spec 3 §3 from the sums per payer and contractor: by payer, per contractor (in the given order), in all. */
function totalsOf(sums: readonly { zaduzen: Payer; izvodjac: string | null; sum: number }[]): IjoTaxTotals {
  let narucilac = 0;
  let izvodjaci = 0;
  const byContractor: { naziv: string; sum: number }[] = [];
  for (const s of sums) {
    if (s.zaduzen === 'Naručilac') narucilac += s.sum;
    else {
      izvodjaci += s.sum;
      byContractor.push({ naziv: s.izvodjac ?? NO_CONTRACTOR, sum: round2(s.sum) });
    }
  }
  return { narucilacTotal: round2(narucilac), izvodjaciTotal: round2(izvodjaci), byContractor, totalTax: round2(narucilac + izvodjaci) };
}

/** The totals of spec 3 §3 over rows already built (a stored snapshot's): by payer, per contractor (by name), and in all. */
export function ijoTotals(rows: readonly IjoTaxRow[]): IjoTaxTotals {
  let narucilac = 0;
  let izvodjaci = 0;
  const byContractor = new Map<string, number>();
  for (const r of rows) {
    const fee = r.taksa ?? 0;
    if (r.zaduzen === 'Naručilac') narucilac += fee;
    else {
      izvodjaci += fee;
      const naziv = r.izvodjacNaziv ?? NO_CONTRACTOR;
      byContractor.set(naziv, (byContractor.get(naziv) ?? 0) + fee);
    }
  }
  return {
    narucilacTotal: round2(narucilac),
    izvodjaciTotal: round2(izvodjaci),
    byContractor: [...byContractor].map(([naziv, sum]) => ({ naziv, sum: round2(sum) })).sort((a, b) => serbianCompare(a.naziv, b.naziv)),
    totalTax: round2(narucilac + izvodjaci),
  };
}

export function filterIjoRows(rows: readonly IjoTaxRow[], contractId: string | null, payer: Payer | null): IjoTaxRow[] {
  return rows.filter((r) => (!contractId || r.ugovorId === contractId) && (!payer || r.zaduzen === payer));
}

/** The columns of `r` (ijoRowsCte) kept in ijo_report_rows (migration 0018). */
const KEPT_COLUMNS = sql.raw(
  'activity_id, cluster_id, klaster, ugovor_id, ugovor, ugovor_broj, imaoc_id, ord, imaoc, status, taksa, zaduzen, izvodjac',
);

/**
 * Brings ijo_report_rows up to date (migration 0018): when a change the rows depend on has bumped
 * report_cache_state.version past `built`, every row is computed again (ijoRowsCte over every cluster)
 * under the state row's lock. A writer bumps the version at its commit and so waits for a rebuild in
 * progress: the rebuild's statement sees a transaction's changes entirely or not at all, and one it
 * did not see leaves the version ahead for the next request. Answers the version the kept rows are
 * built for, after the database's epoch (the whole answers' cache keys on it, routes.ts), or null
 * without the state row (a database before the migration) or when they are stale in a read-only
 * transaction: the caller computes the rows itself.
 */
export async function ensureIjoRows(db: Executor): Promise<string | null> {
  type State = { version: string; built: string; epoch: string; ro?: boolean };
  const state = (
    await db.execute<State>(
      sql`select version::text, built::text, ${epochSql} as epoch, current_setting('transaction_read_only') = 'on' as ro
        from report_cache_state where name = 'ijo'`,
    )
  ).rows[0];
  if (!state) return null;
  // The version answered carries the database's epoch (platform/epoch.ts): a restore's may repeat an earlier one.
  if (state.version === state.built) return `${state.epoch}/${state.built}`;
  // Stale inside a read-only transaction (an export's snapshot): the caller computes the rows itself.
  if (state.ro) return null;
  return db.transaction(async (tx) => {
    const locked = (
      await tx.execute<State>(
        sql`select version::text, built::text, ${epochSql} as epoch from report_cache_state where name = 'ijo' for update`,
      )
    ).rows[0];
    if (!locked) return null;
    if (locked.version === locked.built) return `${locked.epoch}/${locked.built}`;
    await tx.execute(sql`delete from ijo_report_rows`);
    await tx.execute(sql`insert into ijo_report_rows (${KEPT_COLUMNS}) with ${ijoRowsCte(sql`true`, null)} select ${KEPT_COLUMNS} from r`);
    await tx.execute(sql`update report_cache_state set built = ${locked.version}::bigint where name = 'ijo'`);
    return `${locked.epoch}/${locked.version}`;
  });
}

/** The IJO rows of the clusters `clusterWhere` selects (a condition on `cluster_id`) and of the payer: kept ones, as `r`. */
function keptRowsCte(clusterWhere: SQL, payer: Payer | null): SQL {
  // Not materialized: the page reads ijo_report_rows_order_idx in the default order (5 ms against 16 for
  // a top-N sort of every row in trasa_sr), the totals scan the rows apart.
  return sql`r as not materialized (select * from ijo_report_rows where ${clusterWhere}${payer ? sql` and zaduzen = ${payer}` : sql``})`;
}

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
  const kept = (await ensureIjoRows(db)) !== null;
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

// ------------------------------------------------------------------------------------- route lengths

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
