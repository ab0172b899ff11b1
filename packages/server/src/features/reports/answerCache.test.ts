import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { addDays, MAX_LIMIT, SNAPSHOT_TYPES, type SnapshotType } from '@trasa/domain';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/harness.js';
import { activities, activityCatalogue, ijoHolders } from '../../db/schema-activities.js';
import { clusterGroups, clusters, contracts } from '../../db/schema-clusters.js';
import { ensureDatabase } from '../../platform/ensureDatabase.js';
import { appToday } from '../../platform/time.js';
import { createCluster, createContract, createGroup, createUser, setActivityState, tokenFor } from '../../seed/factories.js';
import { createHolder } from '../activities/testing.js';
import type { ClusterScope } from '../clusters/policy.js';
import { ijoTaxReport } from './service.js';
import { compareSnapshots } from './snapshots.js';

/**
 * The comparisons' whole answers are kept in the server (routes.ts, platform/kept/answers.ts) under data
 * versions read from PostgreSQL on every request; the IJO report is answered from its rows kept in
 * PostgreSQL (ijo_report_rows, brought up to date by its version). Here: an answer (plain, brotli, gzip)
 * equals one built fresh from the database; every kind of change the
 * answer depends on shows on the next request, made through the same instance or through another
 * instance on the same database (each has its own cache); callers of different scopes never get each
 * other's answer.
 */
const one = {} as TestApp;
const two = {} as TestApp;
let dataDir: string;
const today = appToday();
const yesterday = addDays(today, -1);

type Cluster = { id: string; naziv: string };
let mine: Cluster;
let theirs: Cluster;
let other: Cluster;
let myGroup: { id: string };
let theirGroup: { id: string };
let contract: { id: string };
let holder: { id: string };
let tok: { admin: string; employee: string; stranger: string };
const scopes = (): Record<keyof typeof tok, ClusterScope> => ({
  admin: { all: true },
  employee: { all: false, groupIds: [myGroup.id] },
  stranger: { all: false, groupIds: [theirGroup.id] },
});

const fee = (h: string, value: string) => [
  { key: 'Ijos', naziv: 'IJO', vrednost: h },
  { key: 'A7IjoChecked', naziv: '', vrednost: h },
  { key: 'A7Taksa', naziv: '', vrednost: value, ref: h },
];
const setFee = (t: TestApp, clusterId: string, value: string) =>
  t.db
    .update(activities)
    .set({ podaci: fee(holder.id, value) })
    .where(and(eq(activities.clusterId, clusterId), eq(activities.code, 'A7')));

beforeAll(async () => {
  const url = await ensureDatabase(inject('pgAdminUrl'), `${inject('dbPrefix')}_${randomBytes(4).toString('hex')}`, inject('templateDb'));
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'trasa-answers-'));
  const secret = randomBytes(32).toString('hex');
  await startTestApp(one, url, { secret, dataDir });
  await startTestApp(two, url, { secret, dataDir });
  const db = one.db;
  myGroup = await createGroup(db, { naziv: 'Keš izvođač A', type: 'IZVODJAC' });
  theirGroup = await createGroup(db, { naziv: 'Keš izvođač B', type: 'IZVODJAC' });
  contract = await createContract(db, { naziv: 'Keš ugovor', broj: 'K-1' });
  holder = await createHolder(one, 'Keš EPS', 'Izvođač');
  mine = await createCluster(db, { naziv: 'Keš Čačak', groupIds: [myGroup.id], contract: { id: contract.id, kind: 'contract' } });
  theirs = await createCluster(db, { naziv: 'Keš Šabac', groupIds: [theirGroup.id] });
  other = await createCluster(db, { naziv: 'Keš Užice' });
  for (const [c, value] of [
    [mine, '100'],
    [theirs, '200,5'],
    [other, '300'],
  ] as const) {
    await setFee(one, c.id, value);
    await setActivityState(db, c.id, 'A1', { status: 'Završena', datumZavrsetka: addDays(today, -3), rokZavrsetka: addDays(today, -2) });
  }
  const admin = await createUser(db, { role: 'Admin' });
  const employee = await createUser(db, { role: 'Zaposleni', groupId: myGroup.id });
  const stranger = await createUser(db, { role: 'Zaposleni', groupId: theirGroup.id });
  tok = { admin: await tokenFor(one.ctx, admin), employee: await tokenFor(one.ctx, employee), stranger: await tokenFor(one.ctx, stranger) };
  const res = await one.call({ method: 'POST', url: '/api/report/backfill-snapshots?days=2', token: tok.admin });
  expect(res.statusCode).toBe(200);
});

