import {
  type CompareReport,
  type CompareResponse,
  type FinishedCompareRow,
  type IjoTaxRow,
  type Payer,
  REPORTS,
  SNAPSHOT_TYPES,
  type SnapshotList,
  type SnapshotMeta,
  type SnapshotType,
} from '@trasa/domain';
import { and, asc, desc, eq, sql } from 'drizzle-orm';
import { activityCatalogue } from '../../db/schema-activities.js';
import { reportSnapshotRows, reportSnapshots } from '../../db/schema-reports.js';
import type { Executor } from '../../platform/database.js';
import { badRequest } from '../../platform/errors.js';
import { serbianCompare } from '../../platform/sorting.js';
import { type ClusterScope, visibleClusterCondition } from '../clusters/policy.js';
import { filterIjoRows, groupBy, ijoTotals } from './service.js';
import type { IjoData } from './snapshots.js';

/**
 * The comparison of two dates' snapshots of a report (GET /api/report/compare, as objects and as text) and
 * the dates there are. Its answers are kept under the 'snapshots', 'visibility' and 'catalogue' versions
 * (platform/kept kind 'comparison', routes.ts).
 */
// ----------------------------------------------------------------------------------------- compare

/** A compare date: DD.MM.YYYY or YYYY-MM-DD, a real date, not after today (400 otherwise). */
export function compareDate(value: string | undefined, field: string, parse: (v: string) => string | null, today: string): string {
  const date = parse(value ?? '');
  if (!date) throw badRequest(REPORTS.invalidDate, { [field]: REPORTS.invalidDate });
  if (date > today) throw badRequest(REPORTS.futureDate, { [field]: REPORTS.futureDate });
  return date;
}

const sortSr = serbianCompare;

async function loadSide(
  db: Executor,
  scope: ClusterScope,
  type: SnapshotType,
  date: string,
  filters: { contractId: string | null; payer: Payer | null },
): Promise<{ report: CompareReport; meta: SnapshotMeta } | null> {
  const [snap] = await db
    .select()
    .from(reportSnapshots)
    .where(and(eq(reportSnapshots.date, date), eq(reportSnapshots.type, type)));
  if (!snap) return null;
  const mine = and(eq(reportSnapshotRows.snapshotId, snap.id), visibleClusterCondition(scope, reportSnapshotRows.clusterId));
  const meta: SnapshotMeta = { date: snap.date, createdAt: snap.createdAt.toISOString(), randomized: snap.randomized };
  if (type === 'finishedReport') {
    // Counted when the snapshot was taken (FinishedData), else in SQL: the activities' dates stay in the
    // database (a tenth of the bytes to the server).
    const d = reportSnapshotRows.data;
    const list: FinishedCompareRow[] = (
      await db
        .select({
          _id: reportSnapshotRows.clusterId,
          klaster: sql<string>`${d}->>'klaster'`,
          ugovor: sql<string>`coalesce(${d}->>'ugovor', '')`,
          zavrseno: sql<number>`coalesce((${d}->>'zavrseno')::int, jsonb_array_length(${d}->'zavrsene'))`,
          uRoku: sql<number>`coalesce((${d}->>'uRoku')::int, (select count(*) from jsonb_array_elements(${d}->'zavrsene') z
            where z->>'rokZavrsetka' is null or z->>'datumZavrsetka' is null or z->>'datumZavrsetka' <= z->>'rokZavrsetka')::int)`,
          aktivnosti: sql<string>`coalesce(${d}->>'aktivnosti', (select string_agg(z.e->>'kratakNaziv', ', ' order by z.n)
            from jsonb_array_elements(${d}->'zavrsene') with ordinality z(e, n)), '')`,
        })
        .from(reportSnapshotRows)
        .where(and(mine, filters.contractId ? sql`${d}->>'ugovorId' = ${filters.contractId}` : undefined))
    )
      .map((r) => ({ ...r, kasni: r.zavrseno - r.uRoku }))
      .sort((a, b) => sortSr(a.klaster, b.klaster) || (a._id < b._id ? -1 : 1));
    return { report: { type, rows: list }, meta };
  }
  if (type === 'summaryReport') {
    // Counted in SQL: each visible cluster's finished codes, per code (not every row's jsonb to the server).
    const d = reportSnapshotRows.data;
    const counted = await db
      .select({ code: sql<string>`k.code`, n: sql<number>`count(*)::int` })
      .from(reportSnapshotRows)
      .innerJoin(sql`jsonb_array_elements_text(${d}->'codes') as k(code)`, sql`true`)
      .where(and(mine, filters.contractId ? sql`${d}->>'ugovorId' = ${filters.contractId}` : undefined))
      .groupBy(sql`k.code`);
    const counts = new Map(counted.map((c) => [c.code, c.n]));
    const catalogue = await db
      .select({ code: activityCatalogue.code, naziv: activityCatalogue.naziv })
      .from(activityCatalogue)
      .orderBy(asc(activityCatalogue.position));
    return {
      report: { type, rows: catalogue.map((c) => ({ kratakNaziv: c.code, naziv: c.naziv, count: counts.get(c.code) ?? 0 })) },
      meta,
    };
  }
  const rows = await db
    .select({ clusterId: reportSnapshotRows.clusterId, data: reportSnapshotRows.data })
    .from(reportSnapshotRows)
    .where(mine);
  // Sorted by cluster (name, then id), each cluster's rows in their stored order: the same order as
  // sorting every row by cluster (a stable sort), with a sort of the clusters alone.
  const all = rows
    .map((r) => (r.data as IjoData).rows)
    .filter((list) => list.length > 0)
    .sort((a, b) => {
      const x = a[0] as IjoTaxRow;
      const y = b[0] as IjoTaxRow;
      return sortSr(x.klaster, y.klaster) || (x.klasterId < y.klasterId ? -1 : x.klasterId > y.klasterId ? 1 : 0);
    })
    .flat();
  const filtered = filterIjoRows(all, filters.contractId, filters.payer);
  return { report: { type: 'ijoTaxesReport', rows: filtered, ...ijoTotals(filtered) }, meta };
}

