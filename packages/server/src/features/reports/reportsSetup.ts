import { addDays, FINISHED } from '@trasa/domain';
import { and, eq, inArray } from 'drizzle-orm';
import { beforeAll, expect } from 'vitest';
import { type TestApp, useTestApp } from '../../../test/harness.js';
import { activities } from '../../db/schema-activities.js';
import { appToday } from '../../platform/time.js';
import { driveCluster } from '../../seed/drive.js';
import {
  createCluster,
  createContract,
  createGroup,
  createSettlement,
  createUser,
  linkClusterToContract,
  tokenFor,
} from '../../seed/factories.js';
import { activityFileStore } from '../../shared/activityFileStore.js';
import { saveActivityData } from '../activities/data.js';
import { SYSTEM } from '../activities/policy.js';
import { startActivity } from '../activities/service.js';
import { createHolder } from '../activities/testing.js';

/**
 * What the reports tests share (reports.*.test.ts): four clusters with their activities, contracts,
 * contractors and IJO holders, the tokens of each caller, and the expected reports computed from the rows.
 */

/**
 * The reports of spec 3 §2.7 / §7 on a dataset built here: four clusters driven through the workflow to
 * different stages at past dates, A7 holders with fees, A1 and A9 route lengths. Every expected figure is
 * computed in the test by plain loops over what it put in (or over the activity rows), never by the
 * reports' queries; and every report holds only the caller's visible clusters.
 */
/** The running test file's app (set by its set-up: the modules are shared between a worker's files). */
export let t: TestApp;
export const today = appToday();
export const D = (n: number) => addDays(today, -n);

type Cluster = { id: string; naziv: string };
export let C1: Cluster;
export let C2: Cluster;
export let C3: Cluster;
export let C4: Cluster;
export let K1: { id: string; naziv: string; kind: string };
export let izvA: { id: string; naziv: string };
export let izvB: { id: string; naziv: string };
export let H: Record<'H1' | 'H2' | 'H3', { id: string; naziv: string; odgovoran: string }>;
export let tok: Record<'admin' | 'nar' | 'izvA' | 'izvB' | 'managerA' | 'seesAll' | 'seesAllManager', string>;
/** The A7 holder entries as put in: cluster, holder, checked, fee. */
let ijoInput: { cluster: Cluster; holder: keyof typeof H; checked: boolean; fee: number; contractor: string; contract: string }[];

const deps = () => ({ db: t.db, store: activityFileStore(t.ctx.config.dataDir) });
export const get = async (url: string, token: string) => {
  const res = await t.call({ method: 'GET', url, token });
  expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
  return res.json();
};
export const post = (url: string, token: string) => t.call({ method: 'POST', url, token });
const activityId = async (clusterId: string, code: string) => {
  const [row] = await t.db
    .select({ id: activities.id })
    .from(activities)
    .where(and(eq(activities.clusterId, clusterId), eq(activities.code, code)));
  if (!row) throw new Error(`no ${code}`);
  return row.id;
};
const save = async (
  clusterId: string,
  code: string,
  podaci: { key: string; naziv?: string; vrednost: string; ref?: string }[],
  day: string,
) => saveActivityData(deps(), SYSTEM, await activityId(clusterId, code), podaci, { today: day });

/** The finished activities per cluster, read row by row from the activity table (finished on or before `asOf`). */
export async function finishedOf(clusterIds: string[], asOf = today) {
  const rows = await t.db.select().from(activities).where(inArray(activities.clusterId, clusterIds));
  const out = new Map<string, { code: string; position: number; end: string | null; deadline: string | null }[]>();
  for (const r of rows) {
    if (r.status !== FINISHED || (r.datumZavrsetka && r.datumZavrsetka > asOf)) continue;
    const list = out.get(r.clusterId) ?? [];
    list.push({ code: r.code, position: r.position, end: r.datumZavrsetka, deadline: r.rokZavrsetka });
    out.set(r.clusterId, list);
  }
  for (const list of out.values()) list.sort((a, b) => a.position - b.position);
  return out;
}

export function expectedSummary(finished: Map<string, { code: string }[]>) {
  const counts: Record<string, number> = {};
  for (const list of finished.values()) for (const a of list) counts[a.code] = (counts[a.code] ?? 0) + 1;
  return counts;
}

export function expectedIjo(visible: readonly Cluster[], filter: { contract?: string; payer?: string } = {}) {
  const rows = ijoInput.filter(
    (e) =>
      visible.includes(e.cluster) &&
      (!filter.contract || e.contract === filter.contract) &&
      (!filter.payer || H[e.holder].odgovoran === filter.payer),
  );
  let narucilacTotal = 0;
  let izvodjaciTotal = 0;
  const byContractor: Record<string, number> = {};
  for (const e of rows) {
    if (H[e.holder].odgovoran === 'Naručilac') narucilacTotal += e.fee;
    else {
      izvodjaciTotal += e.fee;
      byContractor[e.contractor] = (byContractor[e.contractor] ?? 0) + e.fee;
    }
  }
  return { rows, narucilacTotal, izvodjaciTotal, byContractor, totalTax: narucilacTotal + izvodjaciTotal };
}

/**
 * Registers the set-up of the calling test file: its own app and data, read through the bindings above
 * while its tests run (vitest isolate: false shares this module between a worker's files).
 */
