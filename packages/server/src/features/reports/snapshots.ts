import { addDays, type IjoTaxRow, SNAPSHOT_TYPES, type SnapshotType } from '@trasa/domain';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { clusters, contractClusters, contracts } from '../../db/schema-clusters.js';
import { reportSnapshotRows, reportSnapshots } from '../../db/schema-reports.js';
import type { Db, Executor } from '../../platform/database.js';
import { appToday } from '../../platform/time.js';
import { finishedActivitiesOf, groupBy, ijoRowsOf, onTime } from './service.js';

export { compareDate, compareSnapshots, compareSnapshotsText, listSnapshots } from './snapshotCompare.js';

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
export type IjoData = { rows: IjoTaxRow[] };

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
