import { and, eq, isNull, type SQL, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { useTestApp } from '../../../test/harness.js';
import { users } from '../../db/schema.js';
import { builtinRoleId } from '../../platform/builtinRoles.js';
import { countOf, EXACT_COUNT_LIMIT } from '../../platform/paging.js';
import { createGroup, createUser, tokenFor } from '../../seed/factories.js';

/**
 * totalResults of the people lists (countOf): exact up to EXACT_COUNT_LIMIT, the planner's estimate past
 * it. A whole-table list (the Admin's users, users of a role) asks the estimate first and, past twice the
 * limit, answers it without reading 10,001 rows for a count it would replace (one statement, not two).
 */
const t = useTestApp();
let adminToken = '';
let staffRole = '';
let managerRole = '';
const MANY = 2 * EXACT_COUNT_LIMIT + 5_000;

beforeAll(async () => {
  const group = await createGroup(t.db, { naziv: 'Brojanje tim' });
  adminToken = await tokenFor(t.ctx, await createUser(t.db, { role: 'Admin' }));
  staffRole = await builtinRoleId(t.db, 'Zaposleni');
  managerRole = await builtinRoleId(t.db, 'Rukovodilac');
  const hash = (await createUser(t.db, { groupId: group.id })).passwordHash;
  await t.db.execute(sql`insert into ${users} (ime, prezime, email, password_hash, role_id, group_id, status, email_potvrdjen)
    select 'Ime' || i, 'Prezime' || (i % 997), 'brojanje.' || i || '@primer.rs', ${hash}, ${staffRole}, ${group.id}, 'aktivan', true
    from generate_series(1, ${MANY}) i`);
  for (let i = 0; i < 3; i++) await createUser(t.db, { role: 'Rukovodilac', groupId: group.id });
  await t.db.execute(sql`analyze ${users}`);
}, 120_000);

/** Statements sent through the test's pool while `fn` runs. */
async function statementsOf<T>(fn: () => Promise<T>): Promise<{ value: T; statements: number }> {
  const spy = vi.spyOn(t.db.$client, 'query');
  try {
    const value = await fn();
    return { value, statements: spy.mock.calls.length };
  } finally {
    spy.mockRestore();
  }
}

describe('totalResults of the people lists', () => {
  it('answers a large whole-table list with the estimate alone, in one statement', async () => {
    const where = and(isNull(users.deletedAt), eq(users.roleId, staffRole)) as SQL;
    const [real] = await t.db.select({ n: sql<number>`count(*)::int` }).from(users).where(where);
    const first = await statementsOf(() => countOf(t.db, users, where, EXACT_COUNT_LIMIT, { estimateFirst: true }));
    expect(first.statements).toBe(1);
    expect(first.value).toBeGreaterThan(2 * EXACT_COUNT_LIMIT);
    expect(Math.abs(first.value - (real?.n ?? 0)) / (real?.n ?? 1)).toBeLessThan(0.1);
    // Without it: the capped count, then the same estimate.
    const plain = await statementsOf(() => countOf(t.db, users, where));
    expect(plain.statements).toBe(2);
    expect(plain.value).toBe(first.value);
  });

  it('counts a small list exactly, asked first or not', async () => {
    const where = and(isNull(users.deletedAt), eq(users.roleId, managerRole)) as SQL;
    expect(await countOf(t.db, users, where, EXACT_COUNT_LIMIT, { estimateFirst: true })).toBe(3);
    expect(await countOf(t.db, users, where)).toBe(3);
  });

  it('pages users of a role over HTTP in the plain order, with the estimated total', async () => {
    const res = await t.call({ method: 'GET', url: `/api/user/users-per-role?roleId=${staffRole}&page=1&limit=10`, token: adminToken });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as { users: { _id: string }[]; totalResults: number };
    expect(body.totalResults).toBeGreaterThan(2 * EXACT_COUNT_LIMIT);
    const plain = await t.db.execute<{ id: string }>(sql`select id from ${users} where deleted_at is null and role_id = ${staffRole}
      order by prezime collate trasa_sr, ime collate trasa_sr, id limit 10`);
    expect(body.users.map((u) => u._id)).toEqual(plain.rows.map((r) => r.id));
  });
});
