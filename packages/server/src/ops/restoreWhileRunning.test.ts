import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/harness.js';
import { groups } from '../db/schema.js';
import { activities, activityComments } from '../db/schema-activities.js';
import { clusterGroups, topics } from '../db/schema-clusters.js';
import { ensureDatabase } from '../platform/ensureDatabase.js';
import { configurePasswordWork } from '../platform/passwords.js';
import { createCluster, createOrgTree, createUser, DEFAULT_PASSWORD, tokenFor } from '../seed/factories.js';
import { backup, RestoreRefused, restore } from './backup.js';

/**
 * A restore while a second server keeps running on the database (docs/operations.md "Backups"): two
 * application instances on one PostgreSQL and one DATA_DIR, as twoInstances.test.ts has them. The
 * running one kept values by data version before the restore; the restored versions are the backup's
 * moved by the load, which may be the very numbers it kept them under (this test makes them so). Only
 * the database's epoch (platform/epoch.ts) tells the restored data apart.
 */
const one = {} as TestApp;
const two = {} as TestApp;
let dataDir: string;
let url: string;

beforeAll(async () => {
  configurePasswordWork({ maxWaiting: { normal: 50, suspect: 50 }, maxWaitMs: 60_000 });
  url = await ensureDatabase(inject('pgAdminUrl'), `${inject('dbPrefix')}_${randomBytes(4).toString('hex')}`, inject('templateDb'));
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'trasa-restore-running-'));
  const secret = randomBytes(32).toString('hex');
  await Promise.all([startTestApp(one, url, { secret, dataDir }), startTestApp(two, url, { secret, dataDir })]);
});

