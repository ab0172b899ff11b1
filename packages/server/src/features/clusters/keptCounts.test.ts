import type { CommentListDto } from '@trasa/domain';
import { asc, desc, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { activityOf, addComment } from '../../../test/activityData.js';
import { useTestApp, withoutKeptVerify } from '../../../test/harness.js';
import { scopedClusters, scopeOfUser } from '../../../test/scopes.js';
import { activityComments } from '../../db/schema-activities.js';
import { clusters, topics } from '../../db/schema-clusters.js';
import { createUser, tokenFor } from '../../seed/factories.js';
import { visibleClusterCondition } from './policy.js';

const t = useTestApp();

/** Clusters whose kept numbers (cluster_list_counts, drizzle/0025) differ from their comments and topics counted. */
const stale = async () =>
  (
    await t.db.execute<{ n: number }>(sql`select count(*)::int as n from (
      select c.id, (select count(*) from activity_comments a where a.cluster_id = c.id)::int as comments,
        (select count(*) from topics x where x.cluster_id = c.id)::int as topics
      from clusters c) real
      left join cluster_list_counts k on k.cluster_id = real.id
      where coalesce(k.comments, 0) <> real.comments or coalesce(k.topics, 0) <> real.topics`)
  ).rows[0]?.n;
const kept = async (clusterId: string) =>
  (
    await t.db.execute<{ comments: number; topics: number }>(
      sql`select comments, topics from cluster_list_counts where cluster_id = ${clusterId}`,
    )
  ).rows[0];

const addTopic = (clusterId: string, groupId: string, opis: string) =>
  t.db.insert(topics).values({ clusterId, groupId, opis }).returning({ id: topics.id });

describe('the kept numbers of comments and topics per cluster (drizzle/0025)', () => {
  it('follow inserts, deletes, a moved activity and topic, a removed cluster and a truncation', async () => {
    const { tree, own, byContract, foreign } = await scopedClusters(t.db, 'Broj');
    expect(await stale()).toBe(0);
    const a1 = await activityOf(t.db, own.id, 'A1');
    await addComment(t.db, { activityId: a1.id, userId: null, komentar: 'Jedan' });
    expect(await kept(own.id)).toEqual({ comments: 1, topics: 0 });
    // Many in one statement: one recount per statement.
    await t.db.execute(sql`insert into activity_comments (activity_id, user_id, komentar)
      select a.id, null, 'Mnogo ' || n from activities a, generate_series(1, 3) n where a.cluster_id in (${own.id}, ${byContract.id})`);
    expect(await stale()).toBe(0);
    const perCluster = (await kept(byContract.id))?.comments ?? 0;
    expect(perCluster).toBeGreaterThan(3);
    await addTopic(own.id, tree.leaf.id, 'Tema jedan');
    const [moved] = await addTopic(own.id, tree.leaf.id, 'Tema dva');
    expect(await kept(own.id)).toMatchObject({ topics: 2 });

    await t.db.execute(sql`delete from activity_comments where komentar like 'Mnogo %' and cluster_id = ${own.id}`);
    expect(await stale()).toBe(0);
    expect(await kept(own.id)).toEqual({ comments: 1, topics: 2 });

    // An activity moved to another cluster takes its comments along (0013 follows the comments' cluster).
    await t.db.execute(sql`delete from activities where cluster_id = ${foreign.id} and code = 'A1'`);
    await t.db.execute(sql`update activities set cluster_id = ${foreign.id} where id = ${a1.id}`);
    expect(await stale()).toBe(0);
    expect(await kept(own.id)).toEqual({ comments: 0, topics: 2 });
    expect(await kept(foreign.id)).toEqual({ comments: 1, topics: 0 });
    await t.db.execute(sql`update topics set cluster_id = ${foreign.id} where id = ${moved?.id}`);
    expect(await stale()).toBe(0);
    expect(await kept(foreign.id)).toEqual({ comments: 1, topics: 1 });
    await t.db.execute(sql`delete from topics where id = ${moved?.id}`);
    expect(await kept(foreign.id)).toEqual({ comments: 1, topics: 0 });

    // A removed cluster: its activities, comments and topics go by the cascades, its numbers to 0.
    await t.db.execute(sql`delete from clusters where id = ${byContract.id}`);
    expect(await stale()).toBe(0);
    expect(await kept(byContract.id)).toEqual({ comments: 0, topics: 0 });

    await t.db.execute(sql`truncate activity_comments, topics cascade`);
    expect(await stale()).toBe(0);
    expect(await kept(foreign.id)).toEqual({ comments: 0, topics: 0 });
  });

  it('count two comments written at once on one cluster, each in its own transaction', async () => {
    const { own } = await scopedClusters(t.db, 'Istovremeno');
    const activity = await activityOf(t.db, own.id, 'A2');
    const first = await t.db.$client.connect();
    const second = await t.db.$client.connect();
    try {
      await first.query('begin');
      await second.query('begin');
      await first.query(`insert into activity_comments (activity_id, komentar) values ($1, 'prvi')`, [activity.id]);
      // The second waits for the first's lock on the cluster's numbers, then counts with the first committed.
      const waiting = second.query(`insert into activity_comments (activity_id, komentar) values ($1, 'drugi')`, [activity.id]);
      await new Promise((resolve) => setTimeout(resolve, 100));
      await first.query('commit');
      await waiting;
      await second.query('commit');
    } finally {
      first.release();
      second.release();
    }
    expect(await kept(own.id)).toMatchObject({ comments: 2 });
    expect(await stale()).toBe(0);
  });

  it("keep a restore's copy of a row the recount already made from failing it (the recount stays)", async () => {
    const { own } = await scopedClusters(t.db, 'Povratak');
    await addComment(t.db, { activityId: (await activityOf(t.db, own.id, 'A3')).id, userId: null });
    await t.db.execute(sql`insert into cluster_list_counts (cluster_id, comments, topics) values (${own.id}, 40, 40)`);
    expect(await kept(own.id)).toEqual({ comments: 1, topics: 0 });
    const fresh = '00000000-0000-4000-8000-000000000025';
    await t.db.execute(sql`insert into cluster_list_counts (cluster_id, comments, topics) values (${fresh}, 3, 4)`);
    expect(await kept(fresh)).toEqual({ comments: 3, topics: 4 });
  });
});

describe('the lists read the kept numbers (issue 15: totals and pages sorted by cluster without counting)', () => {
  // One case per caller (both orders), then the kept sums: not all in one case.
  type Person = Awaited<ReturnType<typeof createUser>>;
  const people = new Map<string, Person>();
  let own: { id: string };
  let leaf: Person;
  const clusterName = sql`(select c.naziv from ${clusters} c where c.id = ${activityComments}.cluster_id)`;
  beforeAll(async () => {
    const made = await scopedClusters(t.db, 'Zbir');
    ({ own } = made);
    const { tree, byContract, foreign } = made;
    for (const [i, cluster] of [own, byContract, foreign].entries()) {
      for (const code of ['A1', 'A4']) {
        const activity = await activityOf(t.db, cluster.id, code);
        // 1, 3 and 5 comments: pages of 2 begin inside a cluster.
        for (let k = 0; k < (code === 'A1' ? i + 1 : i); k++)
          await addComment(t.db, { activityId: activity.id, userId: null, komentar: `Zbir ${i} ${code} ${k}` });
      }
      for (let k = 0; k < 2 + i; k++) await addTopic(cluster.id, tree.leaf.id, `Zbir tema ${i} ${k}`);
    }
    people.set('Admin', await createUser(t.db, { role: 'Admin' }));
    leaf = await createUser(t.db, { role: 'Zaposleni', groupId: tree.leaf.id });
    people.set('Zaposleni of the leaf', leaf);
    people.set('Rukovodilac', tree.manager);
  });

  it.each(['Admin', 'Zaposleni of the leaf', 'Rukovodilac'])(
    'total and page every scope by cluster both ways as the rows counted and sorted: as the %s',
    async (who) => {
      const person = people.get(who);
      if (!person) throw new Error(`no ${who}`);
      const token = await tokenFor(t.ctx, person);
      const scope = await scopeOfUser(t.db, person);
      for (const order of ['asc', 'desc'] as const) {
        const by = order === 'asc' ? asc : desc;
        const comments = (
          await t.db
            .select({ id: activityComments.id })
            .from(activityComments)
            .where(visibleClusterCondition(scope, sql`${activityComments}.cluster_id`))
            .orderBy(by(sql`${clusterName} collate trasa_sr`), by(activityComments.id))
        ).map((r) => r.id);
        const topicRows = (
          await t.db
            .select({ id: topics.id })
            .from(topics)
            .where(visibleClusterCondition(scope, topics.clusterId))
            .orderBy(by(sql`(select c.naziv from ${clusters} c where c.id = ${topics.clusterId}) collate trasa_sr`), by(topics.id))
        ).map((r) => r.id);
        const gotComments: string[] = [];
        const gotTopics: string[] = [];
        for (let page = 1; page < 40; page++) {
          const c = await t.call({ method: 'GET', url: `/api/comment?sort=klaster&order=${order}&limit=2&page=${page}`, token });
          expect(c.statusCode, c.body).toBe(200);
          expect(c.json().totalResults).toBe(comments.length);
          gotComments.push(...(c.json().comments as CommentListDto[]).map((x) => x._id));
          const tp = await t.call({ method: 'GET', url: `/api/topic?sort=nazivKlastera&order=${order}&limit=2&page=${page}`, token });
          expect(tp.statusCode, tp.body).toBe(200);
          expect(tp.json().total).toBe(topicRows.length);
          gotTopics.push(...(tp.json().data as { _id: string }[]).map((x) => x._id));
          if (page * 2 >= Math.max(comments.length, topicRows.length) + 2) break;
        }
        expect(gotComments, `${person.id} ${order}`).toEqual(comments);
        expect(gotTopics, `${person.id} ${order}`).toEqual(topicRows);
      }
    },
  );

  it('totals a limited scope by the kept sums, not by counting its rows', async () => {
    // The leaf's total is the kept sum (a number set aside shows through), not a count of its rows. The
    // server keeps the comments' sum under their version (keptScopeTotal): a number changed behind its back
    // shows once the version has moved (`moved`: as any counted change of a comment moves it); the topics'
    // sum is read on every request.
    const moved = () => t.db.execute(sql`update report_cache_state set version = version + 1 where name = 'comments'`);
    const leafToken = await tokenFor(t.ctx, leaf);
    const before = (await t.call({ method: 'GET', url: '/api/comment?page=1&limit=2', token: leafToken })).json().totalResults;
    // (Behind the versions' back: under TRASA_KEPT_VERIFY the kept sum would rightly differ from a fresh one.)
    await withoutKeptVerify(t, async () => {
      await t.db.execute(sql`update cluster_list_counts set comments = comments + 5 where cluster_id = ${own.id}`);
      expect((await t.call({ method: 'GET', url: '/api/comment?page=1&limit=2', token: leafToken })).json().totalResults).toBe(before);
    });
    await moved();
    try {
      expect((await t.call({ method: 'GET', url: '/api/comment?page=1&limit=2', token: leafToken })).json().totalResults).toBe(before + 5);
    } finally {
      await t.db.execute(sql`update cluster_list_counts set comments = comments - 5 where cluster_id = ${own.id}`);
      await moved();
    }
    // Past the exact count's limit too: the kept sum is exact, so it is the answer (no planner's estimate,
    // which the other long lists give past 10,000), for comments and topics alike.
    const topicsBefore = (await t.call({ method: 'GET', url: '/api/topic?page=1&limit=2', token: leafToken })).json().total;
    await t.db.execute(
      sql`update cluster_list_counts set comments = comments + 25000, topics = topics + 12345 where cluster_id = ${own.id}`,
    );
    await moved();
    try {
      expect((await t.call({ method: 'GET', url: '/api/comment?page=1&limit=2', token: leafToken })).json().totalResults).toBe(
        before + 25_000,
      );
      expect((await t.call({ method: 'GET', url: '/api/topic?page=1&limit=2', token: leafToken })).json().total).toBe(
        topicsBefore + 12_345,
      );
    } finally {
      await t.db.execute(
        sql`update cluster_list_counts set comments = comments - 25000, topics = topics - 12345 where cluster_id = ${own.id}`,
      );
      await moved();
    }
  });
});
