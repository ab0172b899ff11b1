import { type CommentListDto, LIST_SORTS } from '@trasa/domain';
import { and, desc, eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { activityOf, addComment } from '../../../test/activityData.js';
import { withoutKeptVerify } from '../../../test/harness.js';
import { scopedClusters, scopeOfUser } from '../../../test/scopes.js';
import { users } from '../../db/schema.js';
import { activities, activityCatalogue, activityComments } from '../../db/schema-activities.js';
import { clusters, topics } from '../../db/schema-clusters.js';
import { estimatedRows, tableEstimateSql } from '../../platform/paging.js';
import { createCluster, createUser, tokenFor } from '../../seed/factories.js';
import { visibleClusterCondition } from '../clusters/policy.js';
import { adminToken, at, clusterIds, contractOnly, ids, leafToken, list, listOrder, setupCommentsList, t } from './commentsListSetup.js';
import { presentCommentRow } from './presenter.js';

setupCommentsList();
describe("a limited scope's comments (issue 15: sorted by cluster, only the scope's clusters walked)", () => {
  // Every row of every page whole (the page's ids and total come from one statement, its rows from a
  // prepared statement in the ids' order): the rows the plain joined query of before selects, orders and
  // presents, for the Admin too. One case per caller and sort key (both ways, every search term): the whole
  // enumeration in one case took over 20 s on a busy machine.
  describe('pages every sort both ways, listed and searched, as the scope and search of before select, order and present them', () => {
    type Person = Awaited<ReturnType<typeof createUser>>;
    const people = new Map<string, Person>();
    beforeAll(async () => {
      const { tree, own, byContract, foreign } = await scopedClusters(t.db, 'Redosled');
      const leafUser = await createUser(t.db, { role: 'Zaposleni', groupId: tree.leaf.id, ime: 'Zoran', prezime: 'Redić' });
      const otherUser = await createUser(t.db, { role: 'Zaposleni', groupId: tree.other.id, ime: 'Ana', prezime: 'Redić' });
      let n = 0;
      for (const cluster of [own, byContract, foreign]) {
        for (const code of ['A10', 'A1']) {
          const activity = await activityOf(t.db, cluster.id, code);
          for (let i = 0; i < 3; i++) {
            n++;
            const userId = n % 5 === 0 ? null : n % 2 === 0 ? leafUser.id : otherUser.id;
            // Equal times in pairs: the id breaks the tie.
            await addComment(t.db, {
              activityId: activity.id,
              userId,
              komentar: `Redosled ${n % 3 === 0 ? 'kabl' : 'šaht'} ${n}`,
              createdAt: at(30 + Math.floor(n / 2)),
            });
          }
        }
      }
      people.set('Zaposleni of the leaf', leafUser);
      people.set('Zaposleni of the other group', otherUser);
      people.set('Rukovodilac', tree.manager);
      people.set('Zaposleni of the root', await createUser(t.db, { role: 'Zaposleni', groupId: tree.root.id }));
      people.set('Admin', await createUser(t.db, { role: 'Admin' }));
    });
    const cluster = sql`(select a.cluster_id from activities a where a.id = ${activityComments.activityId})`;
    const before = (term: string) => {
      const like = `%${term}%`;
      return sql`(${activityComments.searchText} like ${like}
        or ${activityComments.userId} in (select u.id from users u where u.search_text like ${like})
        or ${activityComments.activityId} in (select a.id from activities a
          where a.cluster_id in (select c.id from clusters c where c.search_text like ${like})
            or a.code in (select k.code from activity_catalogue k where trasa_fold(k.code || ' ' || k.naziv) like ${like})))`;
    };
    const sorts: [string, (typeof LIST_SORTS.comments)[number] | undefined][] = [
      ['the default order', undefined],
      ...LIST_SORTS.comments.map((sort): [string, typeof sort] => [sort, sort]),
    ];

    describe.each(['Zaposleni of the leaf', 'Zaposleni of the other group', 'Rukovodilac', 'Zaposleni of the root', 'Admin'])(
      'as the %s',
      (who) => {
        it.each(sorts)('by %s', async (_, sort) => {
          const person = people.get(who);
          if (!person) throw new Error(`no ${who}`);
          const admin = who === 'Admin';
          const token = await tokenFor(t.ctx, person);
          const scope = await scopeOfUser(t.db, person);
          // The Admin sees the other tests' comments too (1,005 'kabl' of "a search's total"): the words of
          // this test only, and the first pages of the whole list.
          const terms = admin ? ['', 'redosled', 'redic', 'arilje'] : ['', 'redosled', 'kabl', 'redic', 'arilje'];
          for (const term of terms) {
            const lastPage = admin && !term ? 4 : 60;
            for (const order of ['asc', 'desc'] as const) {
              const rows = await t.db
                .select({
                  id: activityComments.id,
                  komentar: activityComments.komentar,
                  createdAt: activityComments.createdAt,
                  activityId: activities.id,
                  code: activities.code,
                  activityNaziv: activityCatalogue.naziv,
                  clusterId: clusters.id,
                  clusterNaziv: clusters.naziv,
                  authorId: users.id,
                  ime: users.ime,
                  prezime: users.prezime,
                  email: users.email,
                  deletedAt: users.deletedAt,
                })
                .from(activityComments)
                .innerJoin(activities, eq(activities.id, activityComments.activityId))
                .innerJoin(activityCatalogue, eq(activityCatalogue.code, activities.code))
                .innerJoin(clusters, eq(clusters.id, activities.clusterId))
                .leftJoin(users, eq(users.id, activityComments.userId))
                .where(and(visibleClusterCondition(scope, cluster), term ? before(term) : undefined))
                .orderBy(...listOrder(sort, order));
              const expected = rows.map(({ authorId, ime, prezime, email, deletedAt, ...r }) =>
                presentCommentRow({
                  ...r,
                  user: authorId ? { ime: ime ?? '', prezime: prezime ?? '', email: email ?? '', deletedAt } : null,
                }),
              );
              const got: CommentListDto[] = [];
              let total = -1;
              for (let page = 1; page <= lastPage; page++) {
                const url = term ? `/api/search/comment?eng=${term}&` : '/api/comment?';
                const res = await list(`${url}${sort ? `sort=${sort}&order=${order}&` : ''}limit=3&page=${page}`, token);
                expect(res.statusCode, res.body).toBe(200);
                const body = res.json() as { comments: CommentListDto[]; totalResults: number };
                got.push(...body.comments);
                total = body.totalResults;
                if (body.comments.length < 3) break;
              }
              const what = `${person.id} '${term}' ${sort} ${order}`;
              expect(got, what).toEqual(expected.slice(0, got.length));
              if (lastPage === 60) expect(got, what).toHaveLength(expected.length);
              expect(total, what).toBe(expected.length);
            }
          }
        });
      },
    );
  });

  it("pages a scope's newest comments behind many newer ones of others, and a deep page, as the whole scope sorted", async () => {
    const { tree, own, foreign } = await scopedClusters(t.db, 'Glava');
    const leafUser = await createUser(t.db, { role: 'Zaposleni', groupId: tree.leaf.id });
    const otherUser = await createUser(t.db, { role: 'Zaposleni', groupId: tree.other.id });
    const ownActivity = await activityOf(t.db, own.id, 'A1');
    const foreignActivity = await activityOf(t.db, foreign.id, 'A1');
    // The leaf's 4 comments, then 70 newer ones it doesn't see (more than 20 × the 3 rows of a page).
    for (let i = 0; i < 4; i++)
      await addComment(t.db, { activityId: ownActivity.id, userId: null, komentar: `Glava svoja ${i}`, createdAt: at(40 + i) });
    await t.db.execute(sql`insert into activity_comments (activity_id, user_id, komentar, created_at)
      select ${foreignActivity.id}, null, 'Glava tuđa ' || n, ${at(50)}::timestamptz + n * interval '1 second' from generate_series(1, 70) n`);
    for (const person of [leafUser, otherUser]) {
      const token = await tokenFor(t.ctx, person);
      const scope = await scopeOfUser(t.db, person);
      const cluster = sql`(select a.cluster_id from activities a where a.id = ${activityComments.activityId})`;
      const expected = (
        await t.db
          .select({ id: activityComments.id })
          .from(activityComments)
          .where(visibleClusterCondition(scope, cluster))
          .orderBy(desc(activityComments.createdAt), desc(activityComments.id))
      ).map((r) => r.id);
      for (const [page, limit] of [
        [1, 3],
        [2, 3],
        [1, 10],
        [3, 10],
        [200, 3],
        [2, 300],
      ] as const) {
        const body = (await list(`/api/comment?page=${page}&limit=${limit}`, token)).json() as { comments: CommentListDto[] };
        expect(
          body.comments.map((c) => c._id),
          `${person.id} ${page} ${limit}`,
        ).toEqual(expected.slice((page - 1) * limit, page * limit));
      }
    }
  });
});

describe("a limited scope's deep pages read from the end (issue 15: past 500 rows, in the second half of the kept total)", () => {
  // One case per sort key (both ways, some 30 requests), not all of them in one case.
  let token = '';
  let scope: Awaited<ReturnType<typeof scopeOfUser>>;
  beforeAll(async () => {
    const { tree, own, byContract, foreign } = await scopedClusters(t.db, 'Kraj');
    const leafUser = await createUser(t.db, { role: 'Zaposleni', groupId: tree.leaf.id, ime: 'Lazar', prezime: 'Krajić' });
    const otherUser = await createUser(t.db, { role: 'Zaposleni', groupId: tree.other.id, ime: 'Bora', prezime: 'Krajić' });
    // 1,100 comments the leaf sees (over two clusters and two activities each, three authors or none, times
    // equal in threes: the id breaks ties) between 200 of a cluster it doesn't see.
    const activitiesOf = await Promise.all(
      [own, byContract, foreign].flatMap((c) => ['A1', 'A10'].map(async (code) => (await activityOf(t.db, c.id, code)).id)),
    );
    const seen = activitiesOf.slice(0, 4);
    const unseen = activitiesOf.slice(4);
    await t.db.execute(sql`insert into activity_comments (activity_id, user_id, komentar, created_at)
      select (${`{${seen.join(',')}}`}::uuid[])[1 + n % 4],
        case n % 3 when 0 then ${leafUser.id}::uuid when 1 then ${otherUser.id}::uuid else null end,
        'Kraj ' || (n % 37), ${at(10)}::timestamptz + (n / 3) * interval '1 second'
      from generate_series(1, 1100) n`);
    await t.db.execute(sql`insert into activity_comments (activity_id, user_id, komentar, created_at)
      select (${`{${unseen.join(',')}}`}::uuid[])[1 + n % 2], null, 'Kraj tuđi ' || n, ${at(10)}::timestamptz + n * interval '2 second'
      from generate_series(1, 200) n`);
    token = await tokenFor(t.ctx, leafUser);
    scope = await scopeOfUser(t.db, leafUser);
  });
  const cluster = sql`(select a.cluster_id from activities a where a.id = ${activityComments.activityId})`;

  it.each([['the default order', undefined] as const, ...LIST_SORTS.comments.map((sort) => [sort, sort] as const)])(
    'pages every sort both ways around the middle and to past the end, as the whole scope sorted: by %s',
    async (_, sort) => {
      for (const order of ['asc', 'desc'] as const) {
        const expected = (
          await t.db
            .select({ id: activityComments.id })
            .from(activityComments)
            .where(visibleClusterCondition(scope, cluster))
            .orderBy(...listOrder(sort, order))
        ).map((r) => r.id);
        expect(expected).toHaveLength(1100);
        // Read forward (offset 490–549: under the half), from the end (550 on, the last page short), past
        // the end; pages of 1, 7, 10 and 100 rows.
        for (const [page, limit] of [
          [50, 10],
          [55, 10],
          [56, 10],
          [110, 10],
          [111, 10],
          [112, 10],
          [71, 7],
          [79, 7],
          [158, 7],
          [157, 7],
          [551, 1],
          [1100, 1],
          [6, 100],
          [11, 100],
          [12, 100],
        ] as const) {
          const res = await list(`/api/comment?${sort ? `sort=${sort}&order=${order}&` : ''}page=${page}&limit=${limit}`, token);
          expect(res.statusCode, res.body).toBe(200);
          const body = res.json() as { comments: CommentListDto[]; totalResults: number };
          const what = `${sort} ${order} ${page} × ${limit}`;
          expect(
            body.comments.map((c) => c._id),
            what,
          ).toEqual(expected.slice((page - 1) * limit, page * limit));
          expect(body.totalResults, what).toBe(1100);
        }
      }
    },
  );
});

describe("a whole table's estimate read in the list's statement (the Admin's totals without an EXPLAIN of their own)", () => {
  it("is EXPLAIN's estimate of the table, after ANALYZE and after rows added since", async () => {
    const explained = async (table: 'activity_comments' | 'topics') =>
      estimatedRows(t.db, table === 'topics' ? topics : activityComments, undefined);
    const read = async (table: 'activity_comments' | 'topics') => {
      const n = (
        await t.db.execute<{ n: string | number | null }>(
          sql`select ${tableEstimateSql(table === 'topics' ? topics : activityComments)} as n`,
        )
      ).rows[0]?.n;
      return n == null ? null : Number(n);
    };
    await t.db.execute(sql`analyze activity_comments`);
    await t.db.execute(sql`analyze topics`);
    const analyzed = await read('activity_comments');
    expect(analyzed).toBe(await explained('activity_comments'));
    // This file's topics table is empty (no pages): no estimate is read, totalOf asks EXPLAIN.
    expect(await read('topics')).toBeNull();
    // Pages added since the last ANALYZE: the density of the statistics times the pages there are now.
    await t.db.execute(sql`insert into activity_comments (activity_id, user_id, komentar, created_at)
      select ${ids.a1}, null, repeat('Procena ', 40) || n, now() from generate_series(1, 3000) n`);
    const grown = await read('activity_comments');
    expect(grown).toBe(await explained('activity_comments'));
    expect(grown).toBeGreaterThan(analyzed ?? 0);
  });
});

describe("a search's count kept by the comments' version (drizzle/0030; a limited scope's also by 'locations')", () => {
  it('is counted again after every change the search reads, and only then', async () => {
    const writer = await createUser(t.db, { role: 'Zaposleni', ime: 'Zapamćena', prezime: 'Pisac', email: 'pisac@trasa.test' });
    const hidden = await createCluster(t.db, { naziv: 'Klaster Kept Skriveni', groupIds: [] });
    const inHidden = await activityOf(t.db, hidden.id, 'A4');
    const totals = async () =>
      Promise.all(
        [adminToken, leafToken].map(async (token) => {
          const res = await list('/api/search/comment?eng=ulozak&srb=&page=1&limit=2', token);
          expect(res.statusCode, res.body).toBe(200);
          return res.json().totalResults as number;
        }),
      );
    expect(await totals()).toEqual([0, 0]);
    const seen = await addComment(t.db, { activityId: ids.a1 as string, userId: writer.id, komentar: 'Uložak prvi.' });
    expect(await totals()).toEqual([1, 1]);
    const unseen = await addComment(t.db, { activityId: inHidden.id, userId: null, komentar: 'Uložak drugi.' });
    expect(await totals()).toEqual([2, 1]);
    // The text changed out of the search and back; found by its author's kept name instead of its text.
    await t.db.update(activityComments).set({ komentar: 'Nešto drugo.' }).where(eq(activityComments.id, seen.id));
    expect(await totals()).toEqual([1, 0]);
    await t.db.execute(sql`update users set ime = 'Uložak' where id = ${writer.id}`);
    expect(await totals()).toEqual([2, 1]);
    // The hidden cluster given to the leaf's group ('locations' moves): the leaf now sees its comment.
    await t.db.execute(sql`insert into cluster_groups (cluster_id, group_id)
      select ${hidden.id}, group_id from cluster_groups where cluster_id = ${clusterIds.mine}`);
    expect(await totals()).toEqual([2, 2]);
    await t.db.execute(sql`delete from cluster_groups where cluster_id = ${hidden.id}`);
    expect(await totals()).toEqual([2, 1]);
    // Seen through a contract whose groups gain the leaf's root (drizzle/0033's 'visibility' moves alone).
    const viaContract = await contractOnly(hidden.id);
    expect(await totals()).toEqual([2, 1]);
    await viaContract.give();
    expect(await totals()).toEqual([2, 2]);
    await viaContract.take();
    expect(await totals()).toEqual([2, 1]);
    // Found by its cluster's kept name; then deleted.
    await t.db.execute(sql`update clusters set naziv = 'Klaster Uložak' where id = ${hidden.id}`);
    await t.db.update(activityComments).set({ komentar: 'Bez reči.' }).where(eq(activityComments.id, unseen.id));
    expect(await totals()).toEqual([2, 1]);
    await t.db.delete(activityComments).where(eq(activityComments.id, unseen.id));
    expect(await totals()).toEqual([1, 1]);
    // A change the search does not read keeps the count; one made with the triggers off (the versions
    // unmoved) shows that the count is indeed kept, not counted again.
    await t.db.execute(sql`update activity_comments set created_at = created_at - interval '1 day' where id = ${seen.id}`);
    expect(await totals()).toEqual([1, 1]);
    await withoutKeptVerify(t, async () => {
      await t.db.transaction(async (tx) => {
        await tx.execute(sql`set local session_replication_role = replica`);
        // (the comment's cluster given: the trigger that copies it from the activity is off too)
        await tx.execute(sql`insert into activity_comments (activity_id, cluster_id, user_id, komentar)
          values (${ids.a1}, ${clusterIds.mine}, null, 'Uložak tajni.')`);
      });
      expect(await totals()).toEqual([1, 1]);
    });
    // The next counted change counts every match, the one written behind the triggers' back too.
    await addComment(t.db, { activityId: ids.a1 as string, userId: null, komentar: 'Uložak treći.' });
    expect(await totals()).toEqual([3, 3]);
  });
});

describe("a limited scope's list total kept by the comments' and the clusters' versions (keptScopeTotal)", () => {
  it('is summed again after every change of its comments or of what the scope sees, and only then', async () => {
    const hidden = await createCluster(t.db, { naziv: 'Klaster Zbir Skriveni', groupIds: [] });
    const inHidden = await activityOf(t.db, hidden.id, 'A4');
    const total = async () => {
      const res = await list('/api/comment?page=1&limit=2', leafToken);
      expect(res.statusCode, res.body).toBe(200);
      return res.json().totalResults as number;
    };
    const start = await total();
    expect(await total()).toBe(start);
    const seen = await addComment(t.db, { activityId: ids.a1 as string, userId: null, komentar: 'Zbir prvi.' });
    expect(await total()).toBe(start + 1);
    await addComment(t.db, { activityId: inHidden.id, userId: null, komentar: 'Zbir skriveni.' });
    expect(await total()).toBe(start + 1);
    // The hidden cluster given to the leaf's group ('locations' moves): its comment is the leaf's now.
    await t.db.execute(sql`insert into cluster_groups (cluster_id, group_id)
      select ${hidden.id}, group_id from cluster_groups where cluster_id = ${clusterIds.mine}`);
    expect(await total()).toBe(start + 2);
    await t.db.execute(sql`delete from cluster_groups where cluster_id = ${hidden.id}`);
    expect(await total()).toBe(start + 1);
    const viaContract = await contractOnly(hidden.id);
    expect(await total()).toBe(start + 1);
    await viaContract.give();
    expect(await total()).toBe(start + 2);
    await viaContract.take();
    expect(await total()).toBe(start + 1);
    await t.db.delete(activityComments).where(eq(activityComments.id, seen.id));
    expect(await total()).toBe(start);
    // The kept numbers changed behind the versions' back (triggers off): the total kept is answered; the
    // next counted change sums them again (its trigger counts the cluster's comments afresh: the 100 go).
    await withoutKeptVerify(t, async () => {
      await t.db.transaction(async (tx) => {
        await tx.execute(sql`set local session_replication_role = replica`);
        await tx.execute(sql`update cluster_list_counts set comments = comments + 100 where cluster_id = ${clusterIds.mine}`);
      });
      expect(await total()).toBe(start);
    });
    await addComment(t.db, { activityId: ids.a1 as string, userId: null, komentar: 'Zbir drugi.' });
    expect(await total()).toBe(start + 1);
    const [row] = (
      await t.db.execute<{ kept: number; n: number }>(sql`select k.comments as kept,
        (select count(*)::int from activity_comments c where c.cluster_id = k.cluster_id) as n
        from cluster_list_counts k where k.cluster_id = ${clusterIds.mine}`)
    ).rows;
    expect(row?.kept).toBe(row?.n);
  });
});
