import { USERS } from '@trasa/domain';
import { and, eq, ne } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { said } from '../../../test/harness.js';
import { roles, users } from '../../db/schema.js';
import { createGroup, createUser, DEFAULT_PASSWORD, tokenFor } from '../../seed/factories.js';
import { LAST_ADMIN } from '../roles/policy.js';
import { admin, adminToken, guest, ids, inLeaf, managerToken, NO_ID, newUser, roleId, row, setupUsers, t, tree } from './usersSetup.js';

setupUsers();
describe('a guest, for a Rukovodilac', () => {
  const guestForm = (over: Record<string, unknown> = {}) => ({
    ime: 'Preuzeto',
    prezime: 'Preuzetić',
    email: `preuzeto.${Math.random().toString(36).slice(2, 8)}@primer.rs`,
    emailPotvrdjen: false,
    rola: roleId.Gost,
    status: 'neaktivan',
    groupId: '',
    lozinka: 'Gostinjska-Soba7',
    potvrdaLozinke: 'Gostinjska-Soba7',
    ...over,
  });

  it('answers 404 to editing or deactivating a guest, exactly like a missing id, changing nothing', async () => {
    const g = await createUser(t.db, { role: 'Gost', ime: 'Mirko', prezime: 'Gostović' });
    const before = await row(g.id);
    const missingEdit = await t.call({ method: 'PATCH', url: `/api/user/single/${NO_ID}`, payload: guestForm(), token: managerToken });
    expect(missingEdit.statusCode).toBe(404);
    for (const payload of [guestForm(), guestForm({ rola: roleId.Zaposleni, groupId: tree.leaf.id, status: 'aktivan' })]) {
      const res = await t.call({ method: 'PATCH', url: `/api/user/single/${g.id}`, payload, token: managerToken });
      expect(res.statusCode).toBe(404);
      expect(res.body).toBe(missingEdit.body);
    }
    const missingDelete = await t.call({ method: 'DELETE', url: `/api/user/single/${NO_ID}`, token: managerToken });
    const del = await t.call({ method: 'DELETE', url: `/api/user/single/${g.id}`, token: managerToken });
    expect(del.statusCode).toBe(404);
    expect(del.body).toBe(missingDelete.body);
    const after = await row(g.id);
    expect(after).toEqual(before);
    expect(after).toMatchObject({ passwordHash: g.passwordHash, status: 'aktivan', tokenVersion: g.tokenVersion, roleId: roleId.Gost });
    // The guest still signs in with the old password.
    const login = await t.call({ method: 'POST', url: '/api/user/login', payload: { email: g.email, lozinka: DEFAULT_PASSWORD } });
    expect(login.statusCode).toBe(200);
  });

  it('still opens the guest and gives them a role in their subtree; then they are a member to manage', async () => {
    const g = await createUser(t.db, { role: 'Gost', ime: 'Milica', prezime: 'Gostović' });
    const one = await t.call({ method: 'GET', url: `/api/user/single/${g.id}`, token: managerToken });
    expect(one.statusCode).toBe(200);
    expect(one.json()).toMatchObject({ user: { _id: g.id, rola: 'Gost' }, group: null });
    const guests = (await t.call({ method: 'GET', url: '/api/user/guests?limit=50000', token: managerToken })).json();
    expect(ids(guests.guests)).toContain(g.id);
    const added = await t.call({
      method: 'POST',
      url: '/api/role/add-role',
      payload: { guestId: g.id, newRole: roleId.Zaposleni, groupId: tree.leaf.id },
      token: managerToken,
    });
    expect(added.statusCode).toBe(200);
    expect(added.json()).toEqual({ message: said(USERS.guestAdded) });
    expect(await row(g.id)).toMatchObject({ roleId: roleId.Zaposleni, groupId: tree.leaf.id, tokenVersion: g.tokenVersion });
    const edited = await t.call({
      method: 'PATCH',
      url: `/api/user/single/${g.id}`,
      payload: {
        ime: 'Milica',
        prezime: 'Članić',
        email: g.email,
        emailPotvrdjen: true,
        rola: roleId.Zaposleni,
        status: 'aktivan',
        groupId: tree.leaf.id,
      },
      token: managerToken,
    });
    expect(edited.statusCode).toBe(200);
    expect((await row(g.id)).prezime).toBe('Članić');
  });

  it('an Admin still edits and deactivates a guest', async () => {
    const g = await createUser(t.db, { role: 'Gost' });
    const res = await t.call({
      method: 'PATCH',
      url: `/api/user/single/${g.id}`,
      payload: guestForm({ ime: 'Dragan' }),
      token: adminToken,
    });
    expect(res.statusCode).toBe(200);
    expect(await row(g.id)).toMatchObject({ ime: 'Dragan', status: 'neaktivan' });
    expect((await t.call({ method: 'DELETE', url: `/api/user/single/${g.id}`, token: adminToken })).statusCode).toBe(200);
  });
});

