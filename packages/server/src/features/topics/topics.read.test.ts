import { TOPICS } from '@trasa/domain';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { createCluster } from '../../seed/factories.js';
import {
  adminToken,
  allSeeingToken,
  call,
  drina,
  leafToken,
  listIds,
  managerToken,
  NO_ID,
  open,
  otherToken,
  rootToken,
  setupTopics,
  t,
  tree,
  zlatibor,
} from './topicsSetup.js';

setupTopics();

describe('GET /api/topic', () => {
  let a: string;
  let b: string;
  let c: string;
  let d: string;
  beforeAll(async () => {
    const cluster = await createCluster(t.db, { naziv: 'Šabac Ђурђевац', groupIds: [tree.leaf.id] });
    a = (
      await open(leafToken, { locationId: cluster.id, odgovoran: tree.leaf.id, opis: 'Đorđe javlja oštećenje kabla', prioritet: 'visok' })
    )._id;
    b = (await open(leafToken, { locationId: cluster.id, odgovoran: tree.leaf.id, opis: 'Нема струје у шахту 50%', prioritet: 'nizak' }))
      ._id;
    c = (await open(otherToken, { locationId: drina.id, odgovoran: tree.other.id, opis: 'Tema nadzora na Drini' }))._id;
    d = (await open(leafToken, { locationId: cluster.id, odgovoran: tree.leaf.id, opis: 'zatvorena tema' }))._id;
    expect((await call('PATCH', `/api/topic/${d}`, leafToken, { status: 'zatvoren' })).statusCode).toBe(200);
  });

  it('lists only topics of visible clusters, newest change first, with total and paging', async () => {
    const leaf = await listIds(leafToken);
    expect(leaf).toEqual(expect.arrayContaining([a, b, d]));
    expect(leaf).not.toContain(c);
    expect(await listIds(otherToken)).toContain(c);
    expect(await listIds(otherToken)).not.toContain(a);
    expect(await listIds(managerToken)).toEqual(expect.arrayContaining([a, b, d]));
    expect(await listIds(rootToken)).toEqual([]);
    expect(await listIds(adminToken)).toEqual(expect.arrayContaining([a, b, c, d]));
    expect(await listIds(allSeeingToken)).toEqual(expect.arrayContaining([a, b, c, d]));
    const all = (await call('GET', '/api/topic?limit=1000', leafToken)).json();
    const times = all.data.map((x: { updatedAt: string }) => x.updatedAt);
    expect(times).toEqual([...times].sort().reverse());
    expect(all.data[0]._id).toBe(d);
    expect(all.total).toBe(all.data.length);
    expect(all.data.every((x: { komentari: unknown[] }) => x.komentari.length === 0)).toBe(true);
    const page2 = (await call('GET', '/api/topic?page=2&limit=1', leafToken)).json();
    expect(page2.total).toBe(all.total);
    expect(page2.data.map((x: { _id: string }) => x._id)).toEqual([all.data[1]._id]);
  });

  it('filters by status and priority, empty meaning all', async () => {
    const mine = (query: string) => listIds(leafToken, `q=sabac&${query}`);
    const open = await mine('status=otvoren');
    expect(open.sort()).toEqual([a, b].sort());
    expect(await mine('status=zatvoren')).toEqual([d]);
    expect((await mine('status=&prioritet=')).sort()).toEqual([a, b, d].sort());
    expect(await mine('prioritet=visok&status=')).toEqual([a]);
    expect(await mine('prioritet=srednji')).toEqual([d]);
    expect(await mine('prioritet=nizak&status=otvoren')).toEqual([b]);
    expect(await mine('prioritet=nizak&status=zatvoren')).toEqual([]);
    const counted = (await call('GET', '/api/topic?q=sabac&status=otvoren&limit=1', leafToken)).json();
    expect(counted.total).toBe(2);
    for (const q of ['status=otvorena', 'prioritet=hitno', 'page=x']) {
      const res = await call('GET', `/api/topic?${q}`, leafToken);
      expect(res.statusCode, q).toBe(400);
    }
  });

  it('searches opis and the cluster name in Latin and Cyrillic, escaping LIKE characters', async () => {
    expect(await listIds(leafToken, 'q=djordje')).toEqual([a]);
    expect(await listIds(leafToken, `q=${encodeURIComponent('ђорђе')}`)).toEqual([a]);
    expect(await listIds(leafToken, `q=struje&qAlt=${encodeURIComponent('струје')}`)).toEqual([b]);
    expect(await listIds(leafToken, 'q=STRUJE')).toEqual([b]);
    expect((await listIds(leafToken, 'q=sabac')).sort()).toEqual([a, b, d].sort());
    expect((await listIds(leafToken, `q=${encodeURIComponent('ђурђевац')}&status=otvoren`)).sort()).toEqual([a, b].sort());
    expect(await listIds(leafToken, `q=${encodeURIComponent('50%')}`)).toEqual([b]);
    expect(await listIds(leafToken, `q=${encodeURIComponent('%')}`)).toEqual([b]);
    expect(await listIds(leafToken, 'q=_')).toEqual([]);
    expect(await listIds(leafToken, 'q=drini')).toEqual([]);
    expect(await listIds(otherToken, 'q=drini')).toEqual([c]);
  });

  it("finds a topic by its cluster's name as it is now: renamed, or the topic moved (drizzle/0024's kept name)", async () => {
    /** Topics whose kept cluster name differs from the cluster's folded name (the search's arm before drizzle/0024). */
    const stale = async () =>
      (
        await t.db.execute(sql`select count(*)::int as n from topics tp join clusters c on c.id = tp.cluster_id
          where tp.cluster_search is distinct from c.search_text`)
      ).rows[0]?.n;
    const uvac = await createCluster(t.db, { naziv: 'Kanjon Uvca', groupIds: [tree.leaf.id] });
    const e = (await open(leafToken, { locationId: uvac.id, odgovoran: tree.leaf.id, opis: 'Tema bez imena mesta' }))._id;
    expect(await stale()).toBe(0);
    expect(await listIds(leafToken, 'q=uvca')).toEqual([e]);
    await t.db.execute(sql`update clusters set naziv = 'Kanjon Tare' where id = ${uvac.id}`);
    expect(await stale()).toBe(0);
    expect(await listIds(leafToken, 'q=uvca')).toEqual([]);
    expect(await listIds(leafToken, `q=${encodeURIComponent('таре')}`)).toEqual([e]);
    expect(await listIds(otherToken, 'q=tare')).toEqual([]);
    expect(await listIds(adminToken, 'q=tare')).toEqual([e]);
    // Moved to a cluster the leaf doesn't see: found there by the Admin and by those who see it, by its new name.
    await t.db.execute(sql`update topics set cluster_id = ${drina.id} where id = ${e}`);
    expect(await stale()).toBe(0);
    expect(await listIds(adminToken, 'q=tare')).toEqual([]);
    expect(await listIds(leafToken, 'q=ljubovija')).toEqual([]);
    expect(await listIds(otherToken, 'q=ljubovija')).toEqual(expect.arrayContaining([e]));
    const total = (await call('GET', '/api/topic?q=ljubovija&limit=1', adminToken)).json().total;
    expect(total).toBe((await listIds(adminToken, 'q=ljubovija')).length);
    await t.db.execute(sql`update topics set cluster_id = ${uvac.id} where id = ${e}`);
  });
});

