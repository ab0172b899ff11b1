import { LIST_SORTS, type SortOrder } from '@trasa/domain';
import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../test/harness.js';
import { users } from '../db/schema.js';
import { activities, activityComments } from '../db/schema-activities.js';
import { topics } from '../db/schema-clusters.js';
import { COMMENT_SORTS } from '../features/commentsList/service.js';
import { TOPIC_SORTS } from '../features/topics/service.js';
import { userOrder } from '../features/users/presenter.js';
import { USER_SORTS } from '../features/users/service.js';
import { createCluster, createGroup, createRole, createUser, setActivityState, tokenFor } from '../seed/factories.js';
import { orderOf } from './sorting.js';

/**
 * Deep sorted pages (issue 15 item 3): the sorts by a joined name walk the smaller table in its order
 * (users by group or role, comments by cluster, author or activity, topics by cluster) and every other
 * key reads its own order index. Whatever the plan, the pages must be the rows in exactly the order of
 * the SortMap's expression (ties by the id, empty values last going up and first going down): each list
 * is read page by page (4 rows, so pages end inside groups of equal keys) and compared with that order
 * computed by the plain ORDER BY.
 */
const t = useTestApp();
let adminToken: string;

/** Serbian order differs from byte order (Č, Ć, Đ after Z); given shuffled. */
const NAMES = ['Đurić', 'Cvetković', 'Zec', 'Ćuprija', 'Čačak'];
const DIRECTIONS: SortOrder[] = ['asc', 'desc'];

/** Every page of `url` (4 rows each) concatenated: the ids in the order the API gives them. */
async function allPages(url: string, rowsOf: (body: Record<string, unknown>) => { _id: string }[]): Promise<string[]> {
  const ids: string[] = [];
  for (let page = 1; page < 100; page++) {
    const res = await t.call({ method: 'GET', url: `${url}&limit=4&page=${page}`, token: adminToken });
    expect(res.statusCode, res.body).toBe(200);
    const rows = rowsOf(res.json());
    ids.push(...rows.map((r) => r._id));
    if (rows.length < 4) break;
  }
  return ids;
}

beforeAll(async () => {
  const admin = await createUser(t.db, { role: 'Admin', ime: 'Ana', prezime: 'Adminović' });
  adminToken = await tokenFor(t.ctx, admin);
  // Groups named out of byte order, three members each with equal first names (ties); guests without a
  // group; two extra roles with the same name (their users tie on the role's name); a deleted user.
  const twins = [await createRole(t.db, { imeRole: 'Čuvar' }), await createRole(t.db, { imeRole: 'Čuvar' })];
  let n = 0;
  for (const naziv of NAMES) {
    const group = await createGroup(t.db, { naziv: `${naziv} grupa` });
    for (const prezime of NAMES.slice(0, 3)) {
      n++;
      const role = twins[n % 3];
      await createUser(t.db, {
        ime: n % 2 ? 'Ana' : 'Đorđe',
        prezime,
        email: `${NAMES[n % 5]?.toLowerCase()}.${n}@primer.rs`,
        groupId: group.id,
        ...(role ? { roleId: role.id } : {}),
        status: n % 4 ? 'aktivan' : 'neaktivan',
      });
    }
  }
  for (const ime of ['Zoran', 'Ćira']) await createUser(t.db, { role: 'Gost', ime, prezime: 'Gostović' });
  const gone = await createUser(t.db, { ime: 'Obrisan', prezime: 'Čačak' });
  await t.db.update(users).set({ deletedAt: new Date() }).where(eq(users.id, gone.id));
});

describe('users sorted by every key', () => {
  it('GET /api/user pages in the order of USER_SORTS, both ways (group, role, names, e-mail, flags)', async () => {
    for (const sort of LIST_SORTS.users) {
      for (const order of DIRECTIONS) {
        const expected = await t.db
          .select({ id: users.id })
          .from(users)
          .where(isNull(users.deletedAt))
          .orderBy(...orderOf(USER_SORTS, { sort, order }, userOrder, users.id));
        const got = await allPages(`/api/user?sort=${sort}&order=${order}`, (b) => b.users as { _id: string }[]);
        expect(got, `${sort} ${order}`).toEqual(expected.map((r) => r.id));
      }
    }
  });

  it('the users of one role page by group and by role name the same way', async () => {
    const [one] = await t.db.select({ roleId: users.roleId }).from(users).where(eq(users.prezime, 'Zec')).limit(1);
    const roleId = one?.roleId ?? '';
    for (const sort of ['grupa', 'rola'] as const) {
      for (const order of DIRECTIONS) {
        const expected = await t.db
          .select({ id: users.id })
          .from(users)
          .where(eq(users.roleId, roleId))
          .orderBy(...orderOf(USER_SORTS, { sort, order }, userOrder, users.id));
        const got = await allPages(
          `/api/user/users-per-role?roleId=${roleId}&sort=${sort}&order=${order}`,
          (b) => b.users as { _id: string }[],
        );
        expect(got.length).toBeGreaterThan(1);
        expect(got, `${sort} ${order}`).toEqual(expected.map((r) => r.id));
      }
    }
  });
});

