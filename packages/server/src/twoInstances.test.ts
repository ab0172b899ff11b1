import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ACCOUNT, ACTIVITIES, type ImportResponse, SMTP } from '@trasa/domain';
import { eq, like, sql } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { said, startTestApp, type TestApp } from '../test/harness.js';
import { auditLogs, mailOutbox, smtpServers } from './db/schema.js';
import { clusters } from './db/schema-clusters.js';
import { reportSnapshots } from './db/schema-reports.js';
import { activityRow, client, createTeam, pdf, type Team } from './features/activities/testing.js';
import { multipartBody } from './features/contracts/testDocuments.js';
import { runDeadlineDigest } from './features/mail/digest.js';
import { startTestSmtp, type TestSmtp } from './features/mail/testSmtpServer.js';
import { takeNightlySnapshot } from './features/reports/snapshots.js';
import { connect, runMigrations } from './platform/database.js';
import { ensureDatabase } from './platform/ensureDatabase.js';
import { configurePasswordWork } from './platform/passwords.js';
import { encrypt, loadAppSecret } from './platform/secrets.js';
import { configureSignInGate, THROTTLE } from './platform/throttle.js';
import { appToday } from './platform/time.js';
import { driveCluster } from './seed/drive.js';
import { createCluster, createUser, DEFAULT_PASSWORD, setActivityState, tokenFor } from './seed/factories.js';
import { activityFileStore } from './shared/activityFileStore.js';

/**
 * Two server instances on one PostgreSQL and one shared DATA_DIR, as behind a proxy (docs/operations.md
 * "More than one server"): each has its own connection pool and its own in-process state (rate-limit
 * stores, timers), and they share only the database, the files directory and APP_SECRET.
 */
const one = {} as TestApp;
const two = {} as TestApp;
let dataDir: string;
let url: string;

const instance = (holder: TestApp, secret: string) => startTestApp(holder, url, { secret, dataDir });

beforeAll(async () => {
  // Parallel sign-ins below queue for the hash; on a loaded test machine they may wait long.
  configurePasswordWork({ maxWaiting: { normal: 50, suspect: 50 }, maxWaitMs: 60_000 });
  configureSignInGate(1000, 1000);
  url = await ensureDatabase(inject('pgAdminUrl'), `${inject('dbPrefix')}_${randomBytes(4).toString('hex')}`, inject('templateDb'));
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'trasa-two-'));
  const secret = randomBytes(32).toString('hex');
  await Promise.all([instance(one, secret), instance(two, secret)]);
});

