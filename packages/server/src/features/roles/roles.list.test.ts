import { USERS } from '@trasa/domain';
import { ne } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { said } from '../../../test/harness.js';
import { roles } from '../../db/schema.js';
import { createRole, createUser, DEFAULT_PASSWORD } from '../../seed/factories.js';
import { admin, adminToken, lastLogOf, managerToken, NO_ID, roleId, setupRoles, t, tree } from './rolesSetup.js';

/** GET, POST and PATCH /api/role by an Admin (and what a Rukovodilac sees). */
setupRoles();

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
      message: said(USERS.roleSaved),
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
      expect(res.json().message, JSON.stringify(payload)).toBe(said(text));
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
      message: said(USERS.roleSaved),
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