/** GET /api/report/compare: both dates' snapshots of the report, each limited to the visible clusters. */
export async function compareSnapshots(
  db: Executor,
  scope: ClusterScope,
  input: { type: SnapshotType; dateA: string; dateB: string; contractId: string | null; payer: Payer | null },
): Promise<CompareResponse> {
  const filters = { contractId: input.contractId, payer: input.payer };
  const [a, b] = [await loadSide(db, scope, input.type, input.dateA, filters), await loadSide(db, scope, input.type, input.dateB, filters)];
  return { reportA: a?.report ?? null, reportB: b?.report ?? null, metaA: a?.meta ?? null, metaB: b?.meta ?? null };
}

/** GET /api/report/snapshots: the dates with snapshots, newest first (at most 366). */
export async function listSnapshots(db: Executor, mozeUpravljati: boolean): Promise<SnapshotList> {
  const rows = await db
    .select({ date: reportSnapshots.date, type: reportSnapshots.type })
    .from(reportSnapshots)
    .orderBy(desc(reportSnapshots.date), asc(reportSnapshots.type))
    .limit(366 * SNAPSHOT_TYPES.length);
  const byDate = groupBy(rows, (r) => r.date);
  return { mozeUpravljati, snimci: [...byDate].map(([date, list]) => ({ date, types: list.map((l) => l.type as SnapshotType) })) };
}

// ------------------------------------------------------------------------------- compare, as text

/**
 * One side of the comparison as the JSON text of its CompareReport, built in SQL from the stored
 * jsonb: the same rows, order and figures as loadSide (compare.test.ts checks them cell by cell), but
 * the megabytes of rows go from PostgreSQL to the client as one text, never parsed and serialised
 * again in the server (the finished and IJO comparisons spent 37–51 ms of Node CPU a request on it).
 */
