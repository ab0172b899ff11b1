import { ACCOUNT, LIST_SORTS, TOPICS } from '@trasa/domain';
import { and, desc, eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/harness.js';
import { scopedClusters, scopeOfUser } from '../../../test/scopes.js';
import { auditLogs, groups, users } from '../../db/schema.js';
import { topicComments, topics } from '../../db/schema-clusters.js';
import { orderOf } from '../../platform/sorting.js';
import { createCluster, createContract, createGroup, createOrgTree, createUser, tokenFor } from '../../seed/factories.js';
import { visibleClusterCondition } from '../clusters/policy.js';
import type { TopicRights } from './permissions.js';
import { presentTopic, selectTopics } from './presenter.js';
import { TOPIC_SORTS, topicSearchCondition } from './service.js';

const t = useTestApp();
const NO_ID = '00000000-0000-4000-8000-000000000000';

type Org = Awaited<ReturnType<typeof createOrgTree>>;
type Cluster = Awaited<ReturnType<typeof createCluster>>;
let tree: Org;
let adminToken: string;
let managerToken: string;
let leafToken: string;
let rootToken: string;
let otherToken: string;
let allSeeingToken: string;
let reservedId: string;
/** A group that sees every cluster (sveVideci): it can be given any topic. */
let ministryId: string;
/** Visible to leaf (responsible), mid's manager and Admin; not to other. */
let zlatibor: Cluster;
/** Visible to other only (through a contract) and Admin. */
let drina: Cluster;

beforeAll(async () => {
  tree = await createOrgTree(t.db, 'Tema');
  adminToken = await tokenFor(t.ctx, await createUser(t.db, { role: 'Admin' }));
  managerToken = await tokenFor(t.ctx, tree.manager);
  leafToken = await tokenFor(t.ctx, await createUser(t.db, { role: 'Zaposleni', groupId: tree.leaf.id, ime: 'Jovana', prezime: 'Jović' }));
  rootToken = await tokenFor(t.ctx, await createUser(t.db, { role: 'Zaposleni', groupId: tree.root.id }));
  otherToken = await tokenFor(t.ctx, await createUser(t.db, { role: 'Zaposleni', groupId: tree.other.id, ime: 'Ana', prezime: 'Anić' }));
  const ministry = await createGroup(t.db, { naziv: 'Ministarstvo Tema', type: 'NARUCILAC', sveVideci: true });
  allSeeingToken = await tokenFor(t.ctx, await createUser(t.db, { role: 'Zaposleni', groupId: ministry.id }));
  ministryId = ministry.id;
  const [reserved] = await t.db.select({ id: groups.id }).from(groups).where(eq(groups.reserved, true));
  reservedId = reserved?.id ?? '';
  zlatibor = await createCluster(t.db, { naziv: 'Zlatibor Čajetina', groupIds: [tree.leaf.id] });
  const nadzor = await createContract(t.db, { kind: 'contractNad', naziv: 'Nadzor Drina', groupIds: [tree.other.id] });
  drina = await createCluster(t.db, { naziv: 'Drina Ljubovija', contract: nadzor });
});

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';
const call = (method: Method, url: string, token: string, payload?: object) => t.call({ method, url, token, ...(payload && { payload }) });

async function open(token: string, body: Record<string, unknown>) {
  const res = await call('POST', '/api/topic', token, body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data as { _id: string; updatedAt: string; odgovoran: { _id: string } };
}
const topicRow = async (id: string) => (await t.db.select().from(topics).where(eq(topics.id, id)))[0];
const auditCount = async () => (await t.db.select({ n: sql<number>`count(*)::int` }).from(auditLogs))[0]?.n ?? 0;
const listIds = async (token: string, query = '') => {
  const res = await call('GET', `/api/topic?limit=1000&${query}`, token);
  expect(res.statusCode, res.body).toBe(200);
  return (res.json().data as { _id: string }[]).map((x) => x._id);
};

describe('POST /api/topic', () => {
  it('opens a topic on a visible cluster, priority srednji by default, written to the audit trail', async () => {
    const before = await auditCount();
    const res = await call('POST', '/api/topic', leafToken, { locationId: zlatibor.id, odgovoran: tree.leaf.id, opis: '  Kvar na trasi ' });
    expect(res.statusCode, res.body).toBe(201);
    const body = res.json();
    expect(body.message).toBe(TOPICS.created);
    expect(body.data).toMatchObject({
      nazivKlastera: 'Zlatibor Čajetina',
      locationId: zlatibor.id,
      opis: 'Kvar na trasi',
      odgovoran: { _id: tree.leaf.id, naziv: tree.leaf.naziv },
      rok: null,
      prioritet: 'srednji',
      status: 'otvoren',
      komentari: [],
      brojKomentara: 0,
    });
    expect(typeof body.data.createdAt).toBe('string');
    expect((await topicRow(body.data._id))?.createdBy).not.toBeNull();
    expect(await auditCount()).toBe(before + 1);
  });

  it('keeps a deadline and a priority', async () => {
    const data = await open(adminToken, {
      locationId: zlatibor.id,
      odgovoran: ministryId,
      rok: '2026-03-01T10:30:00+01:00',
      prioritet: 'visok',
    });
    expect(data).toMatchObject({ rok: '2026-03-01T09:30:00.000Z', prioritet: 'visok', odgovoran: { _id: ministryId } });
    const d2 = await open(adminToken, { locationId: zlatibor.id, odgovoran: tree.leaf.id, rok: '2026-04-02', prioritet: 'nizak' });
    expect(d2).toMatchObject({ rok: '2026-04-02T00:00:00.000Z' });
  });

  it('answers 404 for an invisible or missing cluster and 400 for a bad group, creating nothing', async () => {
    const count = async () => (await t.db.select({ n: sql<number>`count(*)::int` }).from(topics))[0]?.n;
    const before = await count();
    const cases: [string, object, number, string][] = [
      [otherToken, { locationId: zlatibor.id, odgovoran: tree.other.id }, 404, TOPICS.notFound],
      [leafToken, { locationId: drina.id, odgovoran: tree.leaf.id }, 404, TOPICS.notFound],
      [adminToken, { locationId: NO_ID, odgovoran: tree.leaf.id }, 404, TOPICS.notFound],
      [adminToken, { locationId: zlatibor.id, odgovoran: NO_ID }, 400, TOPICS.groupCannotSee],
      [adminToken, { locationId: zlatibor.id, odgovoran: reservedId }, 400, TOPICS.groupCannotSee],
      // a group that does not see the cluster could never answer
      [adminToken, { locationId: zlatibor.id, odgovoran: tree.other.id }, 400, TOPICS.groupCannotSee],
      [managerToken, { locationId: zlatibor.id, odgovoran: tree.mid.id }, 400, TOPICS.groupCannotSee],
      [adminToken, { locationId: zlatibor.id }, 400, 'Поље је обавезно'],
      [adminToken, { odgovoran: tree.leaf.id }, 400, 'Поље је обавезно'],
      [adminToken, { locationId: 'x', odgovoran: tree.leaf.id }, 400, 'Поље је обавезно'],
    ];
    for (const [token, body, status, message] of cases) {
      const res = await call('POST', '/api/topic', token, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(status);
      expect(res.json().message).toBe(message);
    }
    const bad = await call('POST', '/api/topic', adminToken, { locationId: zlatibor.id, odgovoran: NO_ID });
    expect(bad.json().errors).toEqual({ odgovoran: TOPICS.groupCannotSee });
    for (const body of [
      { locationId: zlatibor.id, odgovoran: tree.leaf.id, prioritet: 'hitno' },
      { locationId: zlatibor.id, odgovoran: tree.leaf.id, rok: 'sutra' },
      { locationId: zlatibor.id, odgovoran: tree.leaf.id, rok: '2026-02-30' },
      { locationId: zlatibor.id, odgovoran: tree.leaf.id, opis: 5 },
      { locationId: zlatibor.id, odgovoran: tree.leaf.id, rok: '0000-01-01' },
      { locationId: zlatibor.id, odgovoran: tree.leaf.id, rok: '0000-01-01T00:00:00Z' },
      { locationId: zlatibor.id, odgovoran: tree.leaf.id, rok: '2026-02-30T10:00:00Z' },
      { locationId: zlatibor.id, odgovoran: tree.leaf.id, rok: '9999-12-31T23:59:59-14:00' },
      { locationId: zlatibor.id, odgovoran: tree.leaf.id, rok: '0001-01-01T00:00:00+01:00' },
    ]) {
      expect((await call('POST', '/api/topic', adminToken, body)).statusCode, JSON.stringify(body)).toBe(400);
    }
    const raw = await t.call({
      method: 'POST',
      url: '/api/topic',
      token: adminToken,
      payload: 'x',
      headers: { 'content-type': 'application/json' },
    });
    expect(raw.statusCode).toBe(400);
    expect(await count()).toBe(before);
  });
});

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

describe('PATCH /api/topic/:id', () => {
  it('edits an open topic without comments, omitted fields staying, and moves updatedAt', async () => {
    const created = await open(leafToken, {
      locationId: zlatibor.id,
      odgovoran: tree.leaf.id,
      opis: 'Staro',
      rok: '2026-05-01',
      prioritet: 'nizak',
    });
    const before = await auditCount();
    const res = await call('PATCH', `/api/topic/${created._id}`, leafToken, { odgovoran: ministryId, opis: 'Novo' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      message: TOPICS.edited,
      data: {
        opis: 'Novo',
        odgovoran: { _id: ministryId, naziv: 'Ministarstvo Tema' },
        rok: '2026-05-01T00:00:00.000Z',
        prioritet: 'nizak',
      },
    });
    expect(res.json().data.updatedAt > created.updatedAt).toBe(true);
    const cleared = await call('PATCH', `/api/topic/${created._id}`, leafToken, { odgovoran: tree.leaf.id, rok: '', prioritet: 'visok' });
    expect(cleared.json().data).toMatchObject({ rok: null, prioritet: 'visok', opis: 'Novo' });
    expect(await auditCount()).toBe(before + 2);
  });

  it('validates an edit: responsible group required and valid, nothing changed', async () => {
    const { _id } = await open(leafToken, { locationId: zlatibor.id, odgovoran: tree.leaf.id, opis: 'Validacija' });
    const row = await topicRow(_id);
    const cases: [object, string][] = [
      [{ opis: 'x' }, 'Поље је обавезно'],
      [{ odgovoran: NO_ID, opis: 'x' }, TOPICS.groupCannotSee],
      [{ odgovoran: reservedId, opis: 'x' }, TOPICS.groupCannotSee],
      [{ odgovoran: tree.other.id, opis: 'x' }, TOPICS.groupCannotSee],
      [{ odgovoran: tree.leaf.id, prioritet: 'hitno' }, ''],
      [{ status: 'otvoren' }, TOPICS.cannotReopen],
      [{ status: 'otvoren', odgovoran: tree.leaf.id, opis: 'x' }, TOPICS.cannotReopen],
    ];
    for (const [body, message] of cases) {
      const res = await call('PATCH', `/api/topic/${_id}`, leafToken, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      if (message) expect(res.json().message).toBe(message);
    }
    const raw = await t.call({
      method: 'PATCH',
      url: `/api/topic/${_id}`,
      token: leafToken,
      payload: '[1]',
      headers: { 'content-type': 'application/json' },
    });
    expect(raw.statusCode).toBe(400);
    expect(await topicRow(_id)).toEqual(row);
  });

  it('closes a topic (also one with comments); a closed one can be neither changed, closed again nor reopened', async () => {
    const { _id } = await open(leafToken, { locationId: zlatibor.id, odgovoran: tree.leaf.id, opis: 'Za zatvaranje' });
    expect((await call('POST', `/api/topic/${_id}/komentar`, leafToken, { tekst: 'Radimo' })).statusCode).toBe(200);
    const audited = await auditCount();
    const closed = await call('PATCH', `/api/topic/${_id}`, managerToken, { status: 'zatvoren' });
    expect(await auditCount()).toBe(audited + 1);
    expect(closed.statusCode, closed.body).toBe(200);
    expect(closed.json()).toMatchObject({ message: TOPICS.closed, data: { status: 'zatvoren', brojKomentara: 1 } });
    const row = await topicRow(_id);
    const before = await auditCount();
    for (const body of [{ status: 'zatvoren' }, { odgovoran: tree.other.id, opis: 'x' }]) {
      const res = await call('PATCH', `/api/topic/${_id}`, leafToken, body);
      expect(res.statusCode).toBe(409);
      expect(res.json().message).toBe(TOPICS.closedLocked);
    }
    expect((await call('PATCH', `/api/topic/${_id}`, leafToken, { status: 'otvoren' })).statusCode).toBe(400);
    expect(await topicRow(_id)).toEqual(row);
    expect(await auditCount()).toBe(before);
  });

  it('refuses changing a commented topic, changing nothing', async () => {
    const { _id } = await open(leafToken, { locationId: zlatibor.id, odgovoran: tree.leaf.id, opis: 'Komentarisana' });
    await call('POST', `/api/topic/${_id}/komentar`, leafToken, { tekst: 'Prvi' });
    const row = await topicRow(_id);
    const res = await call('PATCH', `/api/topic/${_id}`, adminToken, { odgovoran: tree.other.id, opis: 'Promena' });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe(TOPICS.commentedLocked);
    expect(await topicRow(_id)).toEqual(row);
  });

  it('answers 404 to a caller who cannot see the cluster', async () => {
    const { _id } = await open(leafToken, { locationId: zlatibor.id, odgovoran: tree.leaf.id });
    const row = await topicRow(_id);
    for (const body of [{ status: 'zatvoren' }, { odgovoran: tree.other.id }]) {
      const res = await call('PATCH', `/api/topic/${_id}`, otherToken, body);
      expect(res.statusCode).toBe(404);
      expect(res.json().message).toBe(TOPICS.notFound);
    }
    expect((await call('PATCH', `/api/topic/${NO_ID}`, adminToken, { status: 'zatvoren' })).statusCode).toBe(404);
    expect(await topicRow(_id)).toEqual(row);
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

describe('DELETE /api/topic/:id', () => {
  it('deletes an open topic without comments, with an audit row', async () => {
    const { _id } = await open(leafToken, { locationId: zlatibor.id, odgovoran: tree.leaf.id, opis: 'Brisanje' });
    expect((await call('DELETE', `/api/topic/${_id}`, otherToken)).statusCode).toBe(404);
    const before = await auditCount();
    const res = await call('DELETE', `/api/topic/${_id}`, leafToken);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: TOPICS.deleted });
    expect(await topicRow(_id)).toBeUndefined();
    expect(await auditCount()).toBe(before + 1);
    expect((await call('DELETE', `/api/topic/${_id}`, leafToken)).statusCode).toBe(404);
  });

  it('refuses a closed or commented topic, deleting nothing', async () => {
    const closed = await open(leafToken, { locationId: zlatibor.id, odgovoran: tree.leaf.id });
    await call('PATCH', `/api/topic/${closed._id}`, leafToken, { status: 'zatvoren' });
    const commented = await open(leafToken, { locationId: zlatibor.id, odgovoran: tree.leaf.id });
    await call('POST', `/api/topic/${commented._id}/komentar`, leafToken, { tekst: 'Ostaje' });
    const r1 = await call('DELETE', `/api/topic/${closed._id}`, adminToken);
    expect(r1.statusCode).toBe(409);
    expect(r1.json().message).toBe(TOPICS.closedLocked);
    const r2 = await call('DELETE', `/api/topic/${commented._id}`, adminToken);
    expect(r2.statusCode).toBe(409);
    expect(r2.json().message).toBe(TOPICS.commentedLocked);
    expect(await topicRow(closed._id)).toBeDefined();
    expect(await topicRow(commented._id)).toBeDefined();
  });
});

describe('POST /api/topic/:id/komentar', () => {
  it('lets the responsible group comment; the comment keeps the group, updatedAt moves', async () => {
    const created = await open(adminToken, { locationId: zlatibor.id, odgovoran: tree.leaf.id, opis: 'Razgovor' });
    const before = await auditCount();
    const res = await call('POST', `/api/topic/${created._id}/komentar`, leafToken, { tekst: '  Pogledaćemo ', noviOdgovoran: '' });
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json().data;
    expect(data).toMatchObject({ _id: created._id, odgovoran: { _id: tree.leaf.id }, brojKomentara: 1 });
    expect(data.komentari).toHaveLength(1);
    expect(data.komentari[0]).toMatchObject({
      tekst: 'Pogledaćemo',
      createdBy: { ime: 'Jovana', prezime: 'Jović' },
      odgovoranZaOdgovor: { _id: tree.leaf.id, naziv: tree.leaf.naziv },
    });
    expect(data.updatedAt > created.updatedAt).toBe(true);
    expect(await auditCount()).toBe(before + 1);
    expect((await listIds(leafToken))[0]).toBe(created._id);
    await open(leafToken, { locationId: zlatibor.id, odgovoran: tree.leaf.id, opis: 'Novija' });
    expect((await listIds(leafToken))[0]).not.toBe(created._id);
    // the manager of leaf's parent answers too, and the comment brings the topic back to the top
    expect((await call('POST', `/api/topic/${created._id}/komentar`, managerToken, { tekst: 'I ja' })).statusCode).toBe(200);
    expect((await listIds(leafToken))[0]).toBe(created._id);
  });

  it('hands the topic over with noviOdgovoran: then only the new group may comment', async () => {
    const { _id } = await open(adminToken, { locationId: zlatibor.id, odgovoran: tree.leaf.id, opis: 'Predaja' });
    const res = await call('POST', `/api/topic/${_id}/komentar`, leafToken, { tekst: 'Predajemo ministarstvu', noviOdgovoran: ministryId });
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json().data;
    expect(data.odgovoran).toEqual({ _id: ministryId, naziv: 'Ministarstvo Tema' });
    expect(data.komentari[0].odgovoranZaOdgovor).toEqual({ _id: ministryId, naziv: 'Ministarstvo Tema' });
    // leaf can no longer comment; the ministry (which sees every cluster) now answers
    const leafAgain = await call('POST', `/api/topic/${_id}/komentar`, leafToken, { tekst: 'Još nešto' });
    expect(leafAgain.statusCode).toBe(403);
    expect(leafAgain.json().message).toBe(TOPICS.onlyResponsible);
    expect((await call('GET', `/api/topic/${_id}`, leafToken)).json().canComment).toBe(false);
    expect((await call('GET', `/api/topic/${_id}`, allSeeingToken)).json().canComment).toBe(true);
    const back = await call('POST', `/api/topic/${_id}/komentar`, allSeeingToken, { tekst: 'Vraćamo', noviOdgovoran: tree.leaf.id });
    expect(back.statusCode, back.body).toBe(200);
    expect(back.json().data.odgovoran._id).toBe(tree.leaf.id);
  });

  it('refuses others, closed topics, blank text and invalid groups, saving nothing', async () => {
    const { _id } = await open(adminToken, { locationId: zlatibor.id, odgovoran: tree.leaf.id, opis: 'Odbijanja' });
    const comments = async () => (await t.db.select().from(topicComments).where(eq(topicComments.topicId, _id))).length;
    const cases: [string, object, number, string][] = [
      [adminToken, { tekst: 'Admin' }, 403, TOPICS.onlyResponsible],
      [allSeeingToken, { tekst: 'Ministarstvo' }, 403, TOPICS.onlyResponsible],
      [otherToken, { tekst: 'Nadzor' }, 404, TOPICS.notFound],
      [leafToken, { tekst: '   ' }, 400, TOPICS.commentRequired],
      [leafToken, { tekst: '' }, 400, TOPICS.commentRequired],
      [leafToken, { tekst: 'x', noviOdgovoran: NO_ID }, 400, TOPICS.groupCannotSee],
      [leafToken, { tekst: 'x', noviOdgovoran: reservedId }, 400, TOPICS.groupCannotSee],
      [leafToken, { tekst: 'x', noviOdgovoran: tree.other.id }, 400, TOPICS.groupCannotSee],
      [leafToken, { tekst: 'x', noviOdgovoran: 'nije-id' }, 400, ''],
    ];
    for (const [token, body, status, message] of cases) {
      const res = await call('POST', `/api/topic/${_id}/komentar`, token, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(status);
      if (message) expect(res.json().message).toBe(message);
    }
    expect((await call('POST', `/api/topic/${_id}/komentar`, leafToken, {})).statusCode).toBe(400);
    expect((await call('POST', `/api/topic/${NO_ID}/komentar`, leafToken, { tekst: 'x' })).statusCode).toBe(404);
    await call('PATCH', `/api/topic/${_id}`, leafToken, { status: 'zatvoren' });
    const closed = await call('POST', `/api/topic/${_id}/komentar`, leafToken, { tekst: 'Kasno' });
    expect(closed.statusCode).toBe(403);
    expect(await comments()).toBe(0);
    expect((await topicRow(_id))?.groupId).toBe(tree.leaf.id);
  });

  it("shows a deleted author's comment as 'Korisnik je obrisan'", async () => {
    const author = await createUser(t.db, { role: 'Zaposleni', groupId: tree.leaf.id });
    const { _id } = await open(adminToken, { locationId: zlatibor.id, odgovoran: tree.leaf.id });
    expect((await call('POST', `/api/topic/${_id}/komentar`, await tokenFor(t.ctx, author), { tekst: 'Odlazim' })).statusCode).toBe(200);
    await t.db.delete(users).where(eq(users.id, author.id));
    const res = await call('GET', `/api/topic/${_id}`, adminToken);
    expect(res.json().data.komentari[0].createdBy).toEqual({ ime: ACCOUNT.deletedUser, prezime: '' });
  });
});

describe('who changes what (issue 12): edit/delete by the author group, close also by the responsible group', () => {
  let cluster: Cluster;
  let ministryAuthor: string;
  let ministryColleague: string;
  let supervision: string;
  let otherAllSeeing: string;
  let ministryManager: string;
  let foreignManager: string;
  const ministryGroup = { id: '' };

  beforeAll(async () => {
    const ministry = await createGroup(t.db, { naziv: 'Ministarstvo Dozvole', type: 'NARUCILAC', sveVideci: true });
    ministryGroup.id = ministry.id;
    const ministryUnit = await createGroup(t.db, {
      naziv: 'Ministarstvo Dozvole Sektor',
      type: 'NARUCILAC',
      parentId: ministry.id,
      sveVideci: true,
    });
    ministryAuthor = await tokenFor(t.ctx, await createUser(t.db, { role: 'Zaposleni', groupId: ministryUnit.id }));
    ministryColleague = await tokenFor(t.ctx, await createUser(t.db, { role: 'Zaposleni', groupId: ministryUnit.id }));
    ministryManager = await tokenFor(t.ctx, await createUser(t.db, { role: 'Rukovodilac', groupId: ministry.id }));
    const nadzor = await createGroup(t.db, { naziv: 'Nadzor Dozvole', type: 'NADZOR' });
    supervision = await tokenFor(t.ctx, await createUser(t.db, { role: 'Zaposleni', groupId: nadzor.id }));
    const agency = await createGroup(t.db, { naziv: 'Agencija Dozvole', type: 'NARUCILAC', sveVideci: true });
    otherAllSeeing = await tokenFor(t.ctx, await createUser(t.db, { role: 'Zaposleni', groupId: agency.id }));
    foreignManager = await tokenFor(t.ctx, await createUser(t.db, { role: 'Rukovodilac', groupId: nadzor.id }));
    const contract = await createContract(t.db, { kind: 'contractNad', naziv: 'Nadzor Tara', groupIds: [nadzor.id] });
    cluster = await createCluster(t.db, { naziv: 'Tara Dozvole', groupIds: [tree.leaf.id], contract });
  });

  /** A topic of the ministry's sector handed to the contractor's team (leaf). */
  const ministryTopic = async (opis: string) => (await open(ministryAuthor, { locationId: cluster.id, odgovoran: tree.leaf.id, opis }))._id;
  const dozvole = async (token: string, id: string) => {
    const res = await call('GET', `/api/topic/${id}`, token);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data.dozvole;
  };

  it('refuses a group that only sees the cluster: 403 with a Serbian message, nothing changed', async () => {
    const id = await ministryTopic('Tema ministarstva');
    const row = await topicRow(id);
    const before = await auditCount();
    for (const token of [supervision, otherAllSeeing, foreignManager]) {
      const edit = await call('PATCH', `/api/topic/${id}`, token, { odgovoran: tree.leaf.id, opis: 'Prepisano' });
      expect(edit.statusCode).toBe(403);
      expect(edit.json()).toEqual({ message: TOPICS.onlyAuthorGroup });
      const del = await call('DELETE', `/api/topic/${id}`, token);
      expect(del.statusCode).toBe(403);
      expect(del.json()).toEqual({ message: TOPICS.onlyAuthorGroup });
      const close = await call('PATCH', `/api/topic/${id}`, token, { status: 'zatvoren' });
      expect(close.statusCode).toBe(403);
      expect(close.json()).toEqual({ message: TOPICS.onlyCloser });
      expect(await dozvole(token, id)).toEqual({ izmena: false, brisanje: false, zatvaranje: false });
    }
    expect(await topicRow(id)).toEqual(row);
    expect(await auditCount()).toBe(before);
    // a caller who does not see the cluster still gets 404 (root sees neither)
    expect((await call('PATCH', `/api/topic/${id}`, rootToken, { status: 'zatvoren' })).statusCode).toBe(404);
    expect((await call('DELETE', `/api/topic/${id}`, otherToken)).statusCode).toBe(404);
  });

  it('lets the author group (a colleague, a manager above it) edit and delete', async () => {
    const id = await ministryTopic('Za izmenu');
    expect(await dozvole(ministryColleague, id)).toEqual({ izmena: true, brisanje: true, zatvaranje: true });
    const edited = await call('PATCH', `/api/topic/${id}`, ministryColleague, { odgovoran: tree.leaf.id, opis: 'Izmenio kolega' });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json().data.dozvole).toEqual({ izmena: true, brisanje: true, zatvaranje: true });
    const byManager = await call('PATCH', `/api/topic/${id}`, ministryManager, { odgovoran: tree.leaf.id, opis: 'Izmenio rukovodilac' });
    expect(byManager.statusCode, byManager.body).toBe(200);
    expect((await call('DELETE', `/api/topic/${id}`, ministryManager)).statusCode).toBe(200);
    const second = await ministryTopic('Za brisanje');
    expect((await call('DELETE', `/api/topic/${second}`, ministryColleague)).statusCode).toBe(200);
    expect(await topicRow(second)).toBeUndefined();
  });

  it('lets the responsible group close, but neither edit nor delete', async () => {
    const id = await ministryTopic('Odgovorni zatvara');
    expect(await dozvole(leafToken, id)).toEqual({ izmena: false, brisanje: false, zatvaranje: true });
    expect(await dozvole(managerToken, id)).toEqual({ izmena: false, brisanje: false, zatvaranje: true });
    const edit = await call('PATCH', `/api/topic/${id}`, leafToken, { odgovoran: tree.leaf.id, opis: 'x' });
    expect(edit.statusCode).toBe(403);
    expect(edit.json().message).toBe(TOPICS.onlyAuthorGroup);
    expect((await call('DELETE', `/api/topic/${id}`, leafToken)).statusCode).toBe(403);
    const closed = await call('PATCH', `/api/topic/${id}`, leafToken, { status: 'zatvoren' });
    expect(closed.statusCode, closed.body).toBe(200);
    expect(closed.json().data.dozvole).toEqual({ izmena: false, brisanje: false, zatvaranje: true });
    // once handed over, the former responsible group may no longer close
    const handed = await ministryTopic('Predata');
    expect(
      (await call('POST', `/api/topic/${handed}/komentar`, leafToken, { tekst: 'Nadzoru', noviOdgovoran: ministryGroup.id })).statusCode,
    ).toBe(200);
    const late = await call('PATCH', `/api/topic/${handed}`, leafToken, { status: 'zatvoren' });
    expect(late.statusCode).toBe(403);
    expect(late.json().message).toBe(TOPICS.onlyCloser);
    // ... while the author group still may (a commented topic can be closed)
    expect((await call('PATCH', `/api/topic/${handed}`, ministryAuthor, { status: 'zatvoren' })).statusCode).toBe(200);
  });

  it('lets the Admin do everything; a topic whose author is gone is the Admin’s to change', async () => {
    const id = await ministryTopic('Admin menja');
    expect(await dozvole(adminToken, id)).toEqual({ izmena: true, brisanje: true, zatvaranje: true });
    expect((await call('PATCH', `/api/topic/${id}`, adminToken, { odgovoran: tree.leaf.id, opis: 'Admin' })).statusCode).toBe(200);
    expect((await call('DELETE', `/api/topic/${id}`, adminToken)).statusCode).toBe(200);
    const author = await createUser(t.db, { role: 'Zaposleni', groupId: tree.leaf.id });
    const orphan = (await open(await tokenFor(t.ctx, author), { locationId: cluster.id, odgovoran: ministryGroup.id, opis: 'Sirotan' }))
      ._id;
    expect(await dozvole(leafToken, orphan)).toEqual({ izmena: true, brisanje: true, zatvaranje: true });
    await t.db.delete(users).where(eq(users.id, author.id));
    expect(await dozvole(leafToken, orphan)).toEqual({ izmena: false, brisanje: false, zatvaranje: false });
    expect((await call('DELETE', `/api/topic/${orphan}`, leafToken)).statusCode).toBe(403);
    expect((await call('DELETE', `/api/topic/${orphan}`, adminToken)).statusCode).toBe(200);
  });

  it('lists the flags per row', async () => {
    const id = await ministryTopic('U listi');
    const row = async (token: string) => {
      const res = await call('GET', '/api/topic?limit=1000&q=u%20listi', token);
      return (res.json().data as { _id: string; dozvole: object }[]).find((x) => x._id === id)?.dozvole;
    };
    expect(await row(ministryColleague)).toEqual({ izmena: true, brisanje: true, zatvaranje: true });
    expect(await row(leafToken)).toEqual({ izmena: false, brisanje: false, zatvaranje: true });
    expect(await row(supervision)).toEqual({ izmena: false, brisanje: false, zatvaranje: false });
  });
});

describe("a limited scope's topics (issue 15: the visible clusters as an index range, drizzle/0024)", () => {
  it('pages every sort both ways, filtered and searched, as the scope condition of before selects and orders them', async () => {
    // More clusters: the leaf's own, one by a contract of its root (seen through the group tree), one of
    // the supervision only; topics of every priority, some without a deadline, some closed.
    const { tree: scopeTree, own, byContract, foreign } = await scopedClusters(t.db, 'Opseg');
    const priorities = ['nizak', 'srednji', 'visok'] as const;
    let n = 0;
    for (const [cluster, group] of [
      [own, scopeTree.leaf],
      [byContract, scopeTree.leaf],
      [foreign, scopeTree.other],
    ] as const) {
      for (let i = 0; i < 5; i++) {
        n++;
        await t.db.insert(topics).values({
          clusterId: cluster.id,
          groupId: group.id,
          opis: `Opseg tema ${n % 3 === 0 ? 'kabl' : 'šaht'} ${n}`,
          prioritet: priorities[n % 3],
          status: n % 4 === 0 ? 'zatvoren' : 'otvoren',
          rok: n % 2 === 0 ? null : new Date(Date.UTC(2026, 0, 1 + (n % 5))),
          // Equal times in pairs: the id breaks the tie.
          updatedAt: new Date(Date.UTC(2026, 1, 1, 10, Math.floor(n / 2))),
        });
      }
    }
    const leafUser = await createUser(t.db, { role: 'Zaposleni', groupId: scopeTree.leaf.id });
    const otherUser = await createUser(t.db, { role: 'Zaposleni', groupId: scopeTree.other.id });
    const rootUser = await createUser(t.db, { role: 'Zaposleni', groupId: scopeTree.root.id });
    const admin = await createUser(t.db, { role: 'Admin' });
    const people = [leafUser, otherUser, rootUser, scopeTree.manager, admin];
    for (const person of people) {
      const token = await tokenFor(t.ctx, person);
      const scope = await scopeOfUser(t.db, person);
      // The rights as the list's rows carry them (permissions.ts), worked out here from the tree itself.
      const subtree = (
        await t.db.execute<{ id: string }>(sql`with recursive tree(id) as (
            select id from groups where id = ${person.groupId ?? NO_ID}
            union select g.id from groups g join tree on g.parent_id = tree.id)
          select id from tree`)
      ).rows.map((r) => r.id);
      const rights: TopicRights =
        person === admin
          ? { admin: true, groups: new Set() }
          : { admin: false, groups: new Set(person === scopeTree.manager ? subtree : [person.groupId ?? NO_ID]) };
      for (const filter of ['', 'q=opseg', 'q=kabl&status=otvoren', `q=${encodeURIComponent('ћуприја')}`, 'prioritet=visok']) {
        const params = new URLSearchParams(filter);
        const condition = and(
          visibleClusterCondition(scope, topics.clusterId),
          topicSearchCondition(params.get('q') ?? '', ''),
          params.get('status') ? eq(topics.status, params.get('status') as string) : undefined,
          params.get('prioritet') ? eq(topics.prioritet, params.get('prioritet') as string) : undefined,
        );
        for (const sort of [undefined, ...LIST_SORTS.topics]) {
          for (const order of ['asc', 'desc'] as const) {
            // Every row whole (the page's rows come from a prepared statement in the ids' order), as
            // the plain joined query of before selects, orders and presents them.
            const expected = (
              await selectTopics(t.db)
                .where(condition)
                .orderBy(...orderOf(TOPIC_SORTS, { sort, order }, [desc(topics.updatedAt), desc(topics.id)], topics.id))
            ).map((row) => presentTopic(row, rights));
            const got: unknown[] = [];
            let total = -1;
            for (let page = 1; page < 50; page++) {
              const res = await call(
                'GET',
                `/api/topic?${filter}${sort ? `&sort=${sort}&order=${order}` : ''}&limit=3&page=${page}`,
                token,
              );
              expect(res.statusCode, res.body).toBe(200);
              const body = res.json() as { data: { _id: string }[]; total: number };
              got.push(...body.data);
              total = body.total;
              if (body.data.length < 3) break;
            }
            const what = `${person.id === scopeTree.manager.id ? 'manager' : person.id} ${filter} ${sort} ${order}`;
            expect(got, what).toEqual(expected);
            expect(total, what).toBe(expected.length);
          }
        }
      }
    }
    // The leaf sees its own cluster and the contract's, not the supervision's; the root's member only the contract's.
    const leafTopics = await listIds(await tokenFor(t.ctx, leafUser), 'q=opseg%20tema');
    expect(leafTopics).toHaveLength(10);
    expect(await listIds(await tokenFor(t.ctx, rootUser), 'q=opseg%20tema')).toHaveLength(5);
    expect(await listIds(await tokenFor(t.ctx, otherUser), 'q=opseg%20tema')).toHaveLength(5);
  });
});

describe("a limited scope's filtered topics past the count's cap (the matches found once, then the page as before)", () => {
  it('pages the newest first as the plain query orders them, the total past 10,000 an estimate', async () => {
    const { tree: capTree, own } = await scopedClusters(t.db, 'Kapa');
    // 10,020 matches in the leaf's scope (times equal in fives: the id breaks ties), 30 that don't match.
    await t.db.execute(sql`insert into topics (cluster_id, group_id, opis, updated_at)
      select ${own.id}, ${capTree.leaf.id}, case when n <= 10020 then 'Mnoštvo ' || n else 'Drugo ' || n end,
        '2026-03-01'::timestamptz + (n / 5) * interval '1 second'
      from generate_series(1, 10050) n`);
    await t.db.execute(sql`analyze topics`);
    const leafUser = await createUser(t.db, { role: 'Zaposleni', groupId: capTree.leaf.id });
    const token = await tokenFor(t.ctx, leafUser);
    const scope = await scopeOfUser(t.db, leafUser);
    const expected = (
      await t.db
        .select({ id: topics.id })
        .from(topics)
        .where(and(visibleClusterCondition(scope, topics.clusterId), topicSearchCondition('mnostvo', '')))
        .orderBy(desc(topics.updatedAt), desc(topics.id))
    ).map((r) => r.id);
    expect(expected).toHaveLength(10020);
    for (const [page, limit] of [
      [1, 10],
      [2, 7],
      [1001, 10],
      [1002, 10],
    ] as const) {
      const res = await call('GET', `/api/topic?q=mnostvo&limit=${limit}&page=${page}`, token);
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json() as { data: { _id: string }[]; total: number };
      expect(
        body.data.map((d) => d._id),
        `${page} × ${limit}`,
      ).toEqual(expected.slice((page - 1) * limit, page * limit));
      expect(body.total).toBeGreaterThan(10_000);
    }
  });
});

describe("a limited scope's newest topics (headOfScopePage) and its kept total (keptScopeTotal, drizzle/0034)", () => {
  it('pages from everybody’s newest or from the scope’s own alike, and the total follows new, moved, deleted and unseen topics', async () => {
    const { tree: headTree, own, byContract, foreign } = await scopedClusters(t.db, 'Glava');
    // The leaf's scope holds the newest 40 topics of all (in the future of every other test's), times
    // equal in pairs; the supervision's 'foreign' cluster three of the oldest: its pages come from its own.
    await t.db.execute(sql`insert into topics (cluster_id, group_id, opis, updated_at)
      select case when n % 4 = 0 then ${byContract.id}::uuid else ${own.id}::uuid end, ${headTree.leaf.id}, 'Glava ' || n,
        '2031-01-01'::timestamptz + (n / 2) * interval '1 minute'
      from generate_series(1, 40) n`);
    await t.db.execute(sql`insert into topics (cluster_id, group_id, opis, updated_at)
      select ${foreign.id}, ${headTree.other.id}, 'Stara ' || n, '2001-01-01'::timestamptz + n * interval '1 minute'
      from generate_series(1, 3) n`);
    const leafUser = await createUser(t.db, { role: 'Zaposleni', groupId: headTree.leaf.id });
    const otherUser = await createUser(t.db, { role: 'Zaposleni', groupId: headTree.other.id });
    const pagesOf = async (user: Awaited<ReturnType<typeof createUser>>, limit: number) => {
      const token = await tokenFor(t.ctx, user);
      const scope = await scopeOfUser(t.db, user);
      const expected = (
        await t.db
          .select({ id: topics.id })
          .from(topics)
          .where(visibleClusterCondition(scope, topics.clusterId))
          .orderBy(desc(topics.updatedAt), desc(topics.id))
      ).map((r) => r.id);
      const got: string[] = [];
      let total = -1;
      for (let page = 1; page <= Math.ceil(expected.length / limit) + 1; page++) {
        const res = await call('GET', `/api/topic?limit=${limit}&page=${page}`, token);
        expect(res.statusCode, res.body).toBe(200);
        const body = res.json() as { data: { _id: string }[]; total: number };
        got.push(...body.data.map((d) => d._id));
        total = body.total;
      }
      expect(got, `${user.id} × ${limit}`).toEqual(expected);
      expect(total).toBe(expected.length);
      return { token, total };
    };
    // Pages of 7 (the head up to row 50, then the scope's ranges), of 25 and of 60 (never the head).
    for (const limit of [7, 25, 60]) {
      await pagesOf(leafUser, limit);
      await pagesOf(otherUser, limit);
    }
    const totalOf = async (token: string) => {
      const res = await call('GET', '/api/topic?limit=5&page=1', token);
      expect(res.statusCode, res.body).toBe(200);
      return (res.json() as { total: number }).total;
    };
    const leafToken = await tokenFor(t.ctx, leafUser);
    const before = await totalOf(leafToken);
    expect(await totalOf(leafToken)).toBe(before);
    // A new topic through the API, one moved out of the scope, one deleted, a cluster no longer the leaf's.
    const added = await open(leafToken, { locationId: own.id, odgovoran: headTree.leaf.id, opis: 'Glava nova' });
    expect(await totalOf(leafToken)).toBe(before + 1);
    const [moved] = await t.db.select({ id: topics.id }).from(topics).where(eq(topics.opis, 'Glava 1'));
    await t.db
      .update(topics)
      .set({ clusterId: foreign.id })
      .where(eq(topics.id, moved?.id ?? NO_ID));
    expect(await totalOf(leafToken)).toBe(before);
    await t.db.delete(topics).where(eq(topics.id, added._id));
    expect(await totalOf(leafToken)).toBe(before - 1);
    const ownTopics = (await t.db.select({ id: topics.id }).from(topics).where(eq(topics.clusterId, own.id))).length;
    await t.db.execute(sql`delete from cluster_groups where cluster_id = ${own.id}`);
    expect(await totalOf(leafToken)).toBe(before - 1 - ownTopics);
    await pagesOf(leafUser, 7);
  });
});

describe("the Admin's filtered or searched count kept by the topics' version (drizzle/0030)", () => {
  it('is counted again after every change the filters read, and only then', async () => {
    const kept = await createCluster(t.db, { naziv: 'Brvnara Kept', groupIds: [tree.leaf.id] });
    const totals = async () =>
      Promise.all(
        ['q=zapamcen&qAlt=', `q=zapamcen&qAlt=${encodeURIComponent('запамћен')}&status=otvoren`, 'q=brvnara&qAlt=&prioritet=visok'].map(
          async (query) => {
            const res = await call('GET', `/api/topic?page=1&limit=2&${query}`, adminToken);
            expect(res.statusCode, res.body).toBe(200);
            return res.json().total as number;
          },
        ),
      );
    expect(await totals()).toEqual([0, 0, 0]);
    const first = await open(leafToken, { locationId: kept.id, odgovoran: tree.leaf.id, opis: 'Zapamćen kvar', prioritet: 'visok' });
    expect(await totals()).toEqual([1, 1, 1]);
    await open(leafToken, { locationId: zlatibor.id, odgovoran: tree.leaf.id, opis: 'Zapamćen drugi' });
    expect(await totals()).toEqual([2, 2, 1]);
    // Closed: out of the open ones; its priority lowered; the text changed out of the search.
    await t.db.update(topics).set({ status: 'zatvoren' }).where(eq(topics.id, first._id));
    expect(await totals()).toEqual([2, 1, 1]);
    await t.db.update(topics).set({ prioritet: 'nizak' }).where(eq(topics.id, first._id));
    expect(await totals()).toEqual([2, 1, 0]);
    await t.db.update(topics).set({ opis: 'Drugi kvar', prioritet: 'visok' }).where(eq(topics.id, first._id));
    expect(await totals()).toEqual([1, 1, 1]);
    // Found by its cluster's name as it is now (the kept cluster_search follows a rename).
    await t.db.execute(sql`update clusters set naziv = 'Zapamćena Brvnara' where id = ${kept.id}`);
    expect(await totals()).toEqual([2, 1, 1]);
    // A change the filters do not read keeps the count; one made with the triggers off (the version
    // unmoved) shows that the count is indeed kept, not counted again.
    await t.db
      .update(topics)
      .set({ rok: new Date('2031-02-01T00:00:00Z') })
      .where(eq(topics.id, first._id));
    expect(await totals()).toEqual([2, 1, 1]);
    await t.db.transaction(async (tx) => {
      await tx.execute(sql`set local session_replication_role = replica`);
      await tx.execute(
        sql`insert into topics (cluster_id, group_id, opis, prioritet) values (${zlatibor.id}, ${tree.leaf.id}, 'Zapamćen tajni', 'visok')`,
      );
    });
    expect(await totals()).toEqual([2, 1, 1]);
    // The next counted change counts every match, the one written behind the triggers' back too.
    await open(leafToken, { locationId: zlatibor.id, odgovoran: tree.leaf.id, opis: 'Zapamćen treći' });
    expect(await totals()).toEqual([4, 3, 1]);
  });
});
