import {
  addDays,
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
import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import { activityCatalogue } from '../../db/schema-activities.js';
import { clusters, contractClusters, contracts } from '../../db/schema-clusters.js';
import { reportSnapshotRows, reportSnapshots } from '../../db/schema-reports.js';
import type { Db, Executor } from '../../platform/database.js';
import { epochSql } from '../../platform/epoch.js';
import { badRequest } from '../../platform/errors.js';
import { serbianCompare } from '../../platform/sorting.js';
import { appToday } from '../../platform/time.js';
import { type ClusterScope, visibleClusterCondition } from '../clusters/policy.js';
import { filterIjoRows, finishedActivitiesOf, groupBy, ijoRowsOf, ijoTotals, onTime } from './service.js';

/**
 * Report snapshots (server-behaviour.md "Reports and snapshots"; docs/api/reports.md): for a date and
 * each comparable report (finishedReport, summaryReport, ijoTaxesReport) the rows per cluster, so a
 * comparison shows only the caller's visible clusters.
 *
 * A snapshot of date D holds the state at the end of D: the activities finished on or before D (their
 * finish dates make that exact also when it is taken later, or backfilled), and the A7 holder entries
 * as they are when it is taken (fees and marks have no history). The nightly job stores the day that
 * just ended; several instances store it once (a transaction-level advisory lock, and unique (date, type)).
 */

/** Data of one cluster in each snapshot type (jsonb). */
type FinishedData = {
  klaster: string;
  ugovor: string;
  ugovorId: string | null;
  zavrsene: { kratakNaziv: string; datumZavrsetka: string | null; rokZavrsetka: string | null }[];
  /**
   * The comparison's figures, counted when the snapshot is taken (snapshots stored before have none:
   * the comparison counts theirs from zavrsene). Counting them from the jsonb at every comparison took
   * most of its statement (two sides of 3,000 clusters).
   */
  zavrseno?: number;
  uRoku?: number;
  aktivnosti?: string;
};
type SummaryData = { ugovorId: string | null; codes: string[] };
type IjoData = { rows: IjoTaxRow[] };

const LOCK = 'trasa:report-snapshots';

type ClusterInfo = { id: string; naziv: string; ugovor: string; ugovorId: string | null };

async function clusterInfo(db: Executor, ids: string[]): Promise<Map<string, ClusterInfo>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ id: clusters.id, naziv: clusters.naziv, ugovor: contracts.naziv, ugovorId: contracts.id })
    .from(clusters)
    .leftJoin(contractClusters, and(eq(contractClusters.clusterId, clusters.id), eq(contractClusters.kind, 'contract')))
    .leftJoin(contracts, eq(contracts.id, contractClusters.contractId))
    .where(inArray(clusters.id, ids));
  return new Map(rows.map((r) => [r.id, { id: r.id, naziv: r.naziv, ugovor: r.ugovor ?? '', ugovorId: r.ugovorId }]));
}

/** A small deterministic generator (randomize): the same seed perturbs the same way. */
function random(seed: string): () => number {
  let h = 2166136261;
  for (const c of seed) h = Math.imul(h ^ c.charCodeAt(0), 16777619);
  return () => {
    h = Math.imul(h ^ (h >>> 15), 2246822507);
    h = Math.imul(h ^ (h >>> 13), 3266489909);
    h ^= h >>> 16;
    return (h >>> 0) / 4294967296;
  };
}

export type Collected = Record<SnapshotType, { clusterId: string; data: unknown }[]>;

/**
 * Every cluster's part of the three reports at the end of `date`. `randomize` perturbs them for
 * demonstration (some of a cluster's latest finished activities left out, fees moved by up to ±30 %,
 * some marks flipped), the same way for the same date.
 */