afterAll(async () => {
  configurePasswordWork();
  for (const t of [one, two]) {
    await t.app?.close();
    await t.db?.$client.end();
  }
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

/**
 * The data versions the group's kept cluster scope and whole cluster list are kept under (the epoch
 * apart); the topics and comments pages read their rows through that scope.
 */
const NAMES = ['groups', 'visibility', 'locations'];
async function versions(): Promise<Record<string, string>> {
  const { rows } = await one.db.execute<{ name: string; version: string }>(
    sql`select name, version::text as version from report_cache_state where name in (${sql.join(
      NAMES.map((n) => sql`${n}`),
      sql`, `,
    )})`,
  );
  return Object.fromEntries(rows.map((r) => [r.name, r.version]));
}

describe('a restore while a server runs on the database', () => {
  it('is refused without --while-running; with it, the running server answers the restored data and every session ends', async () => {
    // The group sees one cluster with a topic and a comment; another cluster, with its topic and three
    // comments, is another group's only.
    const tree = await createOrgTree(one.db, 'Povraćaj');
    const team = tree.leaf;
    const worker = await createUser(one.db, { role: 'Zaposleni', groupId: team.id, email: 'radnik.povracaj@primer.rs' });
    const seen = await createCluster(one.db, { naziv: 'Vidljivi klaster povraćaja', groupIds: [team.id] });
    const hidden = await createCluster(one.db, { naziv: 'Skriveni klaster povraćaja', groupIds: [tree.other.id] });
    const activityOf = async (clusterId: string) =>
      (await one.db.select({ id: activities.id }).from(activities).where(eq(activities.clusterId, clusterId)).limit(1))[0]?.id ?? '';
    await one.db.insert(topics).values({ clusterId: seen.id, groupId: team.id, opis: 'Vidljiva tema', createdBy: worker.id });
    await one.db.insert(topics).values({ clusterId: hidden.id, groupId: tree.other.id, opis: 'Skrivena tema povraćaja' });
    await one.db.insert(activityComments).values({ activityId: await activityOf(seen.id), komentar: 'Vidljivi komentar' });
    const hiddenActivity = await activityOf(hidden.id);
    await one.db
      .insert(activityComments)
      .values([1, 2, 3].map((n) => ({ activityId: hiddenActivity, komentar: `Skriveni komentar povraćaja ${n}` })));

    // Sessions issued before the backup: one stays, one is signed out after it.
    const login = async (t: TestApp) => {
      const res = await t.call({ method: 'POST', url: '/api/user/login', payload: { email: worker.email, lozinka: DEFAULT_PASSWORD } });
      expect(res.statusCode, res.body).toBe(200);
      return res.json().token as string;
    };
    const kept = await login(one);
    const signedOut = await tokenFor(one.ctx, worker);

    const archive = path.join(dataDir, 'pre.tar.gz');
    await backup({ databaseUrl: url, dataDir, out: archive });

    // After the backup, in one transaction: the group is given the hidden cluster, and a group renamed, so
    // that each version the scope is kept under moves once (as the restore's load will move each once).
    await one.db.transaction(async (tx) => {
      await tx.insert(clusterGroups).values({ clusterId: hidden.id, groupId: team.id });
      await tx
        .update(groups)
        .set({ naziv: sql`${groups.naziv} || ' (preimenovan)'` })
        .where(eq(groups.id, tree.root.id));
    });
    expect((await one.call({ method: 'POST', url: '/api/user/logout', token: signedOut })).statusCode).toBe(200);

    // The running server reads, and keeps, what the group now sees: the hidden cluster's list row, search
    // hit, topic and comments.
    const reads = ['/api/location?limit=1000', '/api/search/location?eng=povra&srb=povra', '/api/topic?limit=10', '/api/comment?limit=10'];
    const answers = async (t: TestApp, token: string) => {
      const out: string[] = [];
      for (const url of reads) {
        const res = await t.call({ method: 'GET', url, token });
        expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
        out.push(res.body);
      }
      return out.join('\n');
    };
    const before = await answers(two, kept);
    expect(before).toContain('Skriveni klaster povraćaja');
    expect(before).toContain('Skrivena tema povraćaja');
    for (const n of [1, 2, 3]) expect(before).toContain(`Skriveni komentar povraćaja ${n}`);
    expect((await two.call({ method: 'GET', url: '/api/user/my-profile', token: signedOut })).statusCode).toBe(401);
    const read = await versions();

    // Refused while the two servers are connected, and nothing changed.
    await expect(restore({ databaseUrl: url, dataDir, archive, force: true })).rejects.toThrow(RestoreRefused);
    await expect(restore({ databaseUrl: url, dataDir, archive, force: true })).rejects.toThrow(/--while-running/);
    expect(
      (
        await one.db
          .select()
          .from(clusterGroups)
          .where(and(eq(clusterGroups.clusterId, hidden.id), eq(clusterGroups.groupId, team.id)))
      ).length,
    ).toBe(1);

    await restore({ databaseUrl: url, dataDir, archive, force: true, whileRunning: true });
    // The case this test is about: the restored data's versions are the very numbers the running server
    // kept its values under.
    expect(await versions()).toEqual(read);

    // Every session issued before the restore is refused, on both servers: the signed-out one too.
    for (const t of [one, two]) {
      for (const token of [kept, signedOut]) {
        expect((await t.call({ method: 'GET', url: '/api/user/my-profile', token })).statusCode).toBe(401);
      }
    }
    // Signed in again, the group sees what the restored database says: not the hidden cluster.
    const after = await answers(two, await login(two));
    expect(after).toContain('Vidljivi klaster povraćaja');
    expect(after).toContain('Vidljiva tema');
    expect(after).toContain('Vidljivi komentar');
    for (const text of ['Skriveni klaster povraćaja', 'Skrivena tema povraćaja', 'Skriveni komentar povraćaja', 'preimenovan']) {
      expect(after).not.toContain(text);
    }
    // The server that ran through the restore answers the same as one started after it.
    const third = {} as TestApp;
    await startTestApp(third, url, { secret: randomBytes(32).toString('hex'), dataDir });
    try {
      const fresh = await answers(third, await login(third));
      expect(after).toBe(fresh);
    } finally {
      await third.app.close();
      await third.db.$client.end();
    }
    expect(
      (
        await one.db
          .select()
          .from(clusterGroups)
          .where(inArray(clusterGroups.clusterId, [hidden.id]))
      ).map((r) => r.groupId),
    ).toEqual([tree.other.id]);
  });
});
