import type { SortOrder } from '@trasa/domain';
import { eq, isNull, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/harness.js';
import { groups, roles, users } from '../../db/schema.js';
import { serbianCompare } from '../../platform/sorting.js';
import { createGroup, createRole, createUser, tokenFor } from '../../seed/factories.js';

/**
 * The users lists sorted by group or role read the names kept on each user (drizzle/0016, triggers) from
 * their own order index. Whatever the index holds, the pages must be in the order of the group's and the
 * role's current names: here that order is computed in JS (the sr-Latn collator, names read from groups
 * and roles, ties by the id, users without a group last going up and first going down), independently
 * of the kept keys, and compared again after a group and a role are renamed, a user moves to another
 * group and role, and a member is removed from their group (a guest: no group, the Gost role).
 */
const t = useTestApp();
let adminToken: string;
const DIRECTIONS: SortOrder[] = ['asc', 'desc'];
/** Serbian order differs from byte order (Č, Ć, Đ after C and D, Lj after L, Nj after N, Š, Ž after S, Z). */
const GROUP_NAMES = ['Žabalj', 'Lazarevac', 'Čačak', 'Ljig', 'Cer', 'Ćuprija', 'Đakovica', 'Nova Varoš', 'Njegoševo', 'Šabac', 'Zaječar'];

let managerToken: string;
/** The Rukovodilac's subtree (their group 'Matica' and its children). */
const subtree = new Set<string>();

async function allPages(url: string, token = adminToken): Promise<string[]> {
  const ids: string[] = [];
  for (let page = 1; page < 200; page++) {
    const res = await t.call({ method: 'GET', url: `${url}&limit=4&page=${page}`, token });
    expect(res.statusCode, res.body).toBe(200);
    const rows = res.json().users as { _id: string }[];
    ids.push(...rows.map((r) => r._id));
    if (rows.length < 4) break;
  }
  return ids;
}

/** PostgreSQL orders uuids as their bytes: the lower-case hex text in code-point order. */
const byId = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** The expected order, from the current names (not the kept keys), the live users matching `keep`. */
async function expectedOrder(
  sort: 'grupa' | 'rola',
  order: SortOrder,
  keep: (u: { roleId: string; groupId: string | null }) => boolean = () => true,
) {
  const groupNames = new Map((await t.db.select({ id: groups.id, naziv: groups.naziv }).from(groups)).map((g) => [g.id, g.naziv]));
  const roleNames = new Map((await t.db.select({ id: roles.id, ime: roles.imeRole }).from(roles)).map((r) => [r.id, r.ime]));
  const live = (
    await t.db.select({ id: users.id, groupId: users.groupId, roleId: users.roleId }).from(users).where(isNull(users.deletedAt))
  ).filter(keep);
  const keyOf = (u: (typeof live)[number]) =>
    sort === 'grupa' ? (u.groupId ? (groupNames.get(u.groupId) ?? null) : null) : (roleNames.get(u.roleId) ?? null);
  const sign = order === 'desc' ? -1 : 1;
  return live
    .map((u) => ({ id: u.id, key: keyOf(u) }))
    .sort((a, b) => {
      // NULLS LAST going up, first going down: the null key is the largest.
      if (a.key === null || b.key === null) return a.key === b.key ? sign * byId(a.id, b.id) : sign * (a.key === null ? 1 : -1);
      return sign * (serbianCompare(a.key, b.key) || byId(a.id, b.id));
    })
    .map((u) => u.id);
}

async function expectSorted(label: string) {
  for (const sort of ['grupa', 'rola'] as const) {
    for (const order of DIRECTIONS) {
      const got = await allPages(`/api/user?sort=${sort}&order=${order}`);
      expect(got, `${label}: ${sort} ${order}`).toEqual(await expectedOrder(sort, order));
      // Narrowed to some groups (NARROW_USER_SORTS): a Rukovodilac's subtree, one group, one role.
      const mine = await allPages(`/api/user?sort=${sort}&order=${order}`, managerToken);
      expect(mine, `${label}: manager ${sort} ${order}`).toEqual(
        await expectedOrder(sort, order, (u) => u.groupId !== null && subtree.has(u.groupId)),
      );
      const role = extraRoles[0]?.id ?? '';
      const ofRole = await allPages(`/api/user/users-per-role?roleId=${role}&sort=${sort}&order=${order}`, managerToken);
      expect(ofRole, `${label}: manager's role ${sort} ${order}`).toEqual(
        await expectedOrder(sort, order, (u) => u.roleId === role && u.groupId !== null && subtree.has(u.groupId)),
      );
      const [first] = subtree;
      const one = await allPages(`/api/user?groupId=${first}&sort=${sort}&order=${order}`);
      expect(one, `${label}: one group ${sort} ${order}`).toEqual(await expectedOrder(sort, order, (u) => u.groupId === first));
    }
  }
  // The kept keys are exactly the current names (deleted users too: they may come back).
  const stale = await t.db.execute(sql`select u.id from users u left join groups g on g.id = u.group_id join roles r on r.id = u.role_id
    where u.sort_group is distinct from g.naziv or u.sort_role is distinct from r.ime_role`);
  expect(stale.rows, label).toEqual([]);
}

let moved: string;
let removed: string;
const extraRoles: { id: string }[] = [];

beforeAll(async () => {
  const admin = await createUser(t.db, { role: 'Admin', ime: 'Ana', prezime: 'Adminović' });
  adminToken = await tokenFor(t.ctx, admin);
  for (const imeRole of ['Šef gradilišta', 'Čuvar', 'Analitičar', 'Zidar']) extraRoles.push(await createRole(t.db, { imeRole }));
  const matica = await createGroup(t.db, { naziv: 'Matica' });
  subtree.add(matica.id);
  const manager = await createUser(t.db, { role: 'Rukovodilac', ime: 'Mira', prezime: 'Menadžer', groupId: matica.id });
  managerToken = await tokenFor(t.ctx, manager);
  let n = 0;
  for (const [i, naziv] of GROUP_NAMES.entries()) {
    // Every third group is in the Rukovodilac's subtree.
    const group = await createGroup(t.db, { naziv, ...(i % 3 === 0 ? { parentId: matica.id } : {}) });
    if (i % 3 === 0) subtree.add(group.id);
    for (let i = 0; i < 3; i++) {
      n++;
      const role = extraRoles[n % (extraRoles.length + 1)];
      await createUser(t.db, { ime: 'Petar', prezime: `Petrović ${n}`, groupId: group.id, ...(role ? { roleId: role.id } : {}) });
    }
  }
  for (const ime of ['Zoran', 'Ćira']) await createUser(t.db, { role: 'Gost', ime, prezime: 'Gostović' });
  const gone = await createUser(t.db, { ime: 'Obrisan', prezime: 'Čačak' });
  await t.db.update(users).set({ deletedAt: new Date() }).where(eq(users.id, gone.id));
  const [a, b] = await t.db.select({ id: users.id }).from(users).where(eq(users.ime, 'Petar')).limit(2);
  moved = a?.id ?? '';
  removed = b?.id ?? '';
});

describe('users sorted by group and role name (kept keys)', () => {
  it('pages in the Serbian order of the current names, both ways', async () => {
    await expectSorted('as created');
  });

  it('follows a group renamed, a role renamed, a user moved and a member removed from their group', async () => {
    const [cer] = await t.db.select().from(groups).where(eq(groups.naziv, 'Cer'));
    // 'Cer' (before Č) becomes 'Žitište' (after Ž… Ži > Ža): its users move from the start to the end.
    await t.db
      .update(groups)
      .set({ naziv: 'Žitište' })
      .where(eq(groups.id, cer?.id ?? ''));
    await t.db
      .update(roles)
      .set({ imeRole: 'Đak' })
      .where(eq(roles.id, extraRoles[2]?.id ?? ''));
    const [sabac] = await t.db.select().from(groups).where(eq(groups.naziv, 'Šabac'));
    await t.db
      .update(users)
      .set({ groupId: sabac?.id ?? null, roleId: extraRoles[0]?.id ?? '' })
      .where(eq(users.id, moved));
    const res = await t.call({ method: 'PATCH', url: `/api/group/remove-user?userId=${removed}`, token: adminToken });
    expect(res.statusCode, res.body).toBe(200);
    const [guest] = await t.db.select().from(users).where(eq(users.id, removed));
    expect(guest?.groupId).toBeNull();
    await expectSorted('after the changes');
  });

  it('a group made after its users (a restore loads rows in any order) sets their keys', async () => {
    // Foreign keys are dropped during a restore; here the row of the group comes after its member.
    await t.db.execute(sql`alter table users drop constraint if exists users_group_id_groups_id_fk`);
    const groupId = '00000000-0000-4000-8000-0000000000aa';
    const u = await createUser(t.db, { ime: 'Rade', prezime: 'Restorović' });
    await t.db.execute(sql`update users set group_id = ${groupId} where id = ${u.id}`);
    const [before] = await t.db
      .execute<{ sort_group: string | null }>(sql`select sort_group from users where id = ${u.id}`)
      .then((r) => r.rows);
    expect(before?.sort_group).toBeNull();
    await t.db.execute(sql`insert into groups (id, naziv, kratak_naziv, cirilica) values (${groupId}, 'Beočin', 'Beočin', 'Беочин')`);
    await expectSorted('after a late group');
  });
});
