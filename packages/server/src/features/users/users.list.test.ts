import { COMMON } from '@trasa/domain';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { roles, users } from '../../db/schema.js';
import { createRole, createUser, tokenFor } from '../../seed/factories.js';
import {
  admin,
  adminToken,
  guest,
  ids,
  inLeaf,
  inMid,
  inOther,
  inRoot,
  managerToken,
  NO_ID,
  reservedId,
  roleId,
  setupUsers,
  t,
  tree,
} from './usersSetup.js';

setupUsers();
describe('GET /api/user', () => {
  it('gives an Admin every user, guests and admins included, ordered by prezime and ime', async () => {
    const res = await t.call({ method: 'GET', url: '/api/user?page=1&limit=50000', token: adminToken });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(ids(body.users)).toEqual(expect.arrayContaining([admin.id, inRoot.id, inMid.id, inLeaf.id, inOther.id, guest.id]));
    expect(body.totalResults).toBe(body.users.length);
    const names = body.users.map((u: { prezime: string; ime: string }) => [u.prezime, u.ime]);
    expect(names).toEqual([...names].sort((a, b) => (a[0] === b[0] ? (a[1] < b[1] ? -1 : 1) : a[0] < b[0] ? -1 : 1)));
    const mid = body.users.find((u: { _id: string }) => u._id === inMid.id);
    expect(mid).toMatchObject({
      rola: 'Zaposleni',
      rolaId: roleId.Zaposleni,
      grupa: { _id: tree.mid.id, tip: 'Izvođač', tipKod: 'IZVODJAC' },
    });
    expect(JSON.stringify(body)).not.toMatch(/passwordHash|password_hash|searchText|scrypt/);
  });

  it('gives a Rukovodilac only the members of their group and its descendants', async () => {
    const body = (await t.call({ method: 'GET', url: '/api/user?limit=1000', token: managerToken })).json();
    expect(new Set(ids(body.users))).toEqual(new Set([tree.manager.id, inMid.id, inLeaf.id]));
    expect(body.totalResults).toBe(3);
  });

  it('filters by a group in scope; one outside it (or the reserved group) answers 404 like a missing one', async () => {
    const leaf = (await t.call({ method: 'GET', url: `/api/user?groupId=${tree.leaf.id}`, token: managerToken })).json();
    expect(ids(leaf.users)).toEqual([inLeaf.id]);
    const missing = await t.call({ method: 'GET', url: `/api/user?groupId=${NO_ID}`, token: managerToken });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().message).toBe(COMMON.notFound);
    for (const groupId of [tree.root.id, tree.other.id, reservedId]) {
      const res = await t.call({ method: 'GET', url: `/api/user?groupId=${groupId}`, token: managerToken });
      expect(res.statusCode, groupId).toBe(404);
      expect(res.body).toBe(missing.body);
    }
    const asAdmin = (await t.call({ method: 'GET', url: `/api/user?groupId=${tree.other.id}`, token: adminToken })).json();
    expect(ids(asAdmin.users)).toEqual([inOther.id]);
    const all = (await t.call({ method: 'GET', url: '/api/user?groupId=', token: managerToken })).json();
    expect(all.totalResults).toBe(3);
    expect((await t.call({ method: 'GET', url: '/api/user?groupId=nije-id', token: managerToken })).statusCode).toBe(400);
  });

  it('pages from 1, clamps huge and tiny numbers, refuses non-numbers', async () => {
    const first = (await t.call({ method: 'GET', url: '/api/user?page=1&limit=2', token: managerToken })).json();
    const second = (await t.call({ method: 'GET', url: '/api/user?page=2&limit=2', token: managerToken })).json();
    expect(first.users).toHaveLength(2);
    expect(second.users).toHaveLength(1);
    expect(second.totalResults).toBe(3);
    expect(ids([...first.users, ...second.users])).toHaveLength(3);
    const huge = await t.call({ method: 'GET', url: '/api/user?page=1&limit=99999999999', token: managerToken });
    expect(huge.statusCode).toBe(200);
    expect(huge.json().users).toHaveLength(3);
    const zero = await t.call({ method: 'GET', url: '/api/user?page=0&limit=0', token: managerToken });
    expect(zero.statusCode).toBe(200);
    expect(zero.json().users).toHaveLength(1);
    const far = await t.call({ method: 'GET', url: '/api/user?page=999999999&limit=50000', token: adminToken });
    expect(far.statusCode).toBe(200);
    expect(far.json().users).toEqual([]);
    for (const q of ['page=abc', 'limit=x', 'limit=1e400', 'page=1&page=2']) {
      expect((await t.call({ method: 'GET', url: `/api/user?${q}`, token: managerToken })).statusCode, q).toBe(400);
    }
  });

  it('never lists deleted accounts', async () => {
    const gone = await createUser(t.db, { groupId: tree.mid.id });
    await t.call({ method: 'DELETE', url: '/api/user/my-profile', token: await tokenFor(t.ctx, gone) });
    const body = (await t.call({ method: 'GET', url: '/api/user?limit=50000', token: adminToken })).json();
    expect(ids(body.users)).not.toContain(gone.id);
    expect((await t.call({ method: 'GET', url: `/api/user/single/${gone.id}`, token: adminToken })).statusCode).toBe(404);
  });
});

