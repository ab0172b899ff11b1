import { Readable } from 'node:stream';
import { ACTIVITIES, addDays, asTyped, DATA_KEYS } from '@trasa/domain';
import { and, eq, isNull, like, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { said, useTestApp } from '../../../test/harness.js';
import { auditLogs } from '../../db/schema.js';
import { activities, activityFiles } from '../../db/schema-activities.js';
import { clusters } from '../../db/schema-clusters.js';
import { appToday } from '../../platform/time.js';
import { minimalPdf } from '../../seed/demoContracts.js';
import { driveCluster } from '../../seed/drive.js';
import { createCluster } from '../../seed/factories.js';
import { activityFileStore } from '../../shared/activityFileStore.js';
import { multipartBody } from '../contracts/testDocuments.js';
import { addActivityFiles, type FileDeps } from '../files/service.js';
import { saveActivityData } from './data.js';
import { SYSTEM } from './policy.js';
import { finishActivity, resolveControl } from './service.js';
import { activityRow, client, createHolder, createTeam, type Team } from './testing.js';

/**
 * The workflow's service functions as the demo seed calls them (SYSTEM, a past `today`), reactivation,
 * and concurrent steps on one cluster.
 */
const t = useTestApp();
const today = appToday();
let team: Team;
let deps: FileDeps;

beforeAll(async () => {
  team = await createTeam(t, 'Servis');
  deps = { db: t.db, store: activityFileStore(t.ctx.config.dataDir) };
  await createHolder(t, 'Vodovod Servis');
});

async function newCluster(naziv: string) {
  return createCluster(t.db, {
    naziv,
    groupIds: [team.groups.nar.id, team.groups.izv.id, team.groups.nad.id, team.groups.piu.id],
    naselja: team.settlements.map((s) => s.id),
    contract: team.contract,
  });
}

const count = async (pattern: string) =>
  (await t.db.select({ n: sql<number>`count(*)::int` }).from(auditLogs).where(like(auditLogs.message, pattern)))[0]?.n ?? 0;

describe('the system drives a cluster (demo seed)', () => {
  it('runs every activity at a past date, by the same rules, rejections included, and logs as the system', async () => {
    const cluster = await newCluster('Seed Servis');
    const day = '2025-03-03';
    const at = { today: day };
    const row = (code: string) => activityRow(t, cluster.id, code);
    expect(await driveCluster(deps, cluster.id, { ...at, until: 'A6' })).toEqual(['A1', 'A2', 'A3', 'A4', 'A4.1', 'A5', 'A5.1']);
    // A6.1 with remarks: the LU must be requested again (A5), and A6 then holds the new LU only.
    await resolveControl(deps, SYSTEM, (await row('A6.1')).id, true, at);
    expect(await row('A5')).toMatchObject({ status: 'U toku', returned: 1, datumPocetka: day });
    await driveCluster(deps, cluster.id, { ...at, until: 'A23.1' });
    expect(await row('A6')).toMatchObject({ status: 'Završena', version: 1 });
    expect(await row('A6.1')).toMatchObject({ status: 'Završena', version: 1, faults: false });
    const a6files = await client(t, cluster.id).liveFiles('A6');
    expect(a6files.map((f) => [f.originalnoIme, f.revision])).toEqual([['Lokacijski uslovi_revizija=1.pdf', 1]]);
    // A24 with remarks sends A23 back.
    await resolveControl(deps, SYSTEM, (await row('A24')).id, true, at);
    expect(await row('A23')).toMatchObject({ status: 'U toku', returned: 1 });
    await driveCluster(deps, cluster.id, at);
    expect(await row('A24')).toMatchObject({ status: 'Završena', version: 1, faults: false });
    const rows = await t.db.select().from(activities).where(eq(activities.clusterId, cluster.id));
    expect(rows).toHaveLength(36);
    expect(rows.filter((r) => r.status !== 'Završena').map((r) => r.code)).toEqual([]);
    expect(new Set(rows.map((r) => r.datumZavrsetka))).toEqual(new Set([day]));
    expect((await row('A1')).rokZavrsetka).toBe(addDays(day, 15));
    expect(await count('Sistem je završio aktivnost A2 na klasteru Seed Servis%')).toBe(1);
    // A7 took the holder A6.1 named.
    expect((await row('A7')).podaci).toEqual(expect.arrayContaining([expect.objectContaining({ key: 'A7Taksa', vrednost: '0' })]));
  });

  it('stops where told, and still refuses what the rules refuse', async () => {
    const cluster = await newCluster('Seed Servis Pola');
    await driveCluster(deps, cluster.id, { until: 'A2' });
    expect((await activityRow(t, cluster.id, 'A3')).status).toBe('U toku');
    const a3 = await activityRow(t, cluster.id, 'A3');
    await expect(finishActivity(deps, SYSTEM, a3.id)).rejects.toThrow(ACTIVITIES.required);
    await expect(saveActivityData(deps, SYSTEM, a3.id, [{ key: 'Datum', vrednost: addDays(today, 1) }])).rejects.toThrow(
      ACTIVITIES.keyNotAllowed(asTyped('Datum')),
    );
    const a5 = await activityRow(t, cluster.id, 'A5');
    await expect(finishActivity(deps, SYSTEM, a5.id)).rejects.toThrow(ACTIVITIES.notInProgress);
    await expect(resolveControl(deps, SYSTEM, a3.id, false)).rejects.toThrow(ACTIVITIES.notControl);
  });
});

describe('a new cluster', () => {
  it('gets its 36 activity records with the cluster, and its client starts A1', async () => {
    const res = await t.call({
      method: 'POST',
      url: '/api/location',
      token: team.tokens.admin,
      payload: {
        naziv: 'Novi Servis',
        odgovoran: [team.groups.nar.id, team.groups.izv.id],
        ugovor: team.contract.id,
        naselja: [team.settlements[0]?.id],
        usputnaNaselja: [],
      },
    });
    expect(res.statusCode, res.body).toBe(201);
    const id = res.json().location._id as string;
    const rows = await t.db.select().from(activities).where(eq(activities.clusterId, id));
    expect(rows).toHaveLength(36);
    expect(new Set(rows.map((r) => r.status))).toEqual(new Set(['Nije započeta']));
    const api = client(t, id);
    expect(api.ok(await api.status(team.tokens.nar, 'A1', 'U toku')).activity.status).toBe('U toku');
  });

  it('an imported cluster gets its records in the import', async () => {
    const rows = [
      [
        'Кластер',
        'ID насеља',
        'Назив насеља',
        'Успутно насеље',
        'Одговорне групе',
        'Индикативна дужина кластера',
        'Уговорена вредност кластера',
        'Уговор',
      ],
      ['Uvezen Servis', 'SRV-1', 'Uvezeno Selo', 'ne', '', '', '', ''],
    ];
    const content = Buffer.from(rows.map((r) => r.map((c) => `"${c}"`).join(',')).join('\r\n'), 'utf8');
    const form = await multipartBody({}, [{ field: 'file', name: 'klasteri.csv', content }]);
    const res = await t.call({ method: 'POST', url: '/api/location/excel-import', token: team.tokens.admin, ...form });
    expect(res.statusCode, res.body).toBe(200);
    const [cluster] = await t.db.select().from(clusters).where(eq(clusters.naziv, 'Uvezen Servis'));
    expect(cluster).toBeTruthy();
    const records = await t.db
      .select()
      .from(activities)
      .where(eq(activities.clusterId, cluster?.id ?? ''));
    expect(records).toHaveLength(36);
  });
});

describe('reactivation (Admin)', () => {
  let api: ReturnType<typeof client>;
  let clusterId: string;

  beforeAll(async () => {
    const cluster = await newCluster('Reaktivacija Servis');
    clusterId = cluster.id;
    api = client(t, cluster.id);
    await driveCluster(deps, cluster.id, { until: 'A2' });
    // A3 is touched (a comment), A4 is not.
    api.ok(await api.comment(team.tokens.izv, 'A3', 'Čekamo IOL od opštine.'), 201);
  });

  it('is the Admin’s only, and only of a finished activity', async () => {
    await api.refused(() => api.status(team.tokens.izv, 'A2', 'U toku'), 403, ACTIVITIES.onlyAdminReactivates);
    await api.refused(() => api.status(team.tokens.manager, 'A2', 'U toku'), 403);
    await api.refused(() => api.status(team.tokens.admin, 'A3', 'U toku'), 409, ACTIVITIES.alreadyStarted);
    expect(api.ok(await api.get(team.tokens.admin, 'A2')).activity.dozvole.reaktivacija).toBe(true);
    expect(api.ok(await api.get(team.tokens.izv, 'A2')).activity.dozvole.reaktivacija).toBe(false);
  });

  it('puts the activity back in progress and its untouched successors back to the start', async () => {
    const res = api.ok(await api.status(team.tokens.admin, 'A2', 'U toku'));
    expect(res.message).toBe(said(ACTIVITIES.statusChanged));
    expect(res.activity).toMatchObject({ status: 'U toku', datumZavrsetka: null, version: 0, returned: 0 });
    expect(await activityRow(t, clusterId, 'A4')).toMatchObject({ status: 'Nije započeta', datumPocetka: null, rokZavrsetka: null });
    expect(await activityRow(t, clusterId, 'A3')).toMatchObject({ status: 'U toku' });
    expect(await count('%je ponovo aktivirao aktivnost A2 na klasteru Reaktivacija Servis (vraćene na početak: A4)%')).toBe(1);
    // Finishing again starts A4 again; A3 runs on.
    api.ok(await api.status(team.tokens.izv, 'A2', 'Završena'));
    expect(await activityRow(t, clusterId, 'A4')).toMatchObject({ status: 'U toku', version: 0, datumPocetka: today });
  });

  it('finishing a reactivated activity again leaves its finished successors finished (no restart down the flow)', async () => {
    const cluster = await newCluster('Korekcija Servis');
    await driveCluster(deps, cluster.id, { until: 'A19' });
    const other = client(t, cluster.id);
    const before = await activityRow(t, cluster.id, 'A18');
    expect(before).toMatchObject({ status: 'Završena' });
    // The Admin reopens A17 to correct the length; the contractor finishes it again.
    other.ok(await other.status(team.tokens.admin, 'A17', 'U toku'));
    other.ok(await other.status(team.tokens.izv, 'A17', 'Završena'));
    expect(await activityRow(t, cluster.id, 'A18')).toMatchObject({ status: 'Završena', version: before.version });
    expect(await activityRow(t, cluster.id, 'A19')).toMatchObject({ status: 'Završena' });
  });

  it('a control is not decided while what it checks is being redone', async () => {
    const cluster = await newCluster('Kontrola Servis');
    await driveCluster(deps, cluster.id, { until: 'A4' });
    const other = client(t, cluster.id);
    // A4.1 is touched (a comment), so reactivating A4 leaves it running.
    other.ok(await other.comment(team.tokens.nad, 'A4.1', 'Pregledamo IDR.'), 201);
    other.ok(await other.status(team.tokens.admin, 'A4', 'U toku'));
    expect(await activityRow(t, cluster.id, 'A4.1')).toMatchObject({ status: 'U toku' });
    await other.refused(() => other.control(team.tokens.nad, 'A4.1', true), 409, ACTIVITIES.controlledNotFinished);
    expect(await activityRow(t, cluster.id, 'A4')).toMatchObject({ status: 'U toku', returned: 0 });
    other.ok(await other.status(team.tokens.izv, 'A4', 'Završena'));
    other.ok(await other.control(team.tokens.nad, 'A4.1', false));
  });

  it('reactivating A5.1 takes back A6 (and its LU copy) and the untouched A6.1; deciding again finishes A6 again', async () => {
    const cluster = await newCluster('Lokacijski uslovi Servis');
    await driveCluster(deps, cluster.id, { until: 'A6' });
    const other = client(t, cluster.id);
    const a6 = await activityRow(t, cluster.id, 'A6');
    const liveCopies = async () =>
      (
        await t.db
          .select()
          .from(activityFiles)
          .where(and(eq(activityFiles.activityId, a6.id), isNull(activityFiles.deletedAt)))
      ).length;
    expect(a6).toMatchObject({ status: 'Završena' });
    expect(await liveCopies()).toBeGreaterThan(0);
    expect(await activityRow(t, cluster.id, 'A6.1')).toMatchObject({ status: 'U toku' });

    other.ok(await other.status(team.tokens.admin, 'A5.1', 'U toku'));
    expect(await activityRow(t, cluster.id, 'A5.1')).toMatchObject({ status: 'U toku', faults: null });
    expect(await activityRow(t, cluster.id, 'A6')).toMatchObject({ status: 'Nije započeta', datumZavrsetka: null });
    expect(await activityRow(t, cluster.id, 'A6.1')).toMatchObject({ status: 'Nije započeta', datumPocetka: null });
    expect(await liveCopies()).toBe(0);
    expect(await count('%ponovo aktivirao aktivnost A5.1 na klasteru Lokacijski uslovi Servis (vraćene na početak: A6, A6.1)%')).toBe(1);

    other.ok(await other.control(team.tokens.izv, 'A5.1', false));
    expect(await activityRow(t, cluster.id, 'A6')).toMatchObject({ status: 'Završena', datumZavrsetka: today });
    expect(await activityRow(t, cluster.id, 'A6.1')).toMatchObject({ status: 'U toku' });
    expect(await liveCopies()).toBeGreaterThan(0);
  });

  it('reactivating A5.1 leaves A6 finished when A6.1 was already worked on', async () => {
    const cluster = await newCluster('Lokacijski uslovi rad Servis');
    await driveCluster(deps, cluster.id, { until: 'A6' });
    const other = client(t, cluster.id);
    other.ok(await other.comment(team.tokens.piu, 'A6.1', 'Proveravamo IJO.'), 201);
    other.ok(await other.status(team.tokens.admin, 'A5.1', 'U toku'));
    expect(await activityRow(t, cluster.id, 'A6')).toMatchObject({ status: 'Završena' });
    expect(await activityRow(t, cluster.id, 'A6.1')).toMatchObject({ status: 'U toku' });
  });

  it('never reactivates an automatic activity', async () => {
    const cluster = await newCluster('Automatska Servis');
    await driveCluster(deps, cluster.id, { until: 'A6.1' });
    const other = client(t, cluster.id);
    await other.refused(() => other.status(team.tokens.admin, 'A6', 'U toku'), 400, ACTIVITIES.automatic);
    // A control reactivated loses its decision and is decided again.
    const res = other.ok(await other.status(team.tokens.admin, 'A6.1', 'U toku'));
    expect(res.activity).toMatchObject({ status: 'U toku', faults: null });
  });
});

describe('concurrent steps on one cluster', () => {
  it('ten finishes of one activity at once: one succeeds, the successors start once', async () => {
    const cluster = await newCluster('Trka Servis');
    await driveCluster(deps, cluster.id, { until: 'A1' });
    const api = client(t, cluster.id);
    api.ok(await api.data(team.tokens.izv, 'A2', [{ key: 'Datum', vrednost: today }]));
    const answers = await Promise.all(Array.from({ length: 10 }, () => api.status(team.tokens.izv, 'A2', 'Završena')));
    const codes = answers.map((r) => r.statusCode).sort();
    expect(codes).toEqual([200, ...Array(9).fill(409)]);
    for (const r of answers.filter((a) => a.statusCode === 409)) expect(r.json().message).toBe(said(ACTIVITIES.notInProgress));
    for (const code of ['A3', 'A4']) expect(await activityRow(t, cluster.id, code)).toMatchObject({ status: 'U toku', version: 0 });
    expect(await count('%je završio aktivnost A2 na klasteru Trka Servis%')).toBe(1);
  });

  it('A3 finishing while A4.1 is accepted starts A5 exactly once', async () => {
    const clusters = await Promise.all(['Trka A5 Servis 1', 'Trka A5 Servis 2', 'Trka A5 Servis 3'].map(newCluster));
    await Promise.all(
      clusters.map(async (cluster) => {
        // The race's start: A3 in progress with its answer given, A4.1 in progress.
        await driveCluster(deps, cluster.id, { until: 'A2' });
        await saveActivityData(deps, SYSTEM, (await activityRow(t, cluster.id, 'A3')).id, [{ key: 'DaNe', vrednost: 'Da' }]);
        const a4 = await activityRow(t, cluster.id, 'A4');
        const idr = minimalPdf(['IDR']);
        const stored = await deps.store.save(Readable.from([idr]), 'IDR.pdf', { maxBytes: idr.length });
        await addActivityFiles(deps, SYSTEM, a4.id, [stored], {});
        await finishActivity(deps, SYSTEM, a4.id);
        expect(await activityRow(t, cluster.id, 'A4.1')).toMatchObject({ status: 'U toku' });
        expect(await activityRow(t, cluster.id, 'A3')).toMatchObject({ status: 'U toku' });
      }),
    );
    await Promise.all(
      clusters.map(async (cluster) => {
        const api = client(t, cluster.id);
        const [a3, a41] = await Promise.all([api.status(team.tokens.izv, 'A3', 'Završena'), api.control(team.tokens.nad, 'A4.1', false)]);
        expect([a3.statusCode, a41.statusCode]).toEqual([200, 200]);
        expect(await activityRow(t, cluster.id, 'A5')).toMatchObject({ status: 'U toku', version: 0 });
        expect(await count(`%klasteru ${cluster.naziv}%pokrenute: A5)%`)).toBe(1);
      }),
    );
  });
});

/** Settles `promise` into a flag, so a test can see whether it is still waiting. */
function watch<T>(promise: Promise<T>) {
  const state = { done: false, result: undefined as unknown };
  const settled = promise.then(
    (value) => {
      state.done = true;
      state.result = value;
    },
    (err: unknown) => {
      state.done = true;
      state.result = err;
    },
  );
  return { state, settled };
}
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('steps and the records they rely on, changed at the same time', () => {
  it('choosing an IJO holder while it is being deleted: the save waits for the delete, then refuses it (no reference to a deleted holder)', async () => {
    const cluster = await newCluster('Trka IJO');
    await driveCluster(deps, cluster.id, { today, until: 'A6' });
    const holder = await createHolder(t, 'Vodovod Trka');
    const a61 = await activityRow(t, cluster.id, 'A6.1');
    // Another transaction deletes the holder, as ijo/service.ts does (row locked FOR UPDATE first).
    const other = await t.db.$client.connect();
    try {
      await other.query('begin');
      await other.query('select 1 from ijo_holders where id = $1 for update', [holder.id]);
      const save = watch(saveActivityData(deps, SYSTEM, a61.id, [{ key: DATA_KEYS.holders, vrednost: holder.id }], { today }));
      await pause(400);
      expect(save.state).toEqual({ done: false, result: undefined });
      await other.query('delete from ijo_holders where id = $1', [holder.id]);
      await other.query('commit');
      await save.settled;
      expect(save.state.result).toMatchObject({ statusCode: 400, message: ACTIVITIES.unknownHolder });
    } finally {
      other.release();
    }
    expect(JSON.stringify((await activityRow(t, cluster.id, 'A6.1')).podaci)).not.toContain(holder.id);
  });

  it('a comment waits for a step running on its cluster, so the step decides on what was there before it', async () => {
    const cluster = await newCluster('Trka komentar');
    await driveCluster(deps, cluster.id, { today, until: 'A3' });
    const a3 = await activityRow(t, cluster.id, 'A3');
    const other = await t.db.$client.connect();
    try {
      await other.query('begin');
      // A workflow step holds the cluster row (ClusterWorkflow.lockForActivity).
      await other.query('select 1 from clusters where id = $1 for update', [cluster.id]);
      const comment = watch(
        t.call({ method: 'POST', url: `/api/comment/${a3.id}`, token: team.tokens.izv, payload: { komentar: 'Trasa pomerena.' } }),
      );
      await pause(400);
      expect(comment.state.done).toBe(false);
      await other.query('commit');
      await comment.settled;
      const res = comment.state.result as Awaited<ReturnType<typeof t.call>>;
      expect(res.statusCode).toBe(201);
      expect(res.json().komentar).toMatchObject({ komentar: 'Trasa pomerena.' });
    } finally {
      other.release();
    }
  });
});

describe('who sees and who acts', () => {
  let api: ReturnType<typeof client>;
  beforeAll(async () => {
    const cluster = await newCluster('Vidljivost Servis');
    api = client(t, cluster.id);
    await driveCluster(deps, cluster.id, { until: 'A1' });
  });

  it('a manager and the Admin see the activity but may change nothing', async () => {
    for (const token of [team.tokens.manager, team.tokens.admin]) {
      const a2 = api.ok(await api.get(token, 'A2')).activity;
      expect(a2.dozvole).toMatchObject({ menjanje: false, pokretanje: false });
      await api.refused(() => api.data(token, 'A2', [{ key: 'Datum', vrednost: today }]), 403, ACTIVITIES.notResponsible);
      await api.refused(() => api.status(token, 'A2', 'Završena'), 403, ACTIVITIES.notResponsible);
    }
    expect(api.ok(await api.get(team.tokens.izv, 'A2')).activity.dozvole.menjanje).toBe(true);
    expect(api.ok(await api.get(team.tokens.nar, 'A2')).activity.dozvole.menjanje).toBe(false);
  });

  it("another company's employee gets 404 for everything", async () => {
    const s = team.tokens.sibling;
    await api.refused(() => api.get(s, 'A2'), 404);
    await api.refused(() => api.data(s, 'A2', [{ key: 'Datum', vrednost: today }]), 404);
    await api.refused(() => api.status(s, 'A2', 'Završena'), 404);
    await api.refused(() => api.control(s, 'A4.1', false), 404);
    await api.refused(() => api.comment(s, 'A2', 'Zdravo'), 404);
  });
});
