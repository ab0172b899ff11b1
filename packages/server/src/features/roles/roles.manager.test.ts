import { USERS } from '@trasa/domain';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { said } from '../../../test/harness.js';
import { roles, users } from '../../db/schema.js';
import { createRole, createUser, tokenFor } from '../../seed/factories.js';
import { adminToken, lastLogOf, managerToken, NO_ID, roleId, setupRoles, t, tree } from './rolesSetup.js';

/** PATCH /api/role/:id by a Rukovodilac: the roles held inside their subtree only. */
setupRoles();

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
      message: said(USERS.roleSaved),
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
      expect(res.json().message).toBe(said(USERS.roleEditNotAllowed));
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