describe('GET /api/user/users-per-role and /api/user/guests', () => {
  it('lists the users of one role within the scope; a Rukovodilac sees every guest', async () => {
    const admins = (await t.call({ method: 'GET', url: `/api/user/users-per-role?roleId=${roleId.Admin}`, token: adminToken })).json();
    expect(ids(admins.users)).toContain(admin.id);
    expect(admins.users.every((u: { rola: string }) => u.rola === 'Admin')).toBe(true);
    const mine = (await t.call({ method: 'GET', url: `/api/user/users-per-role?roleId=${roleId.Zaposleni}`, token: managerToken })).json();
    expect(new Set(ids(mine.users))).toEqual(new Set([inMid.id, inLeaf.id]));
    const noAdmins = (await t.call({ method: 'GET', url: `/api/user/users-per-role?roleId=${roleId.Admin}`, token: managerToken })).json();
    expect(noAdmins).toEqual({ users: [], totalResults: 0 });
    const guests = (await t.call({ method: 'GET', url: `/api/user/users-per-role?roleId=${roleId.Gost}`, token: managerToken })).json();
    expect(ids(guests.users)).toContain(guest.id);
  });

  it('lists users of an extra role by its id', async () => {
    const extra = await createRole(t.db, { imeRole: 'Terenski inženjer', baseRole: 'Zaposleni' });
    const u = await createUser(t.db, { role: 'Zaposleni', roleId: extra.id, groupId: tree.leaf.id });
    const body = (await t.call({ method: 'GET', url: `/api/user/users-per-role?roleId=${extra.id}`, token: managerToken })).json();
    expect(body.users).toEqual([
      expect.objectContaining({ _id: u.id, rola: 'Zaposleni', rolaNaziv: 'Terenski inženjer', rolaId: extra.id }),
    ]);
  });

  it('refuses a missing or malformed roleId with 400 and answers an unknown one with an empty page', async () => {
    for (const q of ['', '?roleId=', '?roleId=abc']) {
      const res = await t.call({ method: 'GET', url: `/api/user/users-per-role${q}`, token: adminToken });
      expect(res.statusCode, q).toBe(400);
    }
    const unknown = await t.call({ method: 'GET', url: `/api/user/users-per-role?roleId=${NO_ID}`, token: adminToken });
    expect(unknown.json()).toEqual({ users: [], totalResults: 0 });
  });

  it('lists every guest, and only guests, to Admin and Rukovodilac', async () => {
    for (const token of [adminToken, managerToken]) {
      const body = (await t.call({ method: 'GET', url: '/api/user/guests?page=1&limit=50000', token })).json();
      expect(ids(body.guests)).toContain(guest.id);
      expect(body.guests.every((u: { rola: string; grupa: unknown }) => u.rola === 'Gost' && u.grupa === null)).toBe(true);
      expect(body.totalResults).toBe(body.guests.length);
      expect(body.users).toBeUndefined();
    }
  });

  it('lists the guests of every guest role, an extra one too, in name order, without deleted ones', async () => {
    const extra = await createRole(t.db, { imeRole: 'Posetilac', baseRole: 'Gost' });
    const visitor = await createUser(t.db, { role: 'Gost', roleId: extra.id, prezime: 'Aaaćimović', ime: 'Gordana' });
    const gone = await createUser(t.db, { role: 'Gost', roleId: extra.id, prezime: 'Aaaćimović', ime: 'Zorka' });
    await t.db.update(users).set({ deletedAt: new Date() }).where(eq(users.id, gone.id));
    const body = (await t.call({ method: 'GET', url: '/api/user/guests?page=1&limit=50000', token: adminToken })).json();
    const all = await t.db
      .select({ id: users.id, deletedAt: users.deletedAt, base: roles.baseRole })
      .from(users)
      .innerJoin(roles, eq(roles.id, users.roleId));
    const guestIds = all.filter((u) => u.base === 'Gost' && u.deletedAt === null).map((u) => u.id);
    expect(new Set(ids(body.guests))).toEqual(new Set(guestIds));
    expect(ids(body.guests)).toContain(visitor.id);
    expect(ids(body.guests)).not.toContain(gone.id);
    expect(body.guests[0]).toMatchObject({ _id: visitor.id, rolaNaziv: 'Posetilac' });
    expect(body.totalResults).toBe(guestIds.length);
  });
});