describe('the last active Admin', () => {
  it('cannot be demoted or deactivated', async () => {
    // Deactivate every other Admin, through the API.
    const others = await t.db
      .select({ id: users.id })
      .from(users)
      .innerJoin(roles, eq(roles.id, users.roleId))
      .where(and(eq(roles.baseRole, 'Admin'), eq(users.status, 'aktivan'), ne(users.id, admin.id)));
    for (const o of others)
      expect((await t.call({ method: 'DELETE', url: `/api/user/single/${o.id}`, token: adminToken })).statusCode).toBe(200);
    const self = { ime: admin.ime, prezime: admin.prezime, email: admin.email, emailPotvrdjen: true, status: 'aktivan' };
    const demote = await t.call({
      method: 'PATCH',
      url: `/api/user/single/${admin.id}`,
      payload: { ...self, rola: roleId.Zaposleni, groupId: tree.root.id },
      token: adminToken,
    });
    expect(demote.statusCode).toBe(409);
    expect(demote.json().message).toBe(said(LAST_ADMIN));
    const deactivate = await t.call({
      method: 'PATCH',
      url: `/api/user/single/${admin.id}`,
      payload: { ...self, rola: roleId.Admin, status: 'neaktivan' },
      token: adminToken,
    });
    expect(deactivate.statusCode).toBe(409);
    expect(await row(admin.id)).toMatchObject({ status: 'aktivan', roleId: roleId.Admin });
    // Renaming oneself is fine.
    const rename = await t.call({
      method: 'PATCH',
      url: `/api/user/single/${admin.id}`,
      payload: { ...self, ime: 'Anica', rola: roleId.Admin },
      token: adminToken,
    });
    expect(rename.statusCode).toBe(200);
  });
});

describe('hostile groups', () => {
  it('a group created in another organisation is never offered to a Rukovodilac', async () => {
    const foreign = await createGroup(t.db, { naziv: 'Tuđa firma d.o.o.' });
    const res = await t.call({ method: 'POST', url: '/api/user/', payload: newUser({ grupa: foreign.id }), token: managerToken });
    expect(res.statusCode).toBe(400);
  });
});

describe('a Rukovodilac without a group', () => {
  it('sees no members and no groups, only guests', async () => {
    const lost = await createUser(t.db, { role: 'Rukovodilac', groupId: null });
    const token = await tokenFor(t.ctx, lost);
    expect((await t.call({ method: 'GET', url: '/api/user', token })).json()).toEqual({ users: [], totalResults: 0 });
    expect((await t.call({ method: 'GET', url: '/api/group', token })).json()).toEqual({ groups: [], totalResults: 0 });
    expect((await t.call({ method: 'GET', url: '/api/search/user?eng=a', token })).json()).toEqual({ users: [], totalResults: 0 });
    expect((await t.call({ method: 'GET', url: `/api/user/single/${inLeaf.id}`, token })).statusCode).toBe(404);
    expect((await t.call({ method: 'GET', url: `/api/user/single/${guest.id}`, token })).statusCode).toBe(200);
  });
});
