import { ACTIVITY_CATALOGUE, addDays, FINISHED, type Payer, REPORTS, SNAPSHOT_TYPES } from '@trasa/domain';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/harness.js';
import { activities } from '../../db/schema-activities.js';
import { reportSnapshotRows, reportSnapshots } from '../../db/schema-reports.js';
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
import type { ClusterScope } from '../clusters/policy.js';
import { compareSnapshots, compareSnapshotsText, takeNightlySnapshot } from './snapshots.js';

/**
 * The reports of spec 3 §2.7 / §7 on a dataset built here: four clusters driven through the workflow to
 * different stages at past dates, A7 holders with fees, A1 and A9 route lengths. Every expected figure is
 * computed in the test by plain loops over what it put in (or over the activity rows), never by the
 * reports' queries; and every report holds only the caller's visible clusters.
 */
const t = useTestApp();
const today = appToday();
const D = (n: number) => addDays(today, -n);

type Cluster = { id: string; naziv: string };
let C1: Cluster;
let C2: Cluster;
let C3: Cluster;
let C4: Cluster;
let K1: { id: string; naziv: string; kind: string };
let izvA: { id: string; naziv: string };
let izvB: { id: string; naziv: string };
let H: Record<'H1' | 'H2' | 'H3', { id: string; naziv: string; odgovoran: string }>;
let tok: Record<'admin' | 'nar' | 'izvA' | 'izvB' | 'managerA' | 'seesAll' | 'seesAllManager', string>;
/** The A7 holder entries as put in: cluster, holder, checked, fee. */
let ijoInput: { cluster: Cluster; holder: keyof typeof H; checked: boolean; fee: number; contractor: string; contract: string }[];

const deps = () => ({ db: t.db, store: activityFileStore(t.ctx.config.dataDir) });
const get = async (url: string, token: string) => {
  const res = await t.call({ method: 'GET', url, token });
  expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
  return res.json();
};
const post = (url: string, token: string) => t.call({ method: 'POST', url, token });
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

