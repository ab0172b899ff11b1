import { Readable } from 'node:stream';
import { A20_TEST_TYPES, DATA_KEYS, DATE_CODES, type DataItem, FINISHED, holderIds, IN_PROGRESS, NOT_STARTED } from '@trasa/domain';
import { asc, eq } from 'drizzle-orm';
import { activities, activityCatalogue, ijoHolders } from '../db/schema-activities.js';
import { saveActivityData } from '../features/activities/data.js';
import { type ActivityOptions, type Performer, SYSTEM } from '../features/activities/policy.js';
import { finishActivity, resolveControl, startActivity } from '../features/activities/service.js';
import { clusterSettlementsOf, podaciOf } from '../features/activities/workflow.js';
import { addActivityFiles, type FileDeps } from '../features/files/service.js';
import { appToday } from '../platform/time.js';
import { minimalPdf } from './demoContracts.js';

/**
 * Drives a cluster's workflow forward as the system, filling in what each activity needs (a date, a
 * number, the A3 outcome, A6.1's holders, A7's marks and fees, a PDF per required file) and finishing
 * it or accepting it, in catalogue order, until `until` is finished or nothing is in progress. For the
 * demo seed and tests: the same service functions and rules as the HTTP API, at `today`.
 */
export type DriveOptions = ActivityOptions & {
  /** Stop once this code is finished (default: the whole catalogue). */
  until?: string;
  /** Holders A6.1 names (default: the first two holders by name). */
  holderIds?: string[];
  /** Who acts (default the system). */
  as?: Performer;
};

async function storePdf(deps: FileDeps, name: string) {
  const content = minimalPdf([name, 'Trasa']);
  return deps.store.save(Readable.from([content]), name, { maxBytes: content.length + 1 });
}

async function attach(
  deps: FileDeps,
  p: Performer,
  activityId: string,
  name: string,
  userInput: string | undefined,
  opts: ActivityOptions,
) {
  await addActivityFiles(deps, p, activityId, [await storePdf(deps, name)], { userInput, isRequired: true }, opts);
}

/** Fills in what `code` needs to be finished or accepted (nothing more). */
async function fill(deps: FileDeps, p: Performer, row: typeof activities.$inferSelect, brojFajlova: number, opts: DriveOptions) {
  const code = row.code;
  const today = opts.today;
  const date = { key: DATA_KEYS.date, naziv: 'Datum', vrednost: today ?? appToday() };
  const save = (podaci: DataItem[]) => saveActivityData(deps, p, row.id, podaci, opts);
  if ((DATE_CODES as readonly string[]).includes(code) || code === 'A5.1' || code === 'A10.1') await save([date]);
  if (code === 'A17' || code === 'A26.1' || code === 'A27.1') await save([{ key: DATA_KEYS.number, naziv: '', vrednost: '1' }]);
  if (code === 'A3') await save([{ key: DATA_KEYS.yesNo, naziv: '', vrednost: 'Dobijena IOL' }]);
  if (code === 'A1') {
    for (const s of await clusterSettlementsOf(deps.db, row.clusterId)) await attach(deps, p, row.id, `Trasa ${s.naziv}.pdf`, s._id, opts);
    return;
  }
  if (code === 'A5.1') await attach(deps, p, row.id, 'Lokacijski uslovi.pdf', undefined, opts);
  if (code === 'A6.1') {
    const ids =
      opts.holderIds ??
      (await deps.db.select({ id: ijoHolders.id }).from(ijoHolders).orderBy(asc(ijoHolders.naziv)).limit(2)).map((h) => h.id);
    if (ids.length > 0) await save([{ key: DATA_KEYS.holders, naziv: 'IJO', vrednost: ids.join(',') }]);
    else await attach(deps, p, row.id, 'Bez IJO.pdf', undefined, opts);
    return;
  }
  if (code === 'A7') {
    const [fresh] = await deps.db.select().from(activities).where(eq(activities.id, row.id));
    const ids = holderIds(podaciOf(fresh ?? row));
    if (ids.length === 0) return;
    await save([
      { key: DATA_KEYS.a7Checked, naziv: '', vrednost: ids.join(',') },
      ...ids.map((id) => ({ key: DATA_KEYS.a7Fee, naziv: '', vrednost: '0', ref: id })),
    ]);
    for (const id of ids) await attach(deps, p, row.id, 'Uslovi IJO.pdf', id, opts);
    return;
  }
  if (code === 'A20') {
    for (const [i, type] of A20_TEST_TYPES.entries()) await attach(deps, p, row.id, `${type}.pdf`, String(i + 1), opts);
    return;
  }
  for (let i = 0; i < brojFajlova; i++) await attach(deps, p, row.id, `${code} dokument ${i + 1}.pdf`, undefined, opts);
}

/** Runs the cluster's workflow forward (see DriveOptions); answers the codes it finished, in order. */
export async function driveCluster(deps: FileDeps, clusterId: string, opts: DriveOptions = {}): Promise<string[]> {
  const p = opts.as ?? SYSTEM;
  const done: string[] = [];
  const load = () =>
    deps.db
      .select({ row: activities, kontrolna: activityCatalogue.kontrolna, brojFajlova: activityCatalogue.brojFajlova })
      .from(activities)
      .innerJoin(activityCatalogue, eq(activityCatalogue.code, activities.code))
      .where(eq(activities.clusterId, clusterId))
      .orderBy(asc(activities.position));
  let rows = await load();
  const a1 = rows.find((r) => r.row.code === 'A1');
  if (a1?.row.status === NOT_STARTED) await startActivity(deps, p, a1.row.id, opts);
  for (;;) {
    rows = await load();
    if (opts.until && rows.find((r) => r.row.code === opts.until)?.row.status === FINISHED) return done;
    const next = rows.find((r) => r.row.status === IN_PROGRESS);
    if (!next) return done;
    await fill(deps, p, next.row, next.brojFajlova, opts);
    if (next.kontrolna) await resolveControl(deps, p, next.row.id, false, opts);
    else await finishActivity(deps, p, next.row.id, opts);
    done.push(next.row.code);
  }
}
