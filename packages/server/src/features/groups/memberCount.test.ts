import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/harness.js';
import { groups, users } from '../../db/schema.js';
import { createGroup, createUser, tokenFor } from '../../seed/factories.js';

/**
 * brojClanova comes from the count kept on each group (drizzle/0016, recounted by triggers). Every check
 * compares every group's kept count and the detail's with a plain count of the live
 * members, after members are created (one by one, several at once, concurrently), moved, deactivated,
 * brought back, removed from their group and deleted.
 */
const t = useTestApp();
let adminToken: string;
const made: { id: string }[] = [];

async function expectCounts(label: string) {
  const plain = await t.db.execute<{ id: string; n: number; kept: number }>(
    sql`select g.id, g.member_count as kept, (select count(*)::int from users u where u.group_id = g.id and u.deleted_at is null) as n
      from groups g where not g.reserved`,
  );
  // Every group's kept count (the detail's brojClanova; the list leaves it out: GroupListItem).
  for (const row of plain.rows) expect(Number(row.kept), `${label}: ${row.id}`).toBe(row.n);
  for (const g of made) {
    const one = await t.call({ method: 'GET', url: `/api/group/${g.id}`, token: adminToken });
    expect(one.json().group.brojClanova, label).toBe(plain.rows.find((r) => r.id === g.id)?.n);
  }
}

beforeAll(async () => {
  const admin = await createUser(t.db, { role: 'Admin', ime: 'Ana', prezime: 'Adminović' });
  adminToken = await tokenFor(t.ctx, admin);
  for (const naziv of ['Prva', 'Druga', 'Treća']) made.push(await createGroup(t.db, { naziv }));
});

describe('member counts kept on the groups', () => {
  it('count members created one by one, concurrently and in one statement', async () => {
    const [a, b, c] = made;
    for (let i = 0; i < 3; i++) await createUser(t.db, { groupId: a?.id ?? null });
    await Promise.all(Array.from({ length: 8 }, () => createUser(t.db, { groupId: b?.id ?? null })));
    await t.db.execute(sql`insert into users (ime, prezime, email, role_id, group_id, password_hash)
      select 'Masa', 'Masović ' || i, 'masa' || i || '@primer.rs', (select role_id from users where group_id = ${b?.id} limit 1),
        case when i % 2 = 0 then ${c?.id}::uuid else ${a?.id}::uuid end, 'x'
      from generate_series(1, 7) i`);
    await expectCounts('created');
  });

  it('follow members moved, deactivated, brought back, removed from their group and deleted', async () => {
    const [a, b, c] = made;
    const inA = await t.db
      .select({ id: users.id })
      .from(users)
      .where(eq(users.groupId, a?.id ?? ''));
    const inB = await t.db
      .select({ id: users.id })
      .from(users)
      .where(eq(users.groupId, b?.id ?? ''));
    await t.db
      .update(users)
      .set({ groupId: c?.id ?? null })
      .where(eq(users.id, inA[0]?.id ?? ''));
    const del = await t.call({ method: 'DELETE', url: `/api/user/single/${inA[1]?.id}`, token: adminToken });
    expect(del.statusCode, del.body).toBe(200);
    // DELETE sets the status only; a soft-deleted user (deleted_at) is not a member.
    await t.db
      .update(users)
      .set({ deletedAt: new Date() })
      .where(eq(users.id, inB[0]?.id ?? ''));
    await expectCounts('moved, soft-deleted');
    await t.db
      .update(users)
      .set({ deletedAt: null })
      .where(eq(users.id, inB[0]?.id ?? ''));
    const removed = await t.call({ method: 'PATCH', url: `/api/group/remove-user?userId=${inB[1]?.id}`, token: adminToken });
    expect(removed.statusCode, removed.body).toBe(200);
    await t.db.delete(users).where(eq(users.id, inB[2]?.id ?? ''));
    await expectCounts('back, removed, deleted');
    const [stored] = await t.db
      .select({ n: sql<number>`${groups}.member_count` })
      .from(groups)
      .where(eq(groups.id, b?.id ?? ''));
    expect(Number(stored?.n)).toBe(inB.length - 2);
  });
});