beforeAll(async () => {
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
  C1 = await createCluster(t.db, { naziv: 'Alfa Jedan', groupIds: [nar.id, izvA.id, nad.id], naselja: [s[0]!.id, s[1]!.id], contract: K1 });
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

/** The finished activities per cluster, read row by row from the activity table (finished on or before `asOf`). */
async function finishedOf(clusterIds: string[], asOf = today) {
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

function expectedSummary(finished: Map<string, { code: string }[]>) {
  const counts: Record<string, number> = {};
  for (const list of finished.values()) for (const a of list) counts[a.code] = (counts[a.code] ?? 0) + 1;
  return counts;
}

function expectedIjo(visible: readonly Cluster[], filter: { contract?: string; payer?: string } = {}) {
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

describe('summary', () => {
  it('counts, per catalogue activity, the visible clusters that finished it; filtered by contract', async () => {
    for (const [token, visible] of [
      [tok.admin, [C1, C2, C3, C4]],
      [tok.nar, [C1, C2, C3, C4]],
      [tok.izvA, [C1, C2]],
      [tok.izvB, [C3, C4]],
      [tok.managerA, [C1, C2]],
    ] as const) {
      const expected = expectedSummary(await finishedOf(visible.map((c) => c.id)));
      const body = await get('/api/report/summary', token);
      expect(body.totalClusters).toBe(visible.length);
      expect(body.summary).toHaveLength(ACTIVITY_CATALOGUE.length);
      expect(body.summary[0]).toMatchObject({ kratakNaziv: 'A1', naziv: expect.any(String) });
      for (const row of body.summary) expect(row.count, row.kratakNaziv).toBe(expected[row.kratakNaziv] ?? 0);
    }
    const expected = expectedSummary(await finishedOf([C1.id, C2.id]));
    const onK1 = await get(`/api/report/summary?contract=${K1.id}`, tok.admin);
    expect(onK1.totalClusters).toBe(2);
    for (const row of onK1.summary) expect(row.count).toBe(expected[row.kratakNaziv] ?? 0);
    expect(onK1.summary.find((r: { kratakNaziv: string }) => r.kratakNaziv === 'A1').count).toBe(2);
    // The sibling company sees nothing of contract 1.
    const sibling = await get(`/api/report/summary?contract=${K1.id}`, tok.izvB);
    expect(sibling.totalClusters).toBe(0);
    expect(sibling.summary.every((r: { count: number }) => r.count === 0)).toBe(true);
    expect((await t.call({ method: 'GET', url: '/api/report/summary?contract=nije-id', token: tok.admin })).statusCode).toBe(400);
    const names = async (token: string) => (await get('/api/report/contracts', token)).contracts.map((c: { naziv: string }) => c.naziv);
    expect(await names(tok.admin)).toEqual(['Ugovor Dva', 'Ugovor Jedan']);
    expect(await names(tok.izvB)).toEqual(['Ugovor Dva']);
  });
});

describe('finished', () => {
  it('lists the visible clusters with their finished activities, dates and on-time marks, by name, paged', async () => {
    const finished = await finishedOf([C1.id, C2.id, C3.id, C4.id]);
    const body = await get('/api/report/finished?page=1&limit=10', tok.admin);
    expect(body.totalResults).toBe(4);
    // Serbian order: Alfa Dva, Alfa Jedan, Beta Četiri, Beta Tri.
    expect(body.clusters.map((c: { klaster: string }) => c.klaster)).toEqual(['Alfa Dva', 'Alfa Jedan', 'Beta Četiri', 'Beta Tri']);
    for (const row of body.clusters) {
      const list = finished.get(row._id) ?? [];
      expect(row.zavrsene.map((a: { kratakNaziv: string }) => a.kratakNaziv)).toEqual(list.map((a) => a.code));
      let late = 0;
      for (const a of list) if (a.deadline && a.end && a.end > a.deadline) late++;
      expect(row.kasni).toBe(late);
      expect(row.uRoku).toBe(list.length - late);
    }
    const c1 = body.clusters.find((c: { _id: string }) => c._id === C1.id);
    expect(c1.ugovor).toMatchObject({ _id: K1.id, naziv: 'Ugovor Jedan' });
    // A1 finished 40 days ago within its 15 days; A2 started then and finished 30 days later, past its deadline.
    expect(c1.zavrsene[0]).toMatchObject({ kratakNaziv: 'A1', datumZavrsetka: D(40), uRoku: true });
    expect(c1.zavrsene[1]).toMatchObject({ kratakNaziv: 'A2', datumZavrsetka: D(10), uRoku: false });
    const page2 = await get('/api/report/finished?page=2&limit=3', tok.admin);
    expect(page2.clusters.map((c: { klaster: string }) => c.klaster)).toEqual(['Beta Tri']);
    expect(page2.totalResults).toBe(4);
    const sibling = await get('/api/report/finished?page=1&limit=10', tok.izvB);
    expect(sibling.clusters.map((c: { _id: string }) => c._id).sort()).toEqual([C3.id, C4.id].sort());
  });
});

describe('per activity', () => {
  it("gives every visible cluster's record of the activity with its data and files, searchable", async () => {
    const body = await get('/api/report/A7?page=1&limit=10', tok.admin);
    expect(body.activity).toMatchObject({ kratakNaziv: 'A7' });
    expect(body.totalResults).toBe(4);
    const c1 = body.rows.find((r: { klaster: { _id: string } }) => r.klaster._id === C1.id);
    expect(c1).toMatchObject({ status: 'U toku', datumPocetka: D(10), ugovor: { _id: K1.id } });
    expect(c1.podaci).toEqual(expect.arrayContaining([{ key: 'A7Taksa', naziv: expect.any(String), vrednost: '15000.5', ref: H.H1.id }]));
    const c2 = body.rows.find((r: { klaster: { _id: string } }) => r.klaster._id === C2.id);
    expect(c2.status).toBe(FINISHED);
    expect(c2.fajlovi).toHaveLength(2);
    const a1 = await get('/api/report/a1?page=1&limit=10', tok.izvA);
    expect(a1.rows.map((r: { klaster: { naziv: string } }) => r.klaster.naziv)).toEqual(['Alfa Dva', 'Alfa Jedan']);
    expect(a1.rows[1].fajlovi.map((f: { originalnoIme: string }) => f.originalnoIme)).toEqual([
      'Trasa Sirogojno.pdf',
      'Trasa Rožanstvo.pdf',
    ]);
    const found = await get(
      `/api/report/A1?page=1&limit=10&eng=${encodeURIComponent('beta tri')}&srb=${encodeURIComponent('бета три')}`,
      tok.admin,
    );
    expect(found.rows.map((r: { klaster: { _id: string } }) => r.klaster._id)).toEqual([C3.id]);
    expect((await get('/api/report/A1?page=1&limit=10&eng=alfa', tok.izvB)).totalResults).toBe(0);
    // Under a general contract, counted with and without a search (the count reads the clusters only then).
    const onK1 = await get(`/api/report/A7?page=1&limit=1&contract=${K1.id}`, tok.admin);
    expect(onK1.rows.map((r: { klaster: { _id: string } }) => r.klaster._id)).toEqual([C2.id]);
    expect(onK1.totalResults).toBe(2);
    const onK1Found = await get(`/api/report/A7?page=1&limit=10&contract=${K1.id}&eng=jedan`, tok.admin);
    expect(onK1Found.rows.map((r: { klaster: { _id: string } }) => r.klaster._id)).toEqual([C1.id]);
    expect(onK1Found.totalResults).toBe(1);
    const unknown = await t.call({ method: 'GET', url: '/api/report/A99', token: tok.admin });
    expect(unknown.statusCode).toBe(404);
  });

  it("zips the activity's documents of the visible clusters only, a folder per cluster", async () => {
    const res = await t.call({ method: 'GET', url: '/api/report/A1/zip', token: tok.izvA });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/zip');
    const body = res.rawPayload.toString('latin1');
    const name = (s: string) => Buffer.from(s, 'utf8').toString('latin1');
    expect(body).toContain(name('Alfa Jedan/Trasa Sirogojno.pdf'));
    expect(body).toContain(name('Alfa Dva/Trasa Kremna.pdf'));
    expect(body).not.toContain('Beta');
    const sibling = await t.call({ method: 'GET', url: '/api/report/A1/zip', token: tok.izvB });
    expect(sibling.rawPayload.toString('latin1')).not.toContain('Alfa');
  });
});

describe('IJO taxes', () => {
  const sum = (list: { naziv: string; sum: number }[]) => Object.fromEntries(list.map((c) => [c.naziv, c.sum]));

  it('gives one row per A7 holder entry with payer, status and fee, and the totals', async () => {
    for (const [token, visible] of [
      [tok.admin, [C1, C2, C3, C4]],
      [tok.izvA, [C1, C2]],
      [tok.izvB, [C3, C4]],
    ] as const) {
      const expected = expectedIjo(visible);
      const body = await get('/api/report/ijo-takse', token);
      expect(body.totalResults).toBe(expected.rows.length);
      expect(
        body.rows.map(
          (r: { klasterId: string; imaocId: string; status: boolean; taksa: number; zaduzen: string; izvodjacNaziv?: string }) => [
            r.klasterId,
            r.imaocId,
            r.status,
            r.taksa,
            r.zaduzen,
            r.izvodjacNaziv,
          ],
        ),
      ).toEqual(
        expect.arrayContaining(
          expected.rows.map((e) => [
            e.cluster.id,
            H[e.holder].id,
            e.checked,
            e.fee,
            H[e.holder].odgovoran,
            H[e.holder].odgovoran === 'Izvođač' ? e.contractor : undefined,
          ]),
        ),
      );
      expect(body.narucilacTotal).toBeCloseTo(expected.narucilacTotal, 2);
      expect(body.izvodjaciTotal).toBeCloseTo(expected.izvodjaciTotal, 2);
      expect(body.totalTax).toBeCloseTo(expected.totalTax, 2);
      expect(sum(body.byContractor)).toEqual(expected.byContractor);
    }
    const admin = await get('/api/report/ijo-takse', tok.admin);
    expect(admin.rows[0]).toMatchObject({ ugovor: 'Ugovor Jedan', klaster: 'Alfa Dva', imaoc: expect.any(String) });
    expect(admin.totalTax).toBe(17800.5);
  });

  it('filters by contract and payer (either script, with or without diacritics)', async () => {
    for (const [query, filter] of [
      [`contract=${K1.id}`, { contract: K1.id }],
      ['payer=Naručilac', { payer: 'Naručilac' }],
      ['payer=izvodjac', { payer: 'Izvođač' }],
      [`payer=${encodeURIComponent('Наручилац')}&contract=${K1.id}`, { payer: 'Naručilac', contract: K1.id }],
    ] as const) {
      const expected = expectedIjo([C1, C2, C3, C4], filter);
      const body = await get(`/api/report/ijo-takse?${query}`, tok.admin);
      expect(body.totalResults, query).toBe(expected.rows.length);
      expect(body.totalTax, query).toBeCloseTo(expected.totalTax, 2);
      expect(body.narucilacTotal, query).toBeCloseTo(expected.narucilacTotal, 2);
    }
    const paged = await get('/api/report/ijo-takse?page=2&limit=2', tok.admin);
    expect(paged.rows).toHaveLength(2);
    expect(paged.totalResults).toBe(5);
    expect(paged.totalTax).toBe(17800.5);
    expect((await t.call({ method: 'GET', url: '/api/report/ijo-takse?payer=niko', token: tok.admin })).statusCode).toBe(400);
  });
});

describe('route lengths', () => {
  it('A1: metres per cluster and settlement; A9: per cluster; only visible clusters', async () => {
    const a1 = await get('/api/report/duzine/A1?page=1&limit=50', tok.admin);
    expect(a1.totalResults).toBe(5);
    expect(a1.ukupno).toBe(1200.5 + 800);
    const c1 = a1.rows.filter((r: { klaster: { _id: string } }) => r.klaster._id === C1.id);
    expect(c1.map((r: { naselje: { naziv: string }; duzina: number }) => [r.naselje.naziv, r.duzina])).toEqual([
      ['Sirogojno', 1200.5],
      ['Rožanstvo', 800],
    ]);
    const a9 = await get('/api/report/duzine/a9?page=1&limit=50', tok.admin);
    expect(a9.totalResults).toBe(4);
    expect(a9.ukupno).toBe(850.25);
    expect(a9.rows.find((r: { klaster: { _id: string } }) => r.klaster._id === C2.id)).toMatchObject({ duzina: 850.25, naselje: null });
    const sibling = await get('/api/report/duzine/A1?page=1&limit=50', tok.izvB);
    expect(sibling.totalResults).toBe(2);
    expect(sibling.ukupno).toBe(0);
    expect((await get('/api/report/duzine/A12', tok.izvA)).totalResults).toBe(2);
    expect((await t.call({ method: 'GET', url: '/api/report/duzine/A2', token: tok.admin })).statusCode).toBe(404);
  });
});

describe('snapshots', () => {
  it('the test panel is for the Admin and a sees-all group only', async () => {
    for (const token of [tok.izvA, tok.managerA, tok.nar]) {
      for (const url of ['/api/report/backfill-snapshots?days=1', '/api/report/clear-snapshots']) {
        const res = await post(url, token);
        expect(res.statusCode, url).toBe(403);
        expect(res.json().message).toBe(REPORTS.testPanelForbidden);
      }
      expect((await get('/api/report/snapshots', token)).mozeUpravljati).toBe(false);
    }
    expect(await t.db.select().from(reportSnapshots)).toHaveLength(0);
    for (const token of [tok.admin, tok.seesAll, tok.seesAllManager]) {
      expect((await get('/api/report/snapshots', token)).mozeUpravljati).toBe(true);
      const res = await post('/api/report/backfill-snapshots?days=1', token);
      expect(res.statusCode, res.body).toBe(200);
    }
    const cleared = await post('/api/report/clear-snapshots', tok.seesAll);
    expect(cleared.json()).toMatchObject({ deleted: 3 });
  });

  it('backfill: days 1–60, default 10, an invalid value becomes 10; stored once per date and type', async () => {
    for (const [query, n] of [
      ['', 10],
      ['?days=abc', 10],
      ['?days=0', 10],
      ['?days=61', 10],
      ['?days=2', 2],
      ['?days=60', 60],
    ] as const) {
      const res = await post(`/api/report/backfill-snapshots${query}`, tok.admin);
      expect(res.statusCode, res.body).toBe(200);
      const { results } = res.json();
      expect(results, query).toHaveLength(n);
      expect(results[0].date).toBe(today);
      expect(results.at(-1).date).toBe(D(n - 1));
    }
    const stored = await t.db.select().from(reportSnapshots);
    expect(stored).toHaveLength(60 * 3);
    const again = (await post('/api/report/backfill-snapshots?days=2', tok.admin)).json();
    expect(again.results).toEqual([
      { date: today, status: 'updated' },
      { date: D(1), status: 'updated' },
    ]);
    expect((await post('/api/report/clear-snapshots', tok.admin)).json().deleted).toBe(180);
    const fresh = (await post('/api/report/backfill-snapshots?days=3', tok.admin)).json();
    expect(fresh.results.map((r: { status: string }) => r.status)).toEqual(['created', 'created', 'created']);
  });

  it('compares two dates of a report, each as it was at the end of its day, for the visible clusters only', async () => {
    const url = (type: string, a: string, b: string) => `/api/report/compare?type=${type}&dateA=${a}&dateB=${b}`;
    const dmy = (iso: string) => iso.split('-').reverse().join('.');
    // Two days ago C2 had finished A1 only; yesterday it went through A8.
    const finished = await get(url('finishedReport', dmy(D(2)), D(1)), tok.admin);
    expect(finished.metaA).toMatchObject({ date: D(2), randomized: false });
    expect(finished.metaB.date).toBe(D(1));
    const c2 = (r: { rows: { _id: string; zavrseno: number; aktivnosti: string }[] }) => r.rows.find((x) => x._id === C2.id);
    const before = await finishedOf([C2.id], D(2));
    const after = await finishedOf([C2.id], D(1));
    expect(c2(finished.reportA)).toMatchObject({ zavrseno: before.get(C2.id)?.length, aktivnosti: 'A1' });
    expect(c2(finished.reportB)?.zavrseno).toBe(after.get(C2.id)?.length);
    expect(finished.reportA.rows).toHaveLength(4);
    // Every row's figures, counted here from the activities.
    const endOfB = await finishedOf([C1.id, C2.id, C3.id, C4.id], D(1));
    for (const row of finished.reportB.rows as { _id: string; zavrseno: number; uRoku: number; kasni: number; aktivnosti: string }[]) {
      const list = endOfB.get(row._id) ?? [];
      const late = list.filter((a) => a.end && a.deadline && a.end > a.deadline).length;
      expect(row).toMatchObject({
        zavrseno: list.length,
        uRoku: list.length - late,
        kasni: late,
        aktivnosti: list.map((a) => a.code).join(', '),
      });
    }
    // A snapshot stored before the figures were kept with it (its rows hold the activities alone): the
    // comparison counts them from the activities, the same.
    const stripped = await t.db
      .update(reportSnapshotRows)
      .set({ data: sql`${reportSnapshotRows.data} - 'zavrseno' - 'uRoku' - 'aktivnosti'` })
      .where(sql`${reportSnapshotRows.data} ? 'uRoku'`)
      .returning({ id: reportSnapshotRows.clusterId });
    expect(stripped.length).toBeGreaterThan(0);
    expect(await get(url('finishedReport', dmy(D(2)), D(1)), tok.admin)).toEqual(finished);

    const summary = await get(url('summaryReport', D(2), D(1)), tok.admin);
    const countOf = (r: { rows: { kratakNaziv: string; count: number }[] }, code: string) =>
      r.rows.find((x) => x.kratakNaziv === code)?.count;
    const all = [C1.id, C2.id, C3.id, C4.id];
    const expA = expectedSummary(await finishedOf(all, D(2)));
    const expB = expectedSummary(await finishedOf(all, D(1)));
    for (const code of ['A1', 'A2', 'A4', 'A7', 'A8']) {
      expect(countOf(summary.reportA, code), code).toBe(expA[code] ?? 0);
      expect(countOf(summary.reportB, code), code).toBe(expB[code] ?? 0);
    }
    expect(countOf(summary.reportB, 'A2')).toBe((countOf(summary.reportA, 'A2') ?? 0) + 1);

    const ijo = await get(url('ijoTaxesReport', D(1), today), tok.admin);
    expect(ijo.reportA.totalTax).toBe(17800.5);
    expect(ijo.reportB.rows).toHaveLength(5);

    // The sibling company: only its own clusters, on either side and in every report.
    for (const type of ['finishedReport', 'ijoTaxesReport']) {
      const res = await get(url(type, D(2), today), tok.izvB);
      for (const side of [res.reportA, res.reportB]) {
        const ids = side.rows.map((r: { _id?: string; klasterId?: string }) => r._id ?? r.klasterId);
        expect(
          ids.every((id: string) => id === C3.id || id === C4.id),
          type,
        ).toBe(true);
      }
    }
    const siblingSummary = await get(url('summaryReport', D(2), D(1)), tok.izvB);
    const expSibling = expectedSummary(await finishedOf([C3.id, C4.id], D(1)));
    for (const row of siblingSummary.reportB.rows) expect(row.count).toBe(expSibling[row.kratakNaziv] ?? 0);
  });

  it('answers null for a date without a snapshot, 400 for a future or malformed date or an unknown type', async () => {
    const res = await get(`/api/report/compare?type=summaryReport&dateA=${D(30)}&dateB=${today}`, tok.izvA);
    expect(res.reportA).toBeNull();
    expect(res.metaA).toBeNull();
    expect(res.reportB.rows.length).toBeGreaterThan(0);
    for (const [query, message] of [
      [`type=summaryReport&dateA=${addDays(today, 1)}&dateB=${today}`, REPORTS.futureDate],
      [`type=summaryReport&dateA=${today}&dateB=31.02.2026`, REPORTS.invalidDate],
      [`type=summaryReport&dateA=${today}`, REPORTS.invalidDate],
      [`type=nepoznat&dateA=${today}&dateB=${today}`, REPORTS.unknownReport],
    ]) {
      const bad = await t.call({ method: 'GET', url: `/api/report/compare?${query}`, token: tok.admin });
      expect(bad.statusCode, query).toBe(400);
      expect(bad.json().message, query).toBe(message);
    }
  });

  it('randomize perturbs the stored reports for demonstration', async () => {
    const res = (await post('/api/report/backfill-snapshots?days=1&randomize=true', tok.admin)).json();
    expect(res.results).toEqual([{ date: today, status: 'updated' }]);
    const compared = await get(`/api/report/compare?type=ijoTaxesReport&dateA=${D(1)}&dateB=${today}`, tok.admin);
    expect(compared.metaB.randomized).toBe(true);
    expect(compared.reportB.rows).toHaveLength(5);
  });

  it('the comparison built in SQL (compareSnapshotsText) equals the one built in the server (compareSnapshots) cell by cell', async () => {
    const scopes: ClusterScope[] = [
      { all: true },
      { all: false, groupIds: [izvA.id] },
      { all: false, groupIds: [izvB.id] },
      { all: false, groupIds: [] },
    ];
    const filters: { contractId: string | null; payer: Payer | null }[] = [
      { contractId: null, payer: null },
      { contractId: K1.id, payer: null },
      { contractId: null, payer: 'Izvođač' },
      { contractId: null, payer: 'Naručilac' },
      { contractId: K1.id, payer: 'Izvođač' },
    ];
    let withRows = 0;
    let withTotals = 0;
    for (const type of SNAPSHOT_TYPES) {
      for (const scope of scopes) {
        for (const [dateA, dateB] of [
          [D(2), D(1)],
          [D(1), today],
          [D(30), today],
        ] as const) {
          for (const f of filters) {
            const input = { type, dateA, dateB, ...f };
            const expected = JSON.parse(JSON.stringify(await compareSnapshots(t.db, scope, input)));
            const text = await compareSnapshotsText(t.db, scope, input);
            expect(JSON.parse(text), JSON.stringify({ input, scope })).toEqual(expected);
            if ((expected.reportA?.rows.length ?? 0) > 0) withRows++;
            if ((expected.reportB?.totalTax ?? 0) !== 0 && !Number.isInteger(expected.reportB.totalTax)) withTotals++;
          }
        }
      }
    }
    expect(withRows).toBeGreaterThan(20);
    expect(withTotals).toBeGreaterThan(0);
    // The route answers that text, for the Admin and for a contractor's employee (their scope).
    const routeCases: [string, ClusterScope][] = [
      [tok.admin, { all: true }],
      [tok.izvB, { all: false, groupIds: [izvB.id] }],
    ];
    for (const [token, scope] of routeCases) {
      for (const type of SNAPSHOT_TYPES) {
        const res = await t.call({ method: 'GET', url: `/api/report/compare?type=${type}&dateA=${D(2)}&dateB=${today}`, token });
        expect(res.statusCode).toBe(200);
        expect(res.headers['content-type']).toContain('application/json');
        const expected = await compareSnapshots(t.db, scope, { type, dateA: D(2), dateB: today, contractId: null, payer: null });
        expect(res.json()).toEqual(JSON.parse(JSON.stringify(expected)));
      }
    }
  });

  it('the nightly job stores the day that ended once, also when two instances run it at once', async () => {
    await post('/api/report/clear-snapshots', tok.admin);
    const results = await Promise.all([takeNightlySnapshot(t.db), takeNightlySnapshot(t.db)]);
    const stored = await t.db.select().from(reportSnapshots);
    expect(stored.map((s) => s.date)).toEqual([D(1), D(1), D(1)]);
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(await takeNightlySnapshot(t.db)).toBe(false);
    expect(await t.db.select().from(reportSnapshots)).toHaveLength(3);
  });
});