afterAll(async () => {
  configurePasswordWork();
  configureSignInGate();
  for (const t of [one, two]) {
    await t.app?.close();
    await t.db?.$client.end();
  }
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

/** Alternates the two instances, as a round-robin proxy does. */
const either = (i: number) => (i % 2 === 0 ? one : two);

describe('two instances on one database', () => {
  it('start together on an empty database: the migrations run once, under a lock', async () => {
    const fresh = await ensureDatabase(inject('pgAdminUrl'), `${inject('dbPrefix')}_${randomBytes(4).toString('hex')}`);
    const dbs = [connect(fresh, 2), connect(fresh, 2), connect(fresh, 2)];
    try {
      await Promise.all(dbs.map((db) => runMigrations(db)));
      const { rows } = await one.db.execute<{ n: number }>(sql`select count(*)::int as n from drizzle.__drizzle_migrations`);
      const { rows: again } = await (dbs[0] ?? one.db).execute<{ n: number }>(
        sql`select count(*)::int as n from drizzle.__drizzle_migrations`,
      );
      expect(again[0]?.n).toBe(rows[0]?.n);
    } finally {
      await Promise.all(dbs.map((db) => db.$client.end()));
    }
  });

  it('started together on one new DATA_DIR, share the generated APP_SECRET', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'trasa-two-secret-'));
    try {
      const secrets = await Promise.all(Array.from({ length: 6 }, () => loadAppSecret(undefined, dir)));
      expect(new Set(secrets).size).toBe(1);
      expect(await loadAppSecret(undefined, dir)).toBe(secrets[0]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('count failed sign-ins across both: the limit of one address holds whichever instance answers', async () => {
    const u = await createUser(one.db, { email: 'dvoje@primer.rs' });
    const login = (i: number, lozinka: string) =>
      either(i).call({ method: 'POST', url: '/api/user/login', payload: { email: u.email, lozinka }, remoteAddress: '10.9.0.1' });
    const wrong = await Promise.all(Array.from({ length: THROTTLE.perAccountIp }, (_, i) => login(i, 'pogresna-lozinka-1')));
    expect(wrong.map((r) => r.statusCode)).toEqual(Array(THROTTLE.perAccountIp).fill(401));
    for (const i of [0, 1]) {
      const res = await login(i, DEFAULT_PASSWORD);
      expect(res.statusCode).toBe(429);
      expect(res.json().message).toBe(said(ACCOUNT.throttled));
    }
    // Another address is not held back by this one's failures.
    const other = await two.call({
      method: 'POST',
      url: '/api/user/login',
      payload: { email: u.email, lozinka: DEFAULT_PASSWORD },
      remoteAddress: '10.9.0.2',
    });
    expect(other.statusCode).toBe(200);
    // A token one instance signed is taken by the other; signing out on one ends it on both.
    const token = other.json().token as string;
    expect((await one.call({ method: 'GET', url: '/api/user/my-profile', token })).statusCode).toBe(200);
    expect((await one.call({ method: 'POST', url: '/api/user/logout', token })).statusCode).toBeLessThan(300);
    expect((await two.call({ method: 'GET', url: '/api/user/my-profile', token })).statusCode).toBe(401);
  });

  it('store the nightly snapshot once when both run it at the same moment', async () => {
    const today = appToday();
    const results = await Promise.all([
      takeNightlySnapshot(one.db, today),
      takeNightlySnapshot(two.db, today),
      takeNightlySnapshot(one.db, today),
    ]);
    expect(results.filter(Boolean)).toHaveLength(1);
    const rows = await one.db.select().from(reportSnapshots);
    expect(rows.length).toBeGreaterThan(0);
    expect(new Set(rows.map((r) => `${r.date}|${r.type}`)).size).toBe(rows.length);
    // Later runs on either store nothing more.
    expect(await Promise.all([takeNightlySnapshot(two.db, today), takeNightlySnapshot(one.db, today)])).toEqual([false, false]);
  });

  describe('the deadline digest', () => {
    let mail: TestSmtp;
    beforeAll(async () => {
      mail = await startTestSmtp();
    });
    afterAll(async () => {
      await mail.stop();
    });

    it('is mailed once per recipient when both instances run it at the same moment', async () => {
      const TODAY = '2026-03-10';
      const team = await createTeam(one, 'Digest Dvoje');
      await setActivityState(one.db, team.cluster.id, 'A3', { status: 'U toku', datumPocetka: '2026-03-01', rokZavrsetka: '2026-03-11' });
      await one.db.insert(smtpServers).values({
        host: '127.0.0.1',
        port: mail.port,
        email: 'trasa@primer.rs',
        passwordEnc: encrypt(one.ctx.secret, 'tajna-lozinka'),
        inUse: true,
      });
      const deps = (t: TestApp) => ({ db: t.db, mailer: t.ctx.mailer, log: pino({ level: 'silent' }), appUrl: 'http://trasa.test' });
      const runs = await Promise.all([
        runDeadlineDigest(deps(one), { today: TODAY }),
        runDeadlineDigest(deps(two), { today: TODAY }),
        runDeadlineDigest(deps(two), { today: TODAY }),
      ]);
      const sent = runs.reduce((n, r) => n + r.sent, 0);
      expect(sent).toBeGreaterThan(0);
      // Runs after the first find the day's digests in the outbox.
      expect((await runDeadlineDigest(deps(one), { today: TODAY })).sent).toBe(0);
      const rows = await one.db.select().from(mailOutbox).where(eq(mailOutbox.origin, 'digest'));
      expect(rows).toHaveLength(sent);
      expect(new Set(rows.map((r) => r.to)).size).toBe(rows.length);
      expect(rows.every((r) => r.subject === SMTP.digestSubject('10.03.2026.'))).toBe(true);
      expect(mail.received.length).toBe(sent);
    });
  });

  it('run imports of the same names through both one after the other: each cluster is created once', async () => {
    const admin = await tokenFor(one.ctx, await createUser(one.db, { role: 'Admin' }));
    const header = [
      'Кластер',
      'ID насеља',
      'Назив насеља',
      'Успутно насеље',
      'Одговорне групе',
      'Индикативна дужина кластера',
      'Уговорена вредност кластера',
      'Уговор',
    ];
    // The same 200 clusters through both servers at once (names differing in case only). Without one lock
    // across servers both pass the existence check and the second meets the unique index.
    const file = (name: (i: number) => string, prefix: string) =>
      Buffer.from(
        [header, ...Array.from({ length: 200 }, (_, i) => [name(i), `${prefix}-${i}`, `Selo ${prefix} ${i}`, '', '', '', '', ''])]
          .map((r) => r.map((c) => `"${c}"`).join(','))
          .join('\r\n'),
      );
    const send = async (t: TestApp, content: Buffer) => {
      const form = await multipartBody({}, [{ field: 'file', name: 'klasteri.csv', content }]);
      return t.call({ method: 'POST', url: '/api/location/excel-import', token: admin, ...form });
    };
    const answers = await Promise.all([
      send(
        one,
        file((i) => `Dvojnik Uvoz ${i}`, 'DV1'),
      ),
      send(
        two,
        file((i) => `DVOJNIK UVOZ ${i}`, 'DV2'),
      ),
    ]);
    expect(answers.map((r) => r.statusCode)).toEqual([200, 200]);
    const saved = answers.map((r) => (r.json() as ImportResponse).document.uvezeno);
    expect(saved.sort((a, b) => a - b)).toEqual([0, 200]);
    const rows = await one.db.select({ naziv: clusters.naziv }).from(clusters).where(sql`lower(${clusters.naziv}) like 'dvojnik uvoz %'`);
    expect(rows).toHaveLength(200);
  });

  describe('the workflow and the shared files directory', () => {
    let team: Team;
    beforeAll(async () => {
      team = await createTeam(one, 'Dvoje');
    });

    it('one activity finished through both at once: one succeeds, its successors start exactly once', async () => {
      const cluster = await createCluster(one.db, {
        naziv: 'Trka Dvoje',
        groupIds: [team.groups.nar.id, team.groups.izv.id, team.groups.nad.id, team.groups.piu.id],
        naselja: team.settlements.map((s) => s.id),
        contract: team.contract,
      });
      const deps = { db: one.db, store: activityFileStore(dataDir) };
      await driveCluster(deps, cluster.id, { until: 'A1' });
      const apis = [client(one, cluster.id), client(two, cluster.id)];
      apis[0]?.ok(await apis[0].data(team.tokens.izv, 'A2', [{ key: 'Datum', vrednost: appToday() }]));
      const answers = await Promise.all(
        Array.from({ length: 10 }, (_, i) => (apis[i % 2] ?? apis[0])?.status(team.tokens.izv, 'A2', 'Završena')),
      );
      const codes = answers.map((r) => r?.statusCode).sort();
      expect(codes).toEqual([200, ...Array(9).fill(409)]);
      for (const r of answers.filter((a) => a?.statusCode === 409)) expect(r?.json().message).toBe(said(ACTIVITIES.notInProgress));
      for (const code of ['A3', 'A4']) expect(await activityRow(two, cluster.id, code)).toMatchObject({ status: 'U toku', version: 0 });
      const [logged] = await one.db
        .select({ n: sql<number>`count(*)::int` })
        .from(auditLogs)
        .where(like(auditLogs.message, '%je završio aktivnost A2 na klasteru Trka Dvoje%'));
      expect(logged?.n).toBe(1);
    });

    it('a document uploaded through one instance downloads through the other, byte for byte', async () => {
      await driveCluster({ db: one.db, store: activityFileStore(dataDir) }, team.cluster.id, { until: 'A3' });
      const file = pdf('Trasa dvoje.pdf');
      const up = await client(one, team.cluster.id).upload(team.tokens.izv, 'A4', [file]);
      expect(up.statusCode, up.body).toBe(200);
      const stored = up.json().activity.fajlovi.at(-1);
      const activityId = up.json().activity._id as string;
      const down = await two.call({
        method: 'GET',
        url: `/api/files/activity/${team.cluster.id}/${activityId}/${stored._id}`,
        token: team.tokens.nad,
      });
      expect(down.statusCode).toBe(200);
      expect(down.rawPayload.equals(file.content)).toBe(true);
      // Deleted through the second: gone for the first.
      const del = await two.call({
        method: 'DELETE',
        url: `/api/files/activity/${team.cluster.id}/${activityId}/${stored._id}`,
        token: team.tokens.izv,
      });
      expect(del.statusCode, del.body).toBe(200);
      const again = await one.call({
        method: 'GET',
        url: `/api/files/activity/${team.cluster.id}/${activityId}/${stored._id}`,
        token: team.tokens.nad,
      });
      expect(again.statusCode).toBe(404);
      expect((await readdir(path.join(dataDir, 'files'))).length).toBeGreaterThan(0);
    });
  });
});