async function sideText(
  db: Executor,
  scope: ClusterScope,
  type: SnapshotType,
  date: string,
  filters: { contractId: string | null; payer: Payer | null },
): Promise<{ report: string; meta: SnapshotMeta } | null> {
  const [snap] = await db
    .select()
    .from(reportSnapshots)
    .where(and(eq(reportSnapshots.date, date), eq(reportSnapshots.type, type)));
  if (!snap) return null;
  const meta: SnapshotMeta = { date: snap.date, createdAt: snap.createdAt.toISOString(), randomized: snap.randomized };
  const mine = sql`s.snapshot_id = ${snap.id} and ${visibleClusterCondition(scope, sql`s.cluster_id`)}`;
  const ofContract = filters.contractId ? sql` and s.data->>'ugovorId' = ${filters.contractId}` : sql``;
  if (type === 'finishedReport') {
    // loadSide's figures (kept with the row, else counted from its activities), ordered as it sorts them.
    const [row] = (
      await db.execute<{
        rows: string;
      }>(sql`select coalesce(json_agg(json_build_object('_id', f._id, 'klaster', f.klaster, 'ugovor', f.ugovor,
        'zavrseno', f.zavrseno, 'uRoku', f.u_roku, 'aktivnosti', f.aktivnosti, 'kasni', f.zavrseno - f.u_roku)
        order by f.klaster collate trasa_sr, f._id::text collate "C"), '[]')::text as rows
      from (select s.cluster_id as _id, s.data->>'klaster' as klaster, coalesce(s.data->>'ugovor', '') as ugovor,
          coalesce((s.data->>'zavrseno')::int, jsonb_array_length(s.data->'zavrsene')) as zavrseno,
          coalesce((s.data->>'uRoku')::int, (select count(*) from jsonb_array_elements(s.data->'zavrsene') z
            where z->>'rokZavrsetka' is null or z->>'datumZavrsetka' is null or z->>'datumZavrsetka' <= z->>'rokZavrsetka')::int) as u_roku,
          coalesce(s.data->>'aktivnosti', (select string_agg(z.e->>'kratakNaziv', ', ' order by z.n)
            from jsonb_array_elements(s.data->'zavrsene') with ordinality z(e, n)), '') as aktivnosti
        from report_snapshot_rows s where ${mine}${ofContract}) f`)
    ).rows;
    return { report: `{"type":"finishedReport","rows":${row?.rows ?? '[]'}}`, meta };
  }
  if (type === 'summaryReport') {
    const [row] = (
      await db.execute<{ rows: string }>(sql`with counted as (select k.code, count(*)::int as n
          from report_snapshot_rows s cross join jsonb_array_elements_text(s.data->'codes') k(code) where ${mine}${ofContract} group by k.code)
        select coalesce(json_agg(json_build_object('kratakNaziv', c.code, 'naziv', c.naziv, 'count', coalesce(counted.n, 0))
          order by c.position), '[]')::text as rows
        from ${activityCatalogue} c left join counted on counted.code = c.code`)
    ).rows;
    return { report: `{"type":"summaryReport","rows":${row?.rows ?? '[]'}}`, meta };
  }
  // IJO: built in SQL it cost more than in the server (PostgreSQL 160–435 ms against 35 ms a request at
  // load 12–18, the rows' jsonb taken apart and put together again): the caller serialises loadSide's.
  throw new Error('sideText: ijoTaxesReport is built by loadSide');
}

/**
 * GET /api/report/compare as the answer's JSON text (sideText): what compareSnapshots answers, built in
 * SQL. compareSnapshots stays for the comparison's export (features/exports) and as the tests' reference.
 */
export async function compareSnapshotsText(
  db: Executor,
  scope: ClusterScope,
  input: { type: SnapshotType; dateA: string; dateB: string; contractId: string | null; payer: Payer | null },
): Promise<string> {
  if (input.type === 'ijoTaxesReport') return JSON.stringify(await compareSnapshots(db, scope, input));
  const filters = { contractId: input.contractId, payer: input.payer };
  const a = await sideText(db, scope, input.type, input.dateA, filters);
  const b = await sideText(db, scope, input.type, input.dateB, filters);
  const meta = (m: SnapshotMeta | undefined) => (m ? JSON.stringify(m) : 'null');
  return `{"reportA":${a?.report ?? 'null'},"reportB":${b?.report ?? 'null'},"metaA":${meta(a?.meta)},"metaB":${meta(b?.meta)}}`;
}
