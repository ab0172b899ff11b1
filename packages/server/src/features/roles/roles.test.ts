import { type RoleKey, USERS } from '@trasa/domain';
import { desc, eq, ne } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/harness.js';
import { auditLogs, groups, roles, users } from '../../db/schema.js';
import { builtinRoleId } from '../../platform/builtinRoles.js';
import { createOrgTree, createRole, createUser, DEFAULT_PASSWORD, tokenFor } from '../../seed/factories.js';

const t = useTestApp();
const NO_ID = '00000000-0000-4000-8000-000000000000';

let tree: Awaited<ReturnType<typeof createOrgTree>>;
let admin: Awaited<ReturnType<typeof createUser>>;
let adminToken: string;
let managerToken: string;
let reservedId: string;
const roleId = {} as Record<RoleKey, string>;

beforeAll(async () => {
  tree = await createOrgTree(t.db, 'Role');
  admin = await createUser(t.db, { role: 'Admin' });
  adminToken = await tokenFor(t.ctx, admin);
  managerToken = await tokenFor(t.ctx, tree.manager);
  const [reserved] = await t.db.select().from(groups).where(eq(groups.reserved, true));
  reservedId = reserved?.id ?? '';
  for (const key of ['Admin', 'Rukovodilac', 'Zaposleni', 'Gost'] as const) roleId[key] = await builtinRoleId(t.db, key);
});

/** The newest audit row written by a user. */
async function lastLogOf(userId: string) {
  const [log] = await t.db.select().from(auditLogs).where(eq(auditLogs.userId, userId)).orderBy(desc(auditLogs.createdAt)).limit(1);
  return log;
}

async function userRow(id: string) {
  const [u] = await t.db.select().from(users).where(eq(users.id, id));
  if (!u) throw new Error('no user');
  return u;
}

describe('GET /api/role', () => {
  it('lists the built-in roles first, in order, then extra roles, for an Admin', async () => {
    const extra = await createRole(t.db, { imeRole: 'Geodeta', kratakNaziv: 'GEO', baseRole: 'Zaposleni' });
    const res = await t.call({ method: 'GET', url: '/api/role?page=1&limit=100', token: adminToken });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.roles.slice(0, 4).map((r: { osnovnaRola: string }) => r.osnovnaRola)).toEqual([
      'Admin',
      'Rukovodilac',
      'Zaposleni',
      'Gost',
    ]);
    expect(body.roles[0]).toEqual({
      _id: roleId.Admin,
      imeRole: 'Admin',
      kratakNaziv: 'ADM',
      osnovnaRola: 'Admin',
      ugradjena: true,
      izmenljiva: true,
    });
    expect(body.roles).toContainEqual({
      _id: extra.id,
      imeRole: 'Geodeta',
      kratakNaziv: 'GEO',
      osnovnaRola: 'Zaposleni',
      ugradjena: false,
      izmenljiva: true,
    });
    expect(body.totalResults).toBe(body.roles.length);
  });

  it('never shows a Rukovodilac a role whose base is Admin', async () => {
    const body = (await t.call({ method: 'GET', url: '/api/role?limit=50000', token: managerToken })).json();
    expect(body.roles.map((r: { osnovnaRola: string }) => r.osnovnaRola)).not.toContain('Admin');
    expect(body.roles.length).toBeGreaterThanOrEqual(3);
    expect(body.totalResults).toBe(body.roles.length);
    const one = await t.call({ method: 'GET', url: `/api/role/${roleId.Admin}`, token: managerToken });
    expect(one.statusCode).toBe(404);
    expect((await t.call({ method: 'GET', url: `/api/role/${roleId.Admin}`, token: adminToken })).json().role.osnovnaRola).toBe('Admin');
    expect((await t.call({ method: 'GET', url: `/api/role/${roleId.Zaposleni}`, token: managerToken })).statusCode).toBe(200);
  });

  it('pages and answers 404/400 for unknown and malformed ids', async () => {
    const page = (await t.call({ method: 'GET', url: '/api/role?page=2&limit=2', token: adminToken })).json();
    expect(page.roles.map((r: { osnovnaRola: string }) => r.osnovnaRola)).toEqual(['Zaposleni', 'Gost']);
    // totalResults comes with the page (a window count); a page past the end still counts, for each caller's roles.
    const all = (await t.db.select({ id: roles.id }).from(roles)).length;
    const notAdmin = (await t.db.select({ id: roles.id }).from(roles).where(ne(roles.baseRole, 'Admin'))).length;
    expect(page.totalResults).toBe(all);
    const past = (await t.call({ method: 'GET', url: '/api/role?page=99&limit=2', token: adminToken })).json();
    expect(past).toEqual({ roles: [], totalResults: all });
    const managers = (await t.call({ method: 'GET', url: '/api/role?page=1&limit=1', token: managerToken })).json();
    expect(managers.totalResults).toBe(notAdmin);
    expect(managers.roles).toHaveLength(1);
    expect((await t.call({ method: 'GET', url: `/api/role/${NO_ID}`, token: adminToken })).statusCode).toBe(404);
    expect((await t.call({ method: 'GET', url: '/api/role/Admin', token: adminToken })).statusCode).toBe(400);
  });
});