describe('comments and topics sorted by a joined column', () => {
  beforeAll(async () => {
    const authors = await t.db.select().from(users).where(isNull(users.deletedAt)).limit(6);
    const group = await createGroup(t.db, { naziv: 'Odgovorna grupa teme' });
    let n = 0;
    for (const naziv of NAMES) {
      const cluster = await createCluster(t.db, { naziv: `${naziv} klaster` });
      for (const code of ['A10', 'A2']) {
        const activity = await setActivityState(t.db, cluster.id, code, { status: 'U toku', datumPocetka: '2026-01-10' });
        for (let i = 0; i < 2; i++) {
          n++;
          // Every seventh comment has lost its author (a removed user: user_id set to null).
          const author = n % 7 === 0 ? null : authors[n % authors.length];
          await t.db.insert(activityComments).values({ activityId: activity.id, komentar: `Komentar ${n}`, userId: author?.id ?? null });
        }
      }
      for (let i = 0; i < 3; i++) await t.db.insert(topics).values({ clusterId: cluster.id, groupId: group.id, opis: `Tema ${i}` });
    }
  });

  it('GET /api/comment pages in the order of COMMENT_SORTS, both ways (cluster, author, e-mail, activity)', async () => {
    for (const sort of LIST_SORTS.comments) {
      for (const order of DIRECTIONS) {
        const expected = await t.db
          .select({ id: activityComments.id })
          .from(activityComments)
          .orderBy(...orderOf(COMMENT_SORTS, { sort, order }, [desc(activityComments.createdAt)], activityComments.id));
        const got = await allPages(`/api/comment?sort=${sort}&order=${order}`, (b) => b.comments as { _id: string }[]);
        expect(got, `${sort} ${order}`).toEqual(expected.map((r) => r.id));
      }
    }
  });

  it('GET /api/comment?sort=komentar pages in the order of the whole text; beyond 600 equal characters by id', async () => {
    const [activity] = await t.db.select({ id: activities.id }).from(activities).limit(1);
    const head = 'Ž'.repeat(600);
    for (const komentar of ['Ćao, čeka se', 'Čačak kasni', 'Zemljani radovi', 'ćuprija']) {
      await t.db.insert(activityComments).values({ activityId: activity?.id as string, komentar });
    }
    // Two texts equal in their first 600 characters, the smaller id given the text that sorts later.
    const pair = await t.db
      .insert(activityComments)
      .values([0, 1].map(() => ({ activityId: activity?.id as string, komentar: head })))
      .returning({ id: activityComments.id });
    const [low, high] = pair.map((r) => r.id).sort();
    await t.db
      .update(activityComments)
      .set({ komentar: `${head} b` })
      .where(eq(activityComments.id, low as string));
    await t.db
      .update(activityComments)
      .set({ komentar: `${head} a` })
      .where(eq(activityComments.id, high as string));
    for (const order of DIRECTIONS) {
      const byText = await t.db.execute<{ id: string; komentar: string }>(
        sql`select id, komentar from ${activityComments} order by komentar collate trasa_sr ${sql.raw(order)}, id ${sql.raw(order)}`,
      );
      const got = await allPages(`/api/comment?sort=komentar&order=${order}`, (b) => b.comments as { _id: string }[]);
      const text = new Map(byText.rows.map((r) => [r.id, r.komentar]));
      // Every comment under 600 characters stands where the whole text's order puts it …
      const short = (ids: string[]) => ids.filter((id) => (text.get(id)?.length ?? 0) < 600);
      expect(short(got), order).toEqual(short(byText.rows.map((r) => r.id)));
      // … and the two that agree in their first 600 characters follow their ids.
      const tied = got.filter((id) => text.get(id)?.startsWith(head));
      expect(tied, order).toEqual([...tied].sort((a, b) => (a < b === (order === 'asc') ? -1 : 1)));
      expect(tied.length).toBe(2);
    }
  });

  it('GET /api/topic pages by the cluster name in the order of TOPIC_SORTS, both ways', async () => {
    for (const order of DIRECTIONS) {
      const expected = await t.db
        .select({ id: topics.id })
        .from(topics)
        .orderBy(...orderOf(TOPIC_SORTS, { sort: 'nazivKlastera', order }, [desc(topics.updatedAt)], topics.id));
      const got = await allPages(`/api/topic?sort=nazivKlastera&order=${order}`, (b) => b.data as { _id: string }[]);
      expect(got.length).toBe(15);
      expect(got, order).toEqual(expected.map((r) => r.id));
    }
  });

  it("a comment carries its activity's cluster and position (set on insert, followed when the activity moves)", async () => {
    const wrong = async () =>
      (
        await t.db.execute<{
          n: number;
        }>(sql`select count(*)::int as n from ${activityComments} c join ${activities} a on a.id = c.activity_id
          where c.cluster_id is distinct from a.cluster_id or c.activity_position is distinct from a.position`)
      ).rows[0]?.n;
    expect(await wrong()).toBe(0);
    const from = await createCluster(t.db, { naziv: 'Polazni klaster' });
    const to = await createCluster(t.db, { naziv: 'Odredišni klaster' });
    const activity = await setActivityState(t.db, from.id, 'A2', { status: 'U toku', datumPocetka: '2026-01-10' });
    await t.db.insert(activityComments).values({ activityId: activity.id, komentar: 'Seli se' });
    await t.db.delete(activities).where(and(eq(activities.clusterId, to.id), eq(activities.code, 'A2')));
    await t.db.update(activities).set({ clusterId: to.id }).where(eq(activities.id, activity.id));
    const moved = await t.db.execute<{ cluster_id: string }>(
      sql`select cluster_id from ${activityComments} where activity_id = ${activity.id}`,
    );
    expect(moved.rows.map((r) => r.cluster_id)).toEqual([to.id]);
    expect(await wrong()).toBe(0);
  });
});