export async function collectSnapshot(db: Executor, date: string, randomize = false): Promise<Collected> {
  const finished = await finishedActivitiesOf(db, sql`true`, date);
  const byCluster = groupBy(finished, (a) => a.clusterId);
  const info = await clusterInfo(db, [...byCluster.keys()]);
  const rnd = random(`snapshot:${date}`);
  const finishedRows: Collected['finishedReport'] = [];
  const summaryRows: Collected['summaryReport'] = [];
  for (const [clusterId, list] of byCluster) {
    const c = info.get(clusterId);
    if (!c) continue;
    let kept = list;
    if (randomize && rnd() < 0.5) kept = list.slice(0, Math.max(0, list.length - 1 - Math.floor(rnd() * 3)));
    if (kept.length === 0) continue;
    const zavrsene = kept.map((a) => ({
      kratakNaziv: a.code,
      datumZavrsetka: a.datumZavrsetka,
      rokZavrsetka: randomize && rnd() < 0.1 && a.datumZavrsetka ? addDays(a.datumZavrsetka, -1) : a.rokZavrsetka,
    }));
    const counted = {
      zavrseno: zavrsene.length,
      uRoku: zavrsene.filter((z) => onTime(z.datumZavrsetka, z.rokZavrsetka)).length,
      aktivnosti: zavrsene.map((z) => z.kratakNaziv).join(', '),
    };
    finishedRows.push({
      clusterId,
      data: { klaster: c.naziv, ugovor: c.ugovor, ugovorId: c.ugovorId, zavrsene, ...counted } satisfies FinishedData,
    });
    summaryRows.push({ clusterId, data: { ugovorId: c.ugovorId, codes: zavrsene.map((z) => z.kratakNaziv) } satisfies SummaryData });
  }
  const ijo = await ijoRowsOf(db, sql`true`);
  const ijoRows: Collected['ijoTaxesReport'] = [];
  for (const [clusterId, rows] of groupBy(ijo, (r) => r.klasterId)) {
    const data = randomize
      ? rows.map((r) => ({
          ...r,
          taksa: r.taksa === null ? null : Math.round(r.taksa * (0.7 + rnd() * 0.6) * 100) / 100,
          status: rnd() < 0.2 ? !r.status : r.status,
        }))
      : rows;
    ijoRows.push({ clusterId, data: { rows: data } satisfies IjoData });
  }
  return { finishedReport: finishedRows, summaryReport: summaryRows, ijoTaxesReport: ijoRows };
}

/** Stores the date's snapshots (replacing stored ones when `replace`); answers whether any was there. */
async function storeSnapshot(tx: Executor, date: string, collected: Collected, opts: { replace: boolean; randomized: boolean }) {
  let existed = false;
  for (const type of SNAPSHOT_TYPES) {
    const [old] = await tx
      .select({ id: reportSnapshots.id })
      .from(reportSnapshots)
      .where(and(eq(reportSnapshots.date, date), eq(reportSnapshots.type, type)));
    if (old) {
      existed = true;
      if (!opts.replace) continue;
      await tx.delete(reportSnapshots).where(eq(reportSnapshots.id, old.id));
    }
    const [created] = await tx
      .insert(reportSnapshots)
      .values({ date, type, randomized: opts.randomized })
      .onConflictDoNothing()
      .returning({ id: reportSnapshots.id });
    if (!created) continue;
    const rows = collected[type];
    for (let i = 0; i < rows.length; i += 1000) {
      await tx
        .insert(reportSnapshotRows)
        .values(rows.slice(i, i + 1000).map((r) => ({ snapshotId: created.id, clusterId: r.clusterId, data: r.data })));
    }
  }
  return existed;
}

/**
 * POST /api/report/backfill-snapshots: the snapshots of the last `days` days (today and the days
 * before), replacing stored ones; newest first.
 */