afterAll(async () => {
  for (const t of [one, two]) {
    await t.app?.close();
    await t.db?.$client.end();
  }
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

const IJO = '/api/report/ijo-takse';
const compareUrl = (type: SnapshotType) => `/api/report/compare?type=${type}&dateA=${yesterday}&dateB=${today}`;
const URLS = [IJO, `${IJO}?page=1&limit=1&sort=taksa&order=desc`, ...SNAPSHOT_TYPES.map(compareUrl)];

/** The answer of a route as a client reads it (status 200 checked). */
async function get(t: TestApp, url: string, who: keyof typeof tok, encoding?: 'br' | 'gzip') {
  const res = await t.call({ method: 'GET', url, token: tok[who], headers: encoding ? { 'accept-encoding': encoding } : {} });
  expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
  expect(res.headers['content-type']).toContain('application/json');
  if (!encoding) return res.json();
  if (res.rawPayload.length < 1024 && res.headers['content-encoding'] === undefined) return { ...res.json(), plain: true };
  expect(res.headers['content-encoding'], url).toBe(encoding);
  const raw = encoding === 'br' ? brotliDecompressSync(res.rawPayload) : gunzipSync(res.rawPayload);
  return JSON.parse(raw.toString('utf8'));
}

/** The same answer built now from the database by the services, without any cache. */
async function fresh(url: string, who: keyof typeof tok) {
  const scope = scopes()[who];
  if (url.startsWith(IJO)) {
    const q = Object.fromEntries(new URL(url, 'http://x').searchParams);
    const paging = { page: Number(q.page ?? 1), limit: Number(q.limit ?? MAX_LIMIT) };
    const sorting = q.sort ? { sort: q.sort as 'taksa', order: q.order as 'desc' } : {};
    return JSON.parse(JSON.stringify(await ijoTaxReport(one.db, scope, { ...paging, ...sorting })));
  }
  const type = new URL(url, 'http://x').searchParams.get('type') as SnapshotType;
  return JSON.parse(
    JSON.stringify(await compareSnapshots(one.db, scope, { type, dateA: yesterday, dateB: today, contractId: null, payer: null })),
  );
}

/** Every cached answer of every caller, through both instances, equals the fresh one. */
async function expectAllFresh(label: string) {
  for (const url of URLS) {
    for (const who of ['admin', 'employee', 'stranger'] as const) {
      const expected = await fresh(url, who);
      for (const t of [one, two]) {
        expect(await get(t, url, who), `${label}: ${who} ${url} (instance ${t === one ? 1 : 2})`).toEqual(expected);
      }
    }
  }
}

const ijoClusters = (answer: { rows: { klasterId: string }[] }) => [...new Set(answer.rows.map((r) => r.klasterId))].sort();

describe('the big reports answered from kept answers (issue 10 "Speed")', () => {
  it('a kept answer, plain or compressed, equals one built fresh, for every caller and instance', async () => {
    for (let round = 0; round < 2; round++) await expectAllFresh(`round ${round}`);
    // Compressed once per encoding from the kept text (under 1 KB: plain, as @fastify/compress does).
    let compressed = 0;
    for (const url of URLS) {
      const expected = await fresh(url, 'admin');
      for (const encoding of ['br', 'gzip', 'br', 'gzip'] as const) {
        const { plain, ...answer } = await get(one, url, 'admin', encoding);
        expect(answer, `${url} ${encoding}`).toEqual(expected);
        if (!plain) compressed++;
      }
    }
    expect(compressed).toBeGreaterThanOrEqual(8);
    // Content for a client that accepts neither (or refuses both) is plain.
    const plain = await one.call({ method: 'GET', url: IJO, token: tok.admin, headers: { 'accept-encoding': 'br;q=0, gzip;q=0' } });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.json()).toEqual(await fresh(IJO, 'admin'));
  });

  it('callers of different scopes never get each other’s answer', async () => {
    const all = [mine.id, theirs.id, other.id].sort();
    // Either order of first use of a key.
    for (const order of [
      ['employee', 'stranger', 'admin'],
      ['admin', 'stranger', 'employee'],
    ] as const) {
      await one.db
        .update(clusters)
        .set({ naziv: `Keš Čačak ${order[0]}` })
        .where(eq(clusters.id, mine.id));
      const seen = {} as Record<string, string[]>;
      for (const who of order) seen[who] = ijoClusters(await get(one, IJO, who));
      expect(seen).toEqual({ admin: all, employee: [mine.id], stranger: [theirs.id] });
      for (const who of order) {
        const finished = await get(one, compareUrl('finishedReport'), who);
        const ids = finished.reportB.rows.map((r: { _id: string }) => r._id).sort();
        expect(ids, who).toEqual(who === 'admin' ? all : who === 'employee' ? [mine.id] : [theirs.id]);
      }
    }
  });

  // One case per kind of change, in this order (each builds on the ones before it), not all in one case.
  describe('every kind of change the answers depend on shows on the next request, through either instance', () => {
    it('the answers before any change', async () => {
      await expectAllFresh('before');
    });

    it('an A7 record', async () => {
      // An A7 record (through instance two's database pool: the other instance's write).
      await setFee(two, mine.id, '111,25');
      expect((await get(one, IJO, 'employee')).izvodjaciTotal).toBe(111.25);
      await expectAllFresh('an A7 record');
    });

    it('a cluster rename', async () => {
      await two.db.update(clusters).set({ naziv: 'Keš Čačak preimenovan' }).where(eq(clusters.id, mine.id));
      expect((await get(one, IJO, 'admin')).rows.map((r: { klaster: string }) => r.klaster)).toContain('Keš Čačak preimenovan');
      await expectAllFresh('a cluster rename');
    });

    it('a contract and a holder rename', async () => {
      // A contract rename and a holder rename (names shown in the rows).
      await two.db.update(contracts).set({ naziv: 'Keš ugovor 2' }).where(eq(contracts.id, contract.id));
      await two.db.update(ijoHolders).set({ naziv: 'Keš EPS 2' }).where(eq(ijoHolders.id, holder.id));
      expect((await get(one, IJO, 'employee')).rows[0]).toMatchObject({ ugovor: 'Keš ugovor 2', imaoc: 'Keš EPS 2' });
      await expectAllFresh('a contract and a holder rename');
    });

    it('a group link added', async () => {
      // A group link: the employee's group made responsible for a second cluster, then not.
      await two.db.insert(clusterGroups).values({ clusterId: other.id, groupId: myGroup.id });
      expect(ijoClusters(await get(one, IJO, 'employee'))).toEqual([mine.id, other.id].sort());
      const linked = await get(one, compareUrl('ijoTaxesReport'), 'employee');
      expect(ijoClusters(linked.reportB)).toEqual([mine.id, other.id].sort());
      await expectAllFresh('a group link added');
    });

    it('a group link removed', async () => {
      await two.db.delete(clusterGroups).where(and(eq(clusterGroups.clusterId, other.id), eq(clusterGroups.groupId, myGroup.id)));
      expect(ijoClusters(await get(one, IJO, 'employee'))).toEqual([mine.id]);
      expect(ijoClusters((await get(one, compareUrl('ijoTaxesReport'), 'employee')).reportB)).toEqual([mine.id]);
      await expectAllFresh('a group link removed');
    });

    it('a catalogue name', async () => {
      // A catalogue name (the summary comparison lists the catalogue).
      await two.db.update(activityCatalogue).set({ naziv: 'Keš naziv A1' }).where(eq(activityCatalogue.code, 'A1'));
      const summary = await get(one, compareUrl('summaryReport'), 'admin');
      expect(summary.reportB.rows.find((r: { kratakNaziv: string }) => r.kratakNaziv === 'A1').naziv).toBe('Keš naziv A1');
      await expectAllFresh('a catalogue name');
    });

    it('a backfill', async () => {
      // A snapshot backfill (through the other instance's route): today's snapshot replaced, randomized.
      const before = await get(one, compareUrl('ijoTaxesReport'), 'admin');
      const backfill = await two.call({ method: 'POST', url: '/api/report/backfill-snapshots?days=1&randomize=true', token: tok.admin });
      expect(backfill.statusCode).toBe(200);
      const after = await get(one, compareUrl('ijoTaxesReport'), 'admin');
      expect(after.metaB.randomized).toBe(true);
      expect(after.metaB.createdAt).not.toBe(before.metaB.createdAt);
      expect(after.reportB.rows.find((r: { klasterId: string }) => r.klasterId === mine.id).taksa).not.toBe(100);
      await expectAllFresh('a backfill');
    });

    it('a clear', async () => {
      // A clear: no snapshot on either side.
      const clear = await two.call({ method: 'POST', url: '/api/report/clear-snapshots', token: tok.admin });
      expect(clear.statusCode).toBe(200);
      for (const type of SNAPSHOT_TYPES) {
        for (const who of ['admin', 'employee'] as const) {
          expect(await get(one, compareUrl(type), who), `${type} ${who}`).toEqual({
            reportA: null,
            reportB: null,
            metaA: null,
            metaB: null,
          });
        }
      }
      await expectAllFresh('a clear');
    });
  });
});