describe('GET /api/user/single/:id', () => {
  it('gives the user and their group with parent, children and member count', async () => {
    const res = await t.call({ method: 'GET', url: `/api/user/single/${inMid.id}`, token: adminToken });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.user).toMatchObject({ _id: inMid.id, email: inMid.email, rola: 'Zaposleni' });
    expect(body.group).toMatchObject({
      _id: tree.mid.id,
      naziv: tree.mid.naziv,
      tip: 'Izvođač',
      tipKod: 'IZVODJAC',
      nadredjenaGrupa: { _id: tree.root.id, naziv: tree.root.naziv },
      podredjeneGrupe: [{ _id: tree.leaf.id, naziv: tree.leaf.naziv }],
    });
    expect(body.group.brojClanova).toBeGreaterThanOrEqual(2);
    const g = (await t.call({ method: 'GET', url: `/api/user/single/${guest.id}`, token: adminToken })).json();
    expect(g.group).toBeNull();
  });

  it('lets a Rukovodilac open their members and guests, and hides everyone else exactly like a missing id', async () => {
    expect((await t.call({ method: 'GET', url: `/api/user/single/${inLeaf.id}`, token: managerToken })).statusCode).toBe(200);
    expect((await t.call({ method: 'GET', url: `/api/user/single/${guest.id}`, token: managerToken })).statusCode).toBe(200);
    const mine = (await t.call({ method: 'GET', url: `/api/user/single/${tree.manager.id}`, token: managerToken })).json();
    // The group above their own is outside their scope.
    expect(mine.group.nadredjenaGrupa).toBeNull();
    const missing = await t.call({ method: 'GET', url: `/api/user/single/${NO_ID}`, token: managerToken });
    expect(missing.statusCode).toBe(404);
    for (const id of [inRoot.id, inOther.id, admin.id]) {
      const res = await t.call({ method: 'GET', url: `/api/user/single/${id}`, token: managerToken });
      expect(res.statusCode).toBe(404);
      expect(res.body).toBe(missing.body);
    }
  });

  it('refuses ids that are not uuids with 400', async () => {
    for (const id of ['abc', '1', "1'%20or%201=1", '00000000-0000-4000-8000-00000000000g']) {
      const res = await t.call({ method: 'GET', url: `/api/user/single/${id}`, token: adminToken });
      expect(res.statusCode, id).toBe(400);
      expect(res.json().message).toBe(COMMON.notFound);
    }
  });
});
