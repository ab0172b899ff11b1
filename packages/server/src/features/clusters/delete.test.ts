import { CLUSTERS } from '@trasa/domain';
import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { said, useTestApp } from '../../../test/harness.js';
import { activities, activityFiles } from '../../db/schema-activities.js';
import { clusters, topicComments, topics } from '../../db/schema-clusters.js';
import { createCluster, createGroup, createUser, tokenFor } from '../../seed/factories.js';

/** Issue 14: deleting a cluster never takes open issues, documents or started work with it. */

const t = useTestApp();
let admin: string;
let adminId: string;
let groupId: string;

beforeAll(async () => {
  const user = await createUser(t.db, { role: 'Admin' });
  adminId = user.id;
  admin = await tokenFor(t.ctx, user);
  groupId = (await createGroup(t.db)).id;
});

const remove = (id: string) => t.call({ method: 'DELETE', url: `/api/location/${id}`, token: admin });
const exists = async (id: string) => (await t.db.select().from(clusters).where(eq(clusters.id, id))).length === 1;

async function openTopic(clusterId: string, status: 'otvoren' | 'zatvoren' = 'otvoren') {
  const [topic] = await t.db
    .insert(topics)
    .values({ clusterId, groupId, opis: 'Trasa kroz dvorište', status, createdBy: adminId })
    .returning();
  if (!topic) throw new Error('topic');
  await t.db.insert(topicComments).values({ topicId: topic.id, tekst: 'Komentar', groupId, createdBy: adminId });
  return topic;
}

async function activityOf(clusterId: string, code: string) {
  const [row] = await t.db
    .select()
    .from(activities)
    .where(and(eq(activities.clusterId, clusterId), eq(activities.code, code)));
  if (!row) throw new Error(`activity ${code}`);
  return row;
}

async function start(clusterId: string, code: string) {
  await t.db
    .update(activities)
    .set({ status: 'U toku', datumPocetka: '2026-01-10' })
    .where(and(eq(activities.clusterId, clusterId), eq(activities.code, code)));
}

async function upload(clusterId: string, code: string) {
  const activity = await activityOf(clusterId, code);
  await t.db.insert(activityFiles).values({
    activityId: activity.id,
    storedName: '00000000-0000-4000-8000-000000000001',
    originalnoIme: 'trasa.pdf',
    mimetype: 'application/pdf',
    size: 10,
  });
}

describe('DELETE /api/location/:id', () => {
  it('refuses while the cluster has open topics and started activities, naming what holds it', async () => {
    const c = await createCluster(t.db);
    for (let i = 0; i < 3; i++) await openTopic(c.id);
    const codes = (await t.db.select({ code: activities.code }).from(activities).where(eq(activities.clusterId, c.id))).map((a) => a.code);
    expect(codes.length).toBeGreaterThanOrEqual(5);
    for (const code of codes.slice(0, 5)) await start(c.id, code);
    const res = await remove(c.id);
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe(said('Klaster se ne može obrisati: ima otvorene teme (3) i započete aktivnosti (5).'));
    expect(await exists(c.id)).toBe(true);
    expect(await t.db.select().from(topics).where(eq(topics.clusterId, c.id))).toHaveLength(3);
  });

  it('a document makes its activity started even while it is not; both are named', async () => {
    const c = await createCluster(t.db);
    const [first] = await t.db.select({ code: activities.code }).from(activities).where(eq(activities.clusterId, c.id)).limit(1);
    await upload(c.id, first?.code ?? '');
    const res = await remove(c.id);
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe(said(CLUSTERS.deleteBlocked({ openTopics: 0, documents: 1, startedActivities: 1 })));
    expect(res.json().message).toBe(said('Klaster se ne može obrisati: ima dokumente (1) i započete aktivnosti (1).'));
    expect(await exists(c.id)).toBe(true);
  });

  it('goes with its closed topics and not-started activity records', async () => {
    const c = await createCluster(t.db);
    const closed = await openTopic(c.id, 'zatvoren');
    expect((await t.db.select().from(activities).where(eq(activities.clusterId, c.id))).length).toBeGreaterThan(0);
    const res = await remove(c.id);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toBe(said(CLUSTERS.deleted));
    expect(await exists(c.id)).toBe(false);
    expect(await t.db.select().from(topics).where(eq(topics.id, closed.id))).toEqual([]);
    expect(await t.db.select().from(activities).where(eq(activities.clusterId, c.id))).toEqual([]);
    expect((await remove(c.id)).statusCode).toBe(404);
  });
});