export async function backfillSnapshots(db: Db, days: number, randomize: boolean, today = appToday()) {
  const results: { date: string; status: 'created' | 'updated' }[] = [];
  await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${LOCK}))`);
    for (let i = 0; i < days; i++) {
      const date = addDays(today, -i);
      const existed = await storeSnapshot(tx, date, await collectSnapshot(tx, date, randomize), { replace: true, randomized: randomize });
      results.push({ date, status: existed ? 'updated' : 'created' });
    }
  });
  return results;
}

/** POST /api/report/clear-snapshots: every snapshot; answers how many (date, type) snapshots went. */
export async function clearSnapshots(db: Db): Promise<number> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${LOCK}))`);
    const deleted = await tx.delete(reportSnapshots).returning({ id: reportSnapshots.id });
    return deleted.length;
  });
}

/**
 * The nightly snapshot: the day before `today`, unless stored already. Another instance holding the
 * lock is storing it: this one skips. Answers whether it stored one.
 */
export async function takeNightlySnapshot(db: Db, today = appToday()): Promise<boolean> {
  const date = addDays(today, -1);
  return db.transaction(async (tx) => {
    const got = await tx.execute<{ ok: boolean }>(sql`select pg_try_advisory_xact_lock(hashtext(${LOCK})) as ok`);
    if (!got.rows[0]?.ok) return false;
    const stored = await tx.select({ type: reportSnapshots.type }).from(reportSnapshots).where(eq(reportSnapshots.date, date));
    if (stored.length === SNAPSHOT_TYPES.length) return false;
    await storeSnapshot(tx, date, await collectSnapshot(tx, date), { replace: false, randomized: false });
    return true;
  });
}

export type JobLog = { info: (msg: string) => void; error: (obj: unknown, msg: string) => void };

/**
 * Starts the nightly job in this process: a check shortly after the start and then every 10 minutes;
 * the day that ended is stored at the first check after midnight (also after a downtime). Answers the stop.
 */
export function startSnapshotJob(db: Db, log: JobLog, everyMs = 10 * 60 * 1000): () => void {
  let running = false;
  const tick = async () => {
    if (running) return;
    running = true;
    try {
      if (await takeNightlySnapshot(db)) log.info('report snapshots stored for yesterday');
    } catch (err) {
      log.error({ err }, 'report snapshots failed');
    } finally {
      running = false;
    }
  };
  const first = setTimeout(() => void tick(), 30_000);
  const timer = setInterval(() => void tick(), everyMs);
  first.unref();
  timer.unref();
  return () => {
    clearTimeout(first);
    clearInterval(timer);
  };
}

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

/**
 * The data version of a comparison, for the whole answers' cache (routes.ts, platform/answerCache.ts),
 * in one cheap statement: the two dates' snapshots of the type (id and time taken: a snapshot's rows
 * never change, a backfill replaces the snapshot by a new one, a clear deletes it); for a limited scope
 * also the version of report_cache_state 'ijo', which every change of the visibility links (cluster_groups,
 * contract_clusters, contract_groups; a removed cluster's links go with it) moves (migration 0018's
 * triggers); for the summary also the catalogue it lists (36 rows: codes, order and names hashed); and
 * the database's epoch (platform/epoch.ts: a restore's versions may repeat earlier ones). Null without
 * the state row.
 */
export async function compareVersion(db: Executor, scope: ClusterScope, type: SnapshotType, dateA: string, dateB: string) {
  const links = scope.all ? sql`''` : sql`(select version::text from report_cache_state where name = 'ijo')`;
  const catalogue =
    type === 'summaryReport'
      ? sql`(select md5(coalesce(string_agg(code || ':' || position || ':' || naziv, '|' order by code), '')) from ${activityCatalogue})`
      : sql`''`;
  const [row] = (
    await db.execute<{
      version: string | null;
    }>(sql`select coalesce((select string_agg(id::text || '@' || created_at::text, ',' order by date, id)
      from ${reportSnapshots} where type = ${type} and date in (${dateA}::date, ${dateB}::date)), '')
      || '|' || ${links} || '|' || ${catalogue} || '|' || ${epochSql} as version`)
  ).rows;
  return row?.version ?? null;
}