describe('POST and PATCH /api/role', () => {
  it('creates an extra role on the Zaposleni base by default, or on the base chosen', async () => {
    const res = await t.call({
      method: 'POST',
      url: '/api/role',
      payload: { imeRole: 'Projektant saradnik', kratakNaziv: 'PS' },
      token: adminToken,
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({
      message: USERS.roleSaved,
      role: {
        _id: expect.any(String),
        imeRole: 'Projektant saradnik',
        kratakNaziv: 'PS',
        osnovnaRola: 'Zaposleni',
        ugradjena: false,
        izmenljiva: true,
      },
    });
    const lead = await t.call({
      method: 'POST',
      url: '/api/role',
      payload: { imeRole: 'Šef gradilišta', kratakNaziv: 'ŠG', osnovnaRola: 'Rukovodilac' },
      token: adminToken,
    });
    expect(lead.json().role.osnovnaRola).toBe('Rukovodilac');
    const log = await lastLogOf(admin.id);
    expect(log?.message).toContain('Šef gradilišta');
  });

  it('validates with the spec texts; an Admin base cannot be made', async () => {
    const before = (await t.db.select().from(roles)).length;
    const cases: [Record<string, unknown>, string][] = [
      [{ kratakNaziv: 'X' }, USERS.roleImeRequired],
      [{ imeRole: '  ', kratakNaziv: 'X' }, USERS.roleImeRequired],
      [{ imeRole: 'X' }, USERS.roleKratakRequired],
      [{ imeRole: 'Superadmin', kratakNaziv: 'SA', osnovnaRola: 'Admin' }, USERS.chooseOption],
      [{ imeRole: 42, kratakNaziv: [] }, USERS.roleImeRequired],
    ];
    for (const [payload, text] of cases) {
      const res = await t.call({ method: 'POST', url: '/api/role', payload, token: adminToken });
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().message, JSON.stringify(payload)).toBe(text);
    }
    expect(
      (await t.call({ method: 'POST', url: '/api/role', payload: { imeRole: 'R', kratakNaziv: 'R' }, token: managerToken })).statusCode,
    ).toBe(403);
    expect((await t.db.select().from(roles)).length).toBe(before);
  });

  it('renames a built-in role without changing its base, and changes an extra role’s base', async () => {
    const res = await t.call({
      method: 'PATCH',
      url: `/api/role/${roleId.Zaposleni}`,
      payload: { imeRole: 'Službenik', kratakNaziv: 'SLU', osnovnaRola: 'Rukovodilac' },
      token: adminToken,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      message: USERS.roleSaved,
      role: {
        _id: roleId.Zaposleni,
        imeRole: 'Službenik',
        kratakNaziv: 'SLU',
        osnovnaRola: 'Zaposleni',
        ugradjena: true,
        izmenljiva: true,
      },
    });
    // The rename shows in users' rolaNaziv; rola (the base key) stays.
    const u = await createUser(t.db, { groupId: tree.leaf.id });
    const login = await t.call({ method: 'POST', url: '/api/user/login', payload: { email: u.email, lozinka: DEFAULT_PASSWORD } });
    expect(login.json().user).toMatchObject({ rola: 'Zaposleni', rolaNaziv: 'Službenik' });
    const extra = await createRole(t.db, { baseRole: 'Zaposleni' });
    const changed = await t.call({
      method: 'PATCH',
      url: `/api/role/${extra.id}`,
      payload: { imeRole: extra.imeRole, kratakNaziv: extra.kratakNaziv, osnovnaRola: 'Gost' },
      token: adminToken,
    });
    expect(changed.json().role.osnovnaRola).toBe('Gost');
    expect(
      (await t.call({ method: 'PATCH', url: `/api/role/${NO_ID}`, payload: { imeRole: 'A', kratakNaziv: 'A' }, token: adminToken }))
        .statusCode,
    ).toBe(404);
  });
});

describe('PATCH /api/role/:id by a Rukovodilac', () => {
  async function roleRow(id: string) {
    const [r] = await t.db.select().from(roles).where(eq(roles.id, id));
    if (!r) throw new Error('no role');
    return r;
  }

  it('renames an extra role held only inside their subtree; the base stays as it is', async () => {
    const extra = await createRole(t.db, { imeRole: 'Tehničar', kratakNaziv: 'TEH', baseRole: 'Zaposleni' });
    await createUser(t.db, { roleId: extra.id, groupId: tree.mid.id });
    await createUser(t.db, { roleId: extra.id, groupId: tree.leaf.id, status: 'neaktivan' });
    // An extra role's base is the permissions of everyone holding it: the Admin's to change.
    const res = await t.call({
      method: 'PATCH',
      url: `/api/role/${extra.id}`,
      payload: { imeRole: 'Tehničar terena', kratakNaziv: 'TT', osnovnaRola: 'Rukovodilac' },
      token: managerToken,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      message: USERS.roleSaved,
      role: {
        _id: extra.id,
        imeRole: 'Tehničar terena',
        kratakNaziv: 'TT',
        osnovnaRola: 'Zaposleni',
        ugradjena: false,
        izmenljiva: true,
      },
    });
    expect(await roleRow(extra.id)).toMatchObject({ imeRole: 'Tehničar terena', kratakNaziv: 'TT', baseRole: 'Zaposleni' });
    const log = await lastLogOf(tree.manager.id);
    expect(log?.message).toContain('Tehničar terena');
  });

  it('answers 403 changing nothing for built-in roles and for extra roles held by nobody or outside their subtree', async () => {
    const unheld = await createRole(t.db, { imeRole: 'Niko je nema', baseRole: 'Zaposleni' });
    const mixed = await createRole(t.db, { imeRole: 'I kod drugih', baseRole: 'Zaposleni' });
    await createUser(t.db, { roleId: mixed.id, groupId: tree.leaf.id });
    await createUser(t.db, { roleId: mixed.id, groupId: tree.other.id });
    const above = await createRole(t.db, { imeRole: 'Iznad', baseRole: 'Rukovodilac' });
    await createUser(t.db, { roleId: above.id, groupId: tree.root.id });
    const guests = await createRole(t.db, { imeRole: 'Posetilac', baseRole: 'Gost' });
    await createUser(t.db, { roleId: guests.id, role: 'Gost' });
    // A deleted holder in the subtree does not make a role theirs.
    const gone = await createRole(t.db, { imeRole: 'Bivša', baseRole: 'Zaposleni' });
    const leaver = await createUser(t.db, { roleId: gone.id, groupId: tree.leaf.id });
    await t.db.update(users).set({ deletedAt: new Date() }).where(eq(users.id, leaver.id));
    const ids = [roleId.Rukovodilac, roleId.Zaposleni, roleId.Gost, unheld.id, mixed.id, above.id, guests.id, gone.id];
    const before = await Promise.all(ids.map(roleRow));
    for (const id of ids) {
      const res = await t.call({
        method: 'PATCH',
        url: `/api/role/${id}`,
        payload: { imeRole: 'Administrator sistema', kratakNaziv: 'AS' },
        token: managerToken,
      });
      expect(res.statusCode, id).toBe(403);
      expect(res.json().message).toBe(USERS.roleEditNotAllowed);
    }
    expect(await Promise.all(ids.map(roleRow))).toEqual(before);
    // The list and the detail say which rows they may edit (the web shows the edit action only there).
    const own = await createRole(t.db, { imeRole: 'Samo naša', baseRole: 'Zaposleni' });
    await createUser(t.db, { roleId: own.id, groupId: tree.leaf.id });
    const list = (await t.call({ method: 'GET', url: '/api/role?limit=50000', token: managerToken })).json();
    const editable = (list.roles as { _id: string; izmenljiva: boolean }[]).filter((r) => r.izmenljiva).map((r) => r._id);
    expect(editable).toContain(own.id);
    for (const id of ids) expect(editable).not.toContain(id);
    const one = async (id: string, token: string) => (await t.call({ method: 'GET', url: `/api/role/${id}`, token })).json().role;
    expect((await one(own.id, managerToken)).izmenljiva).toBe(true);
    expect((await one(mixed.id, managerToken)).izmenljiva).toBe(false);
    // The Admin edits every role.
    const admins = (await t.call({ method: 'GET', url: '/api/role?limit=50000', token: adminToken })).json();
    expect((admins.roles as { izmenljiva: boolean }[]).every((r) => r.izmenljiva)).toBe(true);
    const renamed = await t.call({
      method: 'PATCH',
      url: `/api/role/${mixed.id}`,
      payload: { imeRole: 'I kod drugih 2', kratakNaziv: 'IKD' },
      token: adminToken,
    });
    expect(renamed.statusCode).toBe(200);
  });

  it('loses the edit once a holder moves out of their subtree', async () => {
    const extra = await createRole(t.db, { imeRole: 'Prelazna', baseRole: 'Zaposleni' });
    const holder = await createUser(t.db, { roleId: extra.id, groupId: tree.leaf.id });
    const payload = { imeRole: 'Prelazna 2', kratakNaziv: 'P2' };
    expect((await t.call({ method: 'PATCH', url: `/api/role/${extra.id}`, payload, token: managerToken })).statusCode).toBe(200);
    await t.db.update(users).set({ groupId: tree.root.id }).where(eq(users.id, holder.id));
    const res = await t.call({
      method: 'PATCH',
      url: `/api/role/${extra.id}`,
      payload: { imeRole: 'Prelazna 3', kratakNaziv: 'P3' },
      token: managerToken,
    });
    expect(res.statusCode).toBe(403);
    expect((await roleRow(extra.id)).imeRole).toBe('Prelazna 2');
  });

  it('gives a Rukovodilac without a group no role to edit', async () => {
    const extra = await createRole(t.db, { imeRole: 'Bez grupe', baseRole: 'Zaposleni' });
    await createUser(t.db, { roleId: extra.id, groupId: tree.leaf.id });
    const groupless = await createUser(t.db, { role: 'Rukovodilac' });
    const token = await tokenFor(t.ctx, groupless);
    const res = await t.call({ method: 'PATCH', url: `/api/role/${extra.id}`, payload: { imeRole: 'Tuđa', kratakNaziv: 'T' }, token });
    expect(res.statusCode).toBe(403);
    expect((await roleRow(extra.id)).imeRole).toBe('Bez grupe');
    expect((await t.call({ method: 'GET', url: `/api/role/${extra.id}`, token })).json().role.izmenljiva).toBe(false);
  });

  it('answers 404 for an Admin-based role exactly like a missing id, changing nothing', async () => {
    const extraAdmin = await createRole(t.db, { imeRole: 'Glavni administrator', kratakNaziv: 'GA', baseRole: 'Admin' });
    const before = [await roleRow(roleId.Admin), await roleRow(extraAdmin.id)];
    const payload = { imeRole: 'Preuzeto', kratakNaziv: 'PRE' };
    const missing = await t.call({ method: 'PATCH', url: `/api/role/${NO_ID}`, payload, token: managerToken });
    expect(missing.statusCode).toBe(404);
    for (const id of [roleId.Admin, extraAdmin.id]) {
      const res = await t.call({ method: 'PATCH', url: `/api/role/${id}`, payload, token: managerToken });
      expect(res.statusCode).toBe(404);
      expect(res.body).toBe(missing.body);
    }
    expect([await roleRow(roleId.Admin), await roleRow(extraAdmin.id)]).toEqual(before);
  });

  it('is not for a Zaposleni, and creating a role stays the Admin’s', async () => {
    const employee = await createUser(t.db, { groupId: tree.leaf.id });
    const before = await roleRow(roleId.Gost);
    const res = await t.call({
      method: 'PATCH',
      url: `/api/role/${roleId.Gost}`,
      payload: { imeRole: 'A', kratakNaziv: 'A' },
      token: await tokenFor(t.ctx, employee),
    });
    expect(res.statusCode).toBe(403);
    expect(await roleRow(roleId.Gost)).toEqual(before);
    const create = await t.call({ method: 'POST', url: '/api/role', payload: { imeRole: 'Nova', kratakNaziv: 'N' }, token: managerToken });
    expect(create.statusCode).toBe(403);
  });
});

describe('POST /api/role/add-role', () => {
  it('puts a guest into a group; they then sign in with that role and group', async () => {
    const guest = await createUser(t.db, { role: 'Gost', email: 'gost.primljen@primer.rs' });
    const res = await t.call({
      method: 'POST',
      url: '/api/role/add-role',
      payload: { guestId: guest.id, newRole: roleId.Zaposleni, groupId: tree.leaf.id },
      token: managerToken,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: USERS.guestAdded });
    const login = await t.call({
      method: 'POST',
      url: '/api/user/login',
      payload: { email: 'gost.primljen@primer.rs', lozinka: DEFAULT_PASSWORD },
    });
    expect(login.statusCode).toBe(200);
    expect(login.json().user).toMatchObject({
      rola: 'Zaposleni',
      grupa: { _id: tree.leaf.id, naziv: tree.leaf.naziv, tipKod: 'IZVODJAC' },
    });
    const log = await lastLogOf(tree.manager.id);
    expect(log?.message).toContain('gost.primljen@primer.rs');
  });

  it('changes a member’s role, and an extra role carries its base', async () => {
    const u = await createUser(t.db, { groupId: tree.leaf.id });
    const res = await t.call({
      method: 'POST',
      url: '/api/role/add-role',
      payload: { guestId: u.id, newRole: roleId.Rukovodilac, groupId: tree.mid.id },
      token: managerToken,
    });
    expect(res.json()).toEqual({ message: USERS.roleChanged });
    expect(await userRow(u.id)).toMatchObject({ roleId: roleId.Rukovodilac, groupId: tree.mid.id });
    const extra = await createRole(t.db, { imeRole: 'Nadzorni inženjer', baseRole: 'Zaposleni' });
    await t.call({
      method: 'POST',
      url: '/api/role/add-role',
      payload: { guestId: u.id, newRole: extra.id, groupId: tree.leaf.id },
      token: adminToken,
    });
    const one = (await t.call({ method: 'GET', url: `/api/user/single/${u.id}`, token: adminToken })).json();
    expect(one.user).toMatchObject({ rola: 'Zaposleni', rolaId: extra.id, rolaNaziv: 'Nadzorni inženjer' });
  });

  it('clears the group for Gost and Admin', async () => {
    const u = await createUser(t.db, { groupId: tree.leaf.id });
    const toGuest = await t.call({
      method: 'POST',
      url: '/api/role/add-role',
      payload: { guestId: u.id, newRole: roleId.Gost },
      token: managerToken,
    });
    expect(toGuest.json()).toEqual({ message: USERS.roleChanged });
    expect(await userRow(u.id)).toMatchObject({ roleId: roleId.Gost, groupId: null });
    const toAdmin = await t.call({
      method: 'POST',
      url: '/api/role/add-role',
      payload: { guestId: u.id, newRole: roleId.Admin, groupId: tree.leaf.id },
      token: adminToken,
    });
    expect(toAdmin.statusCode).toBe(200);
    expect(await userRow(u.id)).toMatchObject({ roleId: roleId.Admin, groupId: null });
  });

  it('never lets a Rukovodilac give Admin', async () => {
    const guest = await createUser(t.db, { role: 'Gost' });
    const res = await t.call({
      method: 'POST',
      url: '/api/role/add-role',
      payload: { guestId: guest.id, newRole: roleId.Admin },
      token: managerToken,
    });
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe(USERS.roleNotAllowed);
    expect((await userRow(guest.id)).roleId).toBe(roleId.Gost);
  });

  it('hides users outside a Rukovodilac’s subtree like missing ones, changing nothing', async () => {
    const outside = await createUser(t.db, { groupId: tree.root.id });
    const other = await createUser(t.db, { groupId: tree.other.id });
    const missing = await t.call({
      method: 'POST',
      url: '/api/role/add-role',
      payload: { guestId: NO_ID, newRole: roleId.Zaposleni, groupId: tree.leaf.id },
      token: managerToken,
    });
    expect(missing.statusCode).toBe(404);
    for (const u of [outside, other, admin]) {
      const res = await t.call({
        method: 'POST',
        url: '/api/role/add-role',
        payload: { guestId: u.id, newRole: roleId.Zaposleni, groupId: tree.leaf.id },
        token: managerToken,
      });
      expect(res.statusCode).toBe(404);
      expect(res.body).toBe(missing.body);
    }
    expect(await userRow(outside.id)).toMatchObject({ groupId: tree.root.id, roleId: roleId.Zaposleni });
    expect(await userRow(admin.id)).toMatchObject({ groupId: null, roleId: roleId.Admin });
  });

  it('requires a group in the scope, never the reserved one, for roles that have a group', async () => {
    const guest = await createUser(t.db, { role: 'Gost' });
    const cases: [Record<string, unknown>, string, string][] = [
      [{ newRole: roleId.Zaposleni }, USERS.roleAndGroupRequired, adminToken],
      [{ newRole: roleId.Zaposleni, groupId: '' }, USERS.roleAndGroupRequired, adminToken],
      [{ newRole: roleId.Zaposleni, groupId: null }, USERS.roleAndGroupRequired, adminToken],
      [{ newRole: roleId.Zaposleni, groupId: reservedId }, USERS.invalidOption, adminToken],
      [{ newRole: roleId.Zaposleni, groupId: NO_ID }, USERS.invalidOption, adminToken],
      [{ newRole: roleId.Zaposleni, groupId: tree.root.id }, USERS.invalidOption, managerToken],
      [{ newRole: roleId.Zaposleni, groupId: tree.other.id }, USERS.invalidOption, managerToken],
      [{ newRole: NO_ID, groupId: tree.leaf.id }, USERS.invalidOption, adminToken],
    ];
    for (const [payload, text, token] of cases) {
      const res = await t.call({ method: 'POST', url: '/api/role/add-role', payload: { guestId: guest.id, ...payload }, token });
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().message, JSON.stringify(payload)).toBe(text);
    }
    for (const payload of [
      {},
      { guestId: 'x', newRole: roleId.Zaposleni },
      { guestId: guest.id, newRole: 5 },
      { guestId: guest.id, newRole: roleId.Gost, groupId: 9 },
    ]) {
      const res = await t.call({ method: 'POST', url: '/api/role/add-role', payload, token: adminToken });
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
    }
    expect(await userRow(guest.id)).toMatchObject({ roleId: roleId.Gost, groupId: null });
  });

  it('does not demote the last active Admin', async () => {
    const admins = await t.db.select({ id: users.id, status: users.status }).from(users).where(eq(users.roleId, roleId.Admin));
    for (const a of admins)
      if (a.id !== admin.id && a.status === 'aktivan')
        await t.call({ method: 'DELETE', url: `/api/user/single/${a.id}`, token: adminToken });
    const res = await t.call({
      method: 'POST',
      url: '/api/role/add-role',
      payload: { guestId: admin.id, newRole: roleId.Zaposleni, groupId: tree.leaf.id },
      token: adminToken,
    });
    expect(res.statusCode).toBe(409);
    expect((await userRow(admin.id)).roleId).toBe(roleId.Admin);
  });
});