describe('GET /api/topic/:id', () => {
  it('gives the topic with comments and canComment to the responsible group only', async () => {
    const id = (await open(adminToken, { locationId: zlatibor.id, odgovoran: tree.leaf.id, opis: 'Detalj' }))._id;
    const get = async (token: string) => call('GET', `/api/topic/${id}`, token);
    const leaf = await get(leafToken);
    expect(leaf.statusCode).toBe(200);
    expect(leaf.json()).toMatchObject({ data: { _id: id, opis: 'Detalj', komentari: [] }, canComment: true });
    expect((await get(managerToken)).json().canComment).toBe(true);
    expect((await get(adminToken)).json().canComment).toBe(false);
    expect((await get(allSeeingToken)).json().canComment).toBe(false);
    for (const token of [otherToken, rootToken]) {
      const res = await get(token);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ message: TOPICS.notFound });
    }
    const missing = await call('GET', `/api/topic/${NO_ID}`, adminToken);
    expect(missing.statusCode).toBe(404);
    expect(missing.json().message).toBe(TOPICS.notFound);
    // a malformed id fails the id schema like every other route's (400, same text)
    const malformed = await call('GET', '/api/topic/nije-id', adminToken);
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().message).toBe(TOPICS.notFound);
    await call('PATCH', `/api/topic/${id}`, leafToken, { status: 'zatvoren' });
    expect((await get(leafToken)).json()).toMatchObject({ data: { status: 'zatvoren' }, canComment: false });
  });
});
describe('GET /api/topic/grupe', () => {
  it('offers the groups that see the cluster: responsible, on its contracts, and those that see all; never Admin', async () => {
    const names = async (token: string, clusterId: string) => {
      const res = await call('GET', `/api/topic/grupe?locationId=${clusterId}`, token);
      expect(res.statusCode, res.body).toBe(200);
      return (res.json().groups as { naziv: string }[]).map((g) => g.naziv);
    };
    const zl = await names(leafToken, zlatibor.id);
    expect(zl).toContain(tree.leaf.naziv);
    expect(zl).toContain('Ministarstvo Tema');
    expect(zl).not.toContain(tree.other.naziv);
    expect(zl).not.toContain(tree.mid.naziv);
    expect(zl.some((n) => n === 'Admin' || n === 'Админ')).toBe(false);
    const dr = await names(otherToken, drina.id);
    expect(dr).toContain(tree.other.naziv);
    expect(dr).not.toContain(tree.leaf.naziv);
    // the cluster must be visible to the caller
    expect((await call('GET', `/api/topic/grupe?locationId=${drina.id}`, leafToken)).statusCode).toBe(404);
    expect((await call('GET', `/api/topic/grupe?locationId=nije-id`, leafToken)).statusCode).toBe(404);
    expect((await call('GET', '/api/topic/grupe', leafToken)).statusCode).toBe(400);
  });
});
