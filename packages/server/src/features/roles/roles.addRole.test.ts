import { USERS } from '@trasa/domain';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { said } from '../../../test/harness.js';
import { users } from '../../db/schema.js';
import { createRole, createUser, DEFAULT_PASSWORD } from '../../seed/factories.js';
import { admin, adminToken, lastLogOf, managerToken, NO_ID, reservedId, roleId, setupRoles, t, tree, userRow } from './rolesSetup.js';

/** POST /api/role/add-role: a role and a group for a guest or a member. */
setupRoles();

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
    expect(res.json()).toEqual({ message: said(USERS.guestAdded) });
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
    expect(res.json()).toEqual({ message: said(USERS.roleChanged) });
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
    expect(toGuest.json()).toEqual({ message: said(USERS.roleChanged) });
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
    expect(res.json().message).toBe(said(USERS.roleNotAllowed));
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
      expect(res.json().message, JSON.stringify(payload)).toBe(said(text));
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
