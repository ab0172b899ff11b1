import {
  ACTIVITY_STATUSES,
  type ActivityReport,
  type ActivityReportRow,
  checkedHolderIds,
  type DataItem,
  FINISHED,
  type FinishedActivity,
  type FinishedReport,
  type FinishedRow,
  holderIds,
  type IjoTaxReport,
  type IjoTaxRow,
  type IjoTaxTotals,
  type Payer,
  parseAmount,
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
import { badRequest, notFound } from '../../platform/errors.js';
import { orderOf, type SortMap } from '../../platform/sorting.js';
import { type ClusterScope, visibleClusterCondition } from '../clusters/policy.js';
import { clusterOrder } from '../clusters/presenter.js';
import { clusterMatchCondition } from '../clusters/search.js';
import { searchTerms } from '../search/service.js';

/**
 * The reports of spec 3 §2.7 / §7 (docs/api/reports.md). Every query is set-based (one statement per
 * report part, never one per cluster) and sees only the clusters of the caller's scope
 * (features/clusters/policy.ts: visibleClusterCondition).
 */

export type Paging = { page: number; limit: number };
const offsetOf = (p: Paging) => (p.page - 1) * p.limit;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const round2 = (n: number) => Math.round(n * 100) / 100;
/** One collator for every sort by name (localeCompare with a locale builds one per call: slow on thousands of rows). */
export const byName = new Intl.Collator('sr-Latn').compare;

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
  return rows.map((c) => ({ _id: c.id, naziv: c.naziv, broj: c.broj })).sort((a, b) => byName(a.naziv, b.naziv));
}

// ---------------------------------------------------------------------------------------------- summary

/**
 * GET /api/report/summary?contract: for each catalogue activity, how many visible clusters have it finished.
 * Counted per catalogue entry (a range of activities_code_status_idx each: an index-only scan once the
 * table is vacuumed), not by joining the catalogue to every finished activity (a scan of the whole table).
 * `${activityCatalogue}.code`, not `${activityCatalogue.code}`: drizzle leaves a one-table select's
 * columns unqualified, and a bare "code" in the subquery would be the activity's own.
 */
