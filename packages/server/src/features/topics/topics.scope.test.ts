import { LIST_SORTS } from '@trasa/domain';
import { and, desc, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { scopedClusters, scopeOfUser } from '../../../test/scopes.js';
import { topics } from '../../db/schema-clusters.js';
import { orderOf } from '../../platform/sorting.js';
import { createCluster, createUser, tokenFor } from '../../seed/factories.js';
import { visibleClusterCondition } from '../clusters/policy.js';
import type { TopicRights } from './permissions.js';
import { presentTopic, selectTopics } from './presenter.js';
import { TOPIC_SORTS, topicSearchCondition } from './service.js';
import { adminToken, call, leafToken, listIds, NO_ID, open, setupTopics, t, tree, zlatibor } from './topicsSetup.js';

setupTopics();

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

describe("a limited scope's newest topics (headOfScopePage) and its total from the kept numbers (drizzle/0025)", () => {
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

describe("the Admin's filtered or searched count, counted on every request", () => {
  it('follows every change the filters read', async () => {
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
    // A change the filters do not read changes no count.
    await t.db
      .update(topics)
      .set({ rok: new Date('2031-02-01T00:00:00Z') })
      .where(eq(topics.id, first._id));
    expect(await totals()).toEqual([2, 1, 1]);
    await open(leafToken, { locationId: zlatibor.id, odgovoran: tree.leaf.id, opis: 'Zapamćen treći' });
    expect(await totals()).toEqual([3, 2, 1]);
  });
});