export function setupReports(): void {
  const app = useTestApp();
  beforeAll(async () => {
    t = app;
    const nar = await createGroup(t.db, { naziv: 'Ministarstvo Izveštaji', type: 'NARUCILAC' });
    izvA = await createGroup(t.db, { naziv: 'Izvođač Alfa', type: 'IZVODJAC' });
    const izvATim = await createGroup(t.db, { naziv: 'Izvođač Alfa Tim', type: 'IZVODJAC', parentId: izvA.id });
    izvB = await createGroup(t.db, { naziv: 'Izvođač Beta', type: 'IZVODJAC' });
    const nad = await createGroup(t.db, { naziv: 'Nadzor Izveštaji', type: 'NADZOR' });
    const all = await createGroup(t.db, { naziv: 'PIU Svevideći', type: 'PIU_TA', sveVideci: true });
    const allChild = await createGroup(t.db, { naziv: 'PIU Svevideći Tim', type: 'PIU_TA', parentId: all.id });
    const token = async (spec: Parameters<typeof createUser>[1]) => tokenFor(t.ctx, await createUser(t.db, spec));
    tok = {
      admin: await token({ role: 'Admin' }),
      nar: await token({ groupId: nar.id }),
      izvA: await token({ groupId: izvATim.id }),
      izvB: await token({ groupId: izvB.id }),
      managerA: await token({ role: 'Rukovodilac', groupId: izvA.id }),
      seesAll: await token({ groupId: allChild.id }),
      seesAllManager: await token({ role: 'Rukovodilac', groupId: all.id }),
    };
    H = {
      H1: await createHolder(t, 'Elektrodistribucija Izv', 'Izvođač'),
      H2: await createHolder(t, 'Putevi Srbije Izv', 'Naručilac'),
      H3: await createHolder(t, 'Vodovod Izv', 'Izvođač'),
    };
    K1 = await createContract(t.db, { naziv: 'Ugovor Jedan' });
    const K2 = await createContract(t.db, { naziv: 'Ugovor Dva' });
    const KIA = await createContract(t.db, { kind: 'contractIzv', naziv: 'Izvođački Alfa', groupIds: [izvA.id] });
    const s = await Promise.all(
      ['Sirogojno', 'Rožanstvo', 'Kremna', 'Mokra Gora', 'Šljivovica'].map((naziv) => createSettlement(t.db, { naziv })),
    );
    C1 = await createCluster(t.db, {
      naziv: 'Alfa Jedan',
      groupIds: [nar.id, izvA.id, nad.id],
      naselja: [s[0]!.id, s[1]!.id],
      contract: K1,
    });
    C2 = await createCluster(t.db, { naziv: 'Alfa Dva', groupIds: [nar.id, nad.id], naselja: [s[2]!.id], contract: K1 });
    C3 = await createCluster(t.db, { naziv: 'Beta Tri', groupIds: [nar.id, izvB.id, nad.id], naselja: [s[3]!.id], contract: K2 });
    C4 = await createCluster(t.db, { naziv: 'Beta Četiri', groupIds: [nar.id, izvB.id, nad.id], naselja: [s[4]!.id], contract: K2 });
    // C2 is Alfa's through its contractor contract only.
    await linkClusterToContract(t.db, KIA, C1.id);
    await linkClusterToContract(t.db, KIA, C2.id);

    // C1: A1 with route lengths 40 days ago; on to A6.1 (holders H1, H2) 10 days ago; A7 fees, H1 checked.
    await startActivity(deps(), SYSTEM, await activityId(C1.id, 'A1'), { today: D(40) });
    await save(
      C1.id,
      'A1',
      [
        { key: 'DuzinaTrase', vrednost: '1200,5', ref: s[0]!.id },
        { key: 'DuzinaTrase', vrednost: '800', ref: s[1]!.id },
      ],
      D(40),
    );
    await driveCluster(deps(), C1.id, { until: 'A1', today: D(40) });
    await driveCluster(deps(), C1.id, { until: 'A6.1', today: D(10), holderIds: [H.H1.id, H.H2.id] });
    await save(
      C1.id,
      'A7',
      [
        { key: 'A7IjoChecked', vrednost: H.H1.id },
        { key: 'A7Taksa', vrednost: '15000,50', ref: H.H1.id },
        { key: 'A7Taksa', vrednost: '2500', ref: H.H2.id },
      ],
      D(10),
    );
    // C2: A1 5 days ago; through A8 yesterday (A7 finished with fees 0 for H1, H3); A9's length.
    await driveCluster(deps(), C2.id, { until: 'A1', today: D(5) });
    await driveCluster(deps(), C2.id, { until: 'A8', today: D(1), holderIds: [H.H1.id, H.H3.id] });
    await save(C2.id, 'A9', [{ key: 'DuzinaTrase', vrednost: '850.25' }], D(1));
    // C3: to A2, 20 days ago. C4: to A6.1 15 days ago (holder H2), A7 fee 300, checked.
    await driveCluster(deps(), C3.id, { until: 'A2', today: D(20) });
    await driveCluster(deps(), C4.id, { until: 'A6.1', today: D(15), holderIds: [H.H2.id] });
    await save(
      C4.id,
      'A7',
      [
        { key: 'A7IjoChecked', vrednost: H.H2.id },
        { key: 'A7Taksa', vrednost: '300', ref: H.H2.id },
      ],
      D(15),
    );

    ijoInput = [
      { cluster: C1, holder: 'H1', checked: true, fee: 15000.5, contractor: izvA.naziv, contract: K1.id },
      { cluster: C1, holder: 'H2', checked: false, fee: 2500, contractor: izvA.naziv, contract: K1.id },
      { cluster: C2, holder: 'H1', checked: true, fee: 0, contractor: izvA.naziv, contract: K1.id },
      { cluster: C2, holder: 'H3', checked: true, fee: 0, contractor: izvA.naziv, contract: K1.id },
      { cluster: C4, holder: 'H2', checked: true, fee: 300, contractor: izvB.naziv, contract: K2.id },
    ];
  }, 120_000);
}