export async function summaryReport(db: Executor, scope: ClusterScope, contract: string | undefined): Promise<SummaryReport> {
  const contractId = contractFilter(contract);
  const rows = await db
    .select({
      kratakNaziv: activityCatalogue.code,
      naziv: activityCatalogue.naziv,
      count: sql<number>`(select count(*) from ${activities} a where a.code = ${activityCatalogue}.code and a.status = ${FINISHED}
        and ${visibleClusterCondition(scope, sql`a.cluster_id`)} and ${underContract(contractId, sql`a.cluster_id`)})::int`,
    })
    .from(activityCatalogue)
    .orderBy(asc(activityCatalogue.position));
  const [total] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(clusters)
    .where(and(visibleClusterCondition(scope), underContract(contractId)));
  return {
    summary: rows.map((r): SummaryRow => ({ kratakNaziv: r.kratakNaziv, naziv: r.naziv, count: r.count })),
    totalClusters: total?.n ?? 0,
  };
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

const hasFinished = sql`${clusters.id} in (select ${activities.clusterId} from ${activities} where ${activities.status} = ${FINISHED})`;

/** An activity's status in the order of progress (not started, in progress, finished), as the clusters list sorts it. */
const progressOf = (status: SQL | AnyPgColumn) =>
  sql`case ${status} ${sql.join(
    ACTIVITY_STATUSES.map((s, i) => sql`when ${s} then ${sql.raw(String(i))}`),
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
  const where = and(
    eq(activities.code, entry.code),
    visibleClusterCondition(scope, activities.clusterId),
    underContract(contractId),
    matchOf(input),
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
  const [total] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(activities)
    .innerJoin(clusters, eq(clusters.id, activities.clusterId))
    .where(where);
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

function dataItems(value: unknown): DataItem[] {
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

/**
 * The contractor of each cluster (the groups of its contractor contract, else its responsible groups of
 * type IZVODJAC; names joined), in two set-based queries over the given clusters.
 */
async function contractorsOf(db: Executor, clusterIds: string[]): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  if (clusterIds.length === 0) return out;
  // One array parameter, not one per cluster: drizzle builds a statement of thousands of parameters
  // slowly (about 150 ms for 3,000 ids, measured), and PostgreSQL parses it slowly too.
  const ids = `{${clusterIds.join(',')}}`;
  const byContract = await db
    .selectDistinct({ clusterId: contractClusters.clusterId, naziv: groups.naziv })
    .from(contractClusters)
    .innerJoin(contractGroups, eq(contractGroups.contractId, contractClusters.contractId))
    .innerJoin(groups, eq(groups.id, contractGroups.groupId))
    .where(and(eq(contractClusters.kind, 'contractIzv'), sql`${contractClusters.clusterId} = any(${ids}::uuid[])`));
  const responsible = await db
    .selectDistinct({ clusterId: clusterGroups.clusterId, naziv: groups.naziv })
    .from(clusterGroups)
    .innerJoin(groups, eq(groups.id, clusterGroups.groupId))
    .innerJoin(groupTypes, eq(groupTypes.id, groups.typeId))
    .where(and(eq(groupTypes.code, 'IZVODJAC'), sql`${clusterGroups.clusterId} = any(${ids}::uuid[])`));
  const join = (list: { naziv: string }[]) =>
    list
      .map((g) => g.naziv)
      .sort(byName)
      .join(', ');
  for (const [id, list] of groupBy(responsible, (r) => r.clusterId)) out.set(id, join(list));
  for (const [id, list] of groupBy(byContract, (r) => r.clusterId)) out.set(id, join(list));
  return out;
}

export const NO_CONTRACTOR = 'Nije određen';

/** One row per holder on each A7 of the clusters `where` selects, by cluster name then the holder list's order. */
export async function ijoRowsOf(db: Executor, where: SQL): Promise<IjoTaxRow[]> {
  const a7 = await db
    .select({
      clusterId: clusters.id,
      klaster: clusters.naziv,
      podaci: activities.podaci,
      contract: contractColumns,
    })
    .from(activities)
    .innerJoin(clusters, eq(clusters.id, activities.clusterId))
    .leftJoin(contractClusters, generalLink)
    .leftJoin(contracts, eq(contracts.id, contractClusters.contractId))
    .where(and(eq(activities.code, 'A7'), sql`${activities.podaci} @> '[{"key":"Ijos"}]'::jsonb`, where));
  // By cluster name (then id) here, not in SQL: PostgreSQL's ICU sort of a few thousand names took
  // most of this statement (240–310 ms with it, 73 ms without, 3,000 clusters, loaded machine); the
  // collator takes a few ms (the same sr-Latn order).
  a7.sort((x, y) => byName(x.klaster, y.klaster) || (x.clusterId < y.clusterId ? -1 : x.clusterId > y.clusterId ? 1 : 0));
  if (a7.length === 0) return [];
  const contractors = await contractorsOf(
    db,
    a7.map((a) => a.clusterId),
  );
  const holders = new Map(
    (await db.select({ id: ijoHolders.id, naziv: ijoHolders.naziv, odgovoran: ijoHolders.odgovoran }).from(ijoHolders)).map((h) => [
      h.id,
      h,
    ]),
  );
  const rows: IjoTaxRow[] = [];
  for (const a of a7) {
    const podaci = dataItems(a.podaci);
    const checked = new Set(checkedHolderIds(podaci));
    for (const id of holderIds(podaci)) {
      const holder = holders.get(id);
      const feeItem = podaci.find((p) => p.key === 'A7Taksa' && p.ref === id);
      const zaduzen: Payer = holder?.odgovoran === 'Naručilac' ? 'Naručilac' : 'Izvođač';
      rows.push({
        ugovor: a.contract?.naziv ?? '',
        ugovorId: a.contract?.id ?? null,
        ugovorBroj: a.contract?.broj ?? '',
        klaster: a.klaster,
        klasterId: a.clusterId,
        imaoc: holder?.naziv ?? (feeItem?.naziv || id),
        imaocId: id,
        status: checked.has(id),
        taksa: parseAmount(feeItem?.vrednost ?? null),
        zaduzen,
        ...(zaduzen === 'Izvođač' ? { izvodjacNaziv: contractors.get(a.clusterId) || NO_CONTRACTOR } : {}),
      });
    }
  }
  return rows;
}

/** The totals of spec 3 §3 over the given rows: by payer, per contractor (by name), and in all. */
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
    byContractor: [...byContractor].map(([naziv, sum]) => ({ naziv, sum: round2(sum) })).sort((a, b) => byName(a.naziv, b.naziv)),
    totalTax: round2(narucilac + izvodjaci),
  };
}

export function filterIjoRows(rows: readonly IjoTaxRow[], contractId: string | null, payer: Payer | null): IjoTaxRow[] {
  return rows.filter((r) => (!contractId || r.ugovorId === contractId) && (!payer || r.zaduzen === payer));
}

type IjoKey = string | number | boolean | null;
/** `sort` of the IJO fees report (LIST_SORTS.ijoReport), over its rows (built whole: every filtered row is summed anyway). */
const IJO_SORTS: Record<SortKey<'ijoReport'>, { text: (r: IjoTaxRow) => string | null } | { value: (r: IjoTaxRow) => IjoKey }> = {
  ugovor: { text: (r) => r.ugovor },
  klaster: { text: (r) => r.klaster },
  imaoc: { text: (r) => r.imaoc },
  status: { value: (r) => r.status },
  taksa: { value: (r) => r.taksa },
  zaduzen: { text: (r) => r.zaduzen },
  izvodjac: { text: (r) => r.izvodjacNaziv ?? null },
};

/**
 * The rows in the chosen column's order (text in the Serbian alphabet's, like trasa_sr; empty values
 * last going up, first going down, as PostgreSQL orders them); equal rows keep the default order (a
 * stable sort), so pages never overlap.
 */
export function sortIjoRows(rows: readonly IjoTaxRow[], sorting: Sorting<SortKey<'ijoReport'>>): IjoTaxRow[] {
  const entry = sorting.sort ? IJO_SORTS[sorting.sort] : undefined;
  if (!entry) return [...rows];
  const sign = sorting.order === 'desc' ? -1 : 1;
  const keyOf = 'text' in entry ? entry.text : entry.value;
  const compare = (a: IjoKey, b: IjoKey): number => {
    if (a === null || b === null) return a === b ? 0 : a === null ? 1 : -1;
    if (typeof a === 'string' && typeof b === 'string') return byName(a, b);
    return Number(a) - Number(b);
  };
  return [...rows].sort((x, y) => sign * compare(keyOf(x), keyOf(y)));
}

/** GET /api/report/ijo-takse?contract&payer[&page&limit][&sort&order]: rows of the page, totals of every filtered row. */
export async function ijoTaxReport(
  db: Executor,
  scope: ClusterScope,
  input: { contract?: string; payer?: string } & Paging & Sorting<SortKey<'ijoReport'>>,
): Promise<IjoTaxReport> {
  const contractId = contractFilter(input.contract);
  const payer = payerFilter(input.payer);
  const all = filterIjoRows(
    await ijoRowsOf(db, and(visibleClusterCondition(scope, activities.clusterId), underContract(contractId)) as SQL),
    contractId,
    payer,
  );
  const start = offsetOf(input);
  const sorted = sortIjoRows(all, input);
  return { rows: sorted.slice(start, start + input.limit), totalResults: all.length, ...ijoTotals(all) };
}

// ------------------------------------------------------------------------------------- route lengths

const lengthValue = (ref: SQL | null) => sql<string | null>`(select e->>'vrednost' from jsonb_array_elements(${activities.podaci}) e
  where e->>'key' = 'DuzinaTrase' and ${ref ? sql`e->>'ref' = ${ref}` : sql`coalesce(e->>'ref', '') = ''`} limit 1)`;
const numeric = (v: SQL) => sql`case when ${v} ~ '^-?[0-9]+(\\.[0-9]+)?$' then (${v})::numeric end`;

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
