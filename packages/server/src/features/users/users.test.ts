import { COMMON, type RoleKey, USERS } from '@trasa/domain';
import { and, desc, eq, ne } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/harness.js';
import { auditLogs, groups, roles, users } from '../../db/schema.js';
import { builtinRoleId } from '../../platform/builtinRoles.js';
import { createGroup, createOrgTree, createRole, createUser, DEFAULT_PASSWORD, tokenFor } from '../../seed/factories.js';
import { LAST_ADMIN } from '../roles/policy.js';

const t = useTestApp();
const NO_ID = '00000000-0000-4000-8000-000000000000';

let tree: Awaited<ReturnType<typeof createOrgTree>>;
let admin: Awaited<ReturnType<typeof createUser>>;
let adminToken: string;
let managerToken: string;
let employeeToken: string;
let inRoot: Awaited<ReturnType<typeof createUser>>;
let inMid: Awaited<ReturnType<typeof createUser>>;
let inLeaf: Awaited<ReturnType<typeof createUser>>;
let inOther: Awaited<ReturnType<typeof createUser>>;
let guest: Awaited<ReturnType<typeof createUser>>;
let reservedId: string;
const roleId = {} as Record<RoleKey, string>;

beforeAll(async () => {
  tree = await createOrgTree(t.db, 'Users');
  admin = await createUser(t.db, { role: 'Admin', ime: 'Ana', prezime: 'Adminović' });
  adminToken = await tokenFor(t.ctx, admin);
  managerToken = await tokenFor(t.ctx, tree.manager);
  inRoot = await createUser(t.db, { groupId: tree.root.id, ime: 'Petar', prezime: 'Korenović' });
  inMid = await createUser(t.db, { groupId: tree.mid.id, ime: 'Jelena', prezime: 'Srednjić' });
  inLeaf = await createUser(t.db, { groupId: tree.leaf.id, ime: 'Nikola', prezime: 'Listić' });
  inOther = await createUser(t.db, { groupId: tree.other.id, ime: 'Vesna', prezime: 'Drugić' });
  guest = await createUser(t.db, { role: 'Gost', ime: 'Goran', prezime: 'Gostić' });
  employeeToken = await tokenFor(t.ctx, inMid);
  const [reserved] = await t.db.select().from(groups).where(eq(groups.reserved, true));
  reservedId = reserved?.id ?? '';
  for (const key of ['Admin', 'Rukovodilac', 'Zaposleni', 'Gost'] as const) roleId[key] = await builtinRoleId(t.db, key);
});

async function row(id: string) {
  const [u] = await t.db.select().from(users).where(eq(users.id, id));
  if (!u) throw new Error('no user');
  return u;
}

async function lastLogOf(userId: string) {
  const [log] = await t.db.select().from(auditLogs).where(eq(auditLogs.userId, userId)).orderBy(desc(auditLogs.createdAt)).limit(1);
  return log;
}

const ids = (list: { _id: string }[]) => list.map((u) => u._id);

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

const newUser = (over: Record<string, unknown> = {}) => ({
  ime: 'Dušan',
  prezime: 'Đurić',
  email: `dusan.${Math.random().toString(36).slice(2, 8)}@primer.rs`,
  emailPotvrdjen: true,
  rola: roleId.Zaposleni,
  status: 'aktivan',
  grupa: tree.leaf.id,
  lozinka: 'NovaLozinka1',
  potvrdaLozinke: 'NovaLozinka1',
  ...over,
});

async function userCount() {
  return (await t.db.select({ id: users.id }).from(users)).length;
}

describe('POST /api/user/', () => {
  it('creates a user who can then sign in with that role and group', async () => {
    const payload = newUser({ grupa: tree.other.id, email: 'Dusan.Djuric@Primer.rs' });
    const res = await t.call({ method: 'POST', url: '/api/user/', payload, token: adminToken });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({ message: USERS.created });
    const login = await t.call({
      method: 'POST',
      url: '/api/user/login',
      payload: { email: 'dusan.djuric@primer.rs', lozinka: 'NovaLozinka1' },
    });
    expect(login.statusCode).toBe(200);
    expect(login.json().user).toMatchObject({ rola: 'Zaposleni', status: 'aktivan', grupa: { _id: tree.other.id } });
    expect((await lastLogOf(admin.id))?.message).toContain('dusan.djuric@primer.rs');
  });

  it('answers on /api/user without the slash too', async () => {
    const res = await t.call({ method: 'POST', url: '/api/user', payload: newUser(), token: adminToken });
    expect(res.statusCode).toBe(201);
  });

  it('stores no group for Gost and Admin, whatever was sent', async () => {
    for (const key of ['Gost', 'Admin'] as const) {
      const payload = newUser({ rola: roleId[key], grupa: tree.leaf.id });
      expect((await t.call({ method: 'POST', url: '/api/user/', payload, token: adminToken })).statusCode).toBe(201);
      const [created] = await t.db
        .select()
        .from(users)
        .where(eq(users.email, payload.email as string));
      expect(created?.groupId).toBeNull();
      expect(created?.roleId).toBe(roleId[key]);
    }
  });

  it('makes an unconfirmed e-mail inactive', async () => {
    const payload = newUser({ emailPotvrdjen: false, status: 'aktivan' });
    expect((await t.call({ method: 'POST', url: '/api/user/', payload, token: adminToken })).statusCode).toBe(201);
    const [created] = await t.db
      .select()
      .from(users)
      .where(eq(users.email, payload.email as string));
    expect(created).toMatchObject({ status: 'neaktivan', emailPotvrdjen: false });
  });

  it('refuses a taken e-mail in any case with 409 and the spec text', async () => {
    const before = await userCount();
    const res = await t.call({
      method: 'POST',
      url: '/api/user/',
      payload: newUser({ email: inMid.email.toUpperCase() }),
      token: adminToken,
    });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ message: USERS.emailTakenCreate, errors: { email: USERS.emailTakenCreate } });
    expect(await userCount()).toBe(before);
  });

  it('requires a valid, offered group for roles that have one', async () => {
    const before = await userCount();
    for (const grupa of [undefined, '', null, NO_ID, reservedId]) {
      const res = await t.call({ method: 'POST', url: '/api/user/', payload: newUser({ grupa }), token: adminToken });
      expect(res.statusCode, String(grupa)).toBe(400);
      expect(res.json()).toEqual({ message: USERS.invalidOption, errors: { grupa: USERS.invalidOption } });
    }
    const bad = await t.call({ method: 'POST', url: '/api/user/', payload: newUser({ grupa: 'nije-id' }), token: adminToken });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors.grupa).toBe(USERS.invalidOption);
    expect(await userCount()).toBe(before);
  });

  it('lets a Rukovodilac create only in their subtree and only Rukovodilac, Zaposleni or Gost', async () => {
    const before = await userCount();
    for (const grupa of [tree.root.id, tree.other.id]) {
      const res = await t.call({ method: 'POST', url: '/api/user/', payload: newUser({ grupa }), token: managerToken });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ message: USERS.invalidOption, errors: { grupa: USERS.invalidOption } });
    }
    const asAdmin = await t.call({ method: 'POST', url: '/api/user/', payload: newUser({ rola: roleId.Admin }), token: managerToken });
    expect(asAdmin.statusCode).toBe(403);
    expect(asAdmin.json().message).toBe(USERS.roleNotAllowed);
    expect(await userCount()).toBe(before);
    for (const key of ['Rukovodilac', 'Zaposleni', 'Gost'] as const) {
      const res = await t.call({ method: 'POST', url: '/api/user/', payload: newUser({ rola: roleId[key] }), token: managerToken });
      expect(res.statusCode, key).toBe(201);
    }
  });

  it('refuses an unknown role', async () => {
    const res = await t.call({ method: 'POST', url: '/api/user/', payload: newUser({ rola: NO_ID }), token: adminToken });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual({ rola: USERS.invalidOption });
  });

  it('validates with the spec texts, and never answers 500 to hostile bodies', async () => {
    const cases: [Record<string, unknown>, string, string][] = [
      [{ ime: '' }, 'ime', USERS.imeRequired],
      [{ ime: 42 }, 'ime', USERS.imeRequired],
      [{ prezime: '   ' }, 'prezime', USERS.prezimeRequired],
      [{ email: '' }, 'email', USERS.emailRequired],
      [{ email: 'nije-adresa' }, 'email', USERS.emailInvalid],
      [{ emailPotvrdjen: 'da' }, 'emailPotvrdjen', USERS.chooseOption],
      [{ rola: 'Admin' }, 'rola', USERS.chooseOption],
      [{ rola: undefined }, 'rola', USERS.chooseOption],
      [{ status: 'obrisan' }, 'status', USERS.chooseOption],
      [{ lozinka: 'kratka1' }, 'lozinka', USERS.passwordMin],
      [{ lozinka: undefined }, 'lozinka', USERS.passwordMin],
      [{ potvrdaLozinke: 'DrugaLozinka1' }, 'potvrdaLozinke', USERS.passwordsMustMatch],
    ];
    const before = await userCount();
    for (const [over, field, text] of cases) {
      const res = await t.call({ method: 'POST', url: '/api/user/', payload: newUser(over), token: adminToken });
      expect(res.statusCode, JSON.stringify(over)).toBe(400);
      expect(res.json().errors[field], JSON.stringify(over)).toBe(text);
    }
    for (const payload of ['null', '[]', '"x"', '{"ime":{"$gt":""}}', '{bad']) {
      const res = await t.call({
        method: 'POST',
        url: '/api/user/',
        payload,
        headers: { 'content-type': 'application/json' },
        token: adminToken,
      });
      expect(res.statusCode, payload).toBe(400);
    }
    expect(await userCount()).toBe(before);
  });
});

describe('PATCH /api/user/single/:id', () => {
  const edit = (u: { ime: string; prezime: string; email: string }, over: Record<string, unknown> = {}) => ({
    ime: u.ime,
    prezime: u.prezime,
    email: u.email,
    emailPotvrdjen: true,
    rola: roleId.Zaposleni,
    status: 'aktivan',
    groupId: tree.leaf.id,
    ...over,
  });

  it('edits a user and writes an audit row', async () => {
    const u = await createUser(t.db, { groupId: tree.leaf.id });
    const res = await t.call({
      method: 'PATCH',
      url: `/api/user/single/${u.id}`,
      payload: edit(u, { ime: 'Žarko', groupId: tree.mid.id, rola: roleId.Rukovodilac }),
      token: managerToken,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: USERS.edited });
    expect(await row(u.id)).toMatchObject({ ime: 'Žarko', groupId: tree.mid.id, roleId: roleId.Rukovodilac, tokenVersion: u.tokenVersion });
    expect((await lastLogOf(tree.manager.id))?.message).toContain(u.email);
  });

  it('changes the password when one is given, revoking older tokens', async () => {
    const u = await createUser(t.db, { groupId: tree.leaf.id });
    const oldToken = await tokenFor(t.ctx, u);
    const res = await t.call({
      method: 'PATCH',
      url: `/api/user/single/${u.id}`,
      payload: edit(u, { lozinka: 'SasvimNova1', potvrdaLozinke: 'SasvimNova1' }),
      token: adminToken,
    });
    expect(res.statusCode).toBe(200);
    expect((await row(u.id)).tokenVersion).toBe(u.tokenVersion + 1);
    expect((await t.call({ method: 'GET', url: '/api/user/my-profile', token: oldToken })).statusCode).toBe(401);
    const login = await t.call({ method: 'POST', url: '/api/user/login', payload: { email: u.email, lozinka: 'SasvimNova1' } });
    expect(login.statusCode).toBe(200);
    const mismatch = await t.call({
      method: 'PATCH',
      url: `/api/user/single/${u.id}`,
      payload: edit(u, { lozinka: 'SasvimNova1', potvrdaLozinke: 'Drugacija1' }),
      token: adminToken,
    });
    expect(mismatch.statusCode).toBe(400);
    expect(mismatch.json().errors.potvrdaLozinke).toBe(USERS.passwordsMustMatch);
    const empty = await t.call({ method: 'PATCH', url: `/api/user/single/${u.id}`, payload: edit(u, { lozinka: '' }), token: adminToken });
    expect(empty.statusCode).toBe(200);
    expect((await row(u.id)).tokenVersion).toBe(u.tokenVersion + 1);
  });

  it('refuses an e-mail another user has', async () => {
    const u = await createUser(t.db, { groupId: tree.leaf.id });
    const res = await t.call({
      method: 'PATCH',
      url: `/api/user/single/${u.id}`,
      payload: edit(u, { email: inLeaf.email.toUpperCase() }),
      token: adminToken,
    });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ message: USERS.emailTakenEdit, errors: { email: USERS.emailTakenEdit } });
    expect((await row(u.id)).email).toBe(u.email);
    // Keeping one's own address is not a conflict.
    expect((await t.call({ method: 'PATCH', url: `/api/user/single/${u.id}`, payload: edit(u), token: adminToken })).statusCode).toBe(200);
  });

  it('clears the group for Gost and Admin', async () => {
    const u = await createUser(t.db, { groupId: tree.leaf.id });
    await t.call({ method: 'PATCH', url: `/api/user/single/${u.id}`, payload: edit(u, { rola: roleId.Gost }), token: managerToken });
    expect(await row(u.id)).toMatchObject({ roleId: roleId.Gost, groupId: null });
  });

  it('keeps a Rukovodilac inside their subtree and their roles', async () => {
    const before = await row(inRoot.id);
    const outside = await t.call({ method: 'PATCH', url: `/api/user/single/${inRoot.id}`, payload: edit(inRoot), token: managerToken });
    expect(outside.statusCode).toBe(404);
    expect(outside.json().message).toBe(COMMON.notFound);
    expect(await row(inRoot.id)).toEqual(before);
    const adminTarget = await t.call({ method: 'PATCH', url: `/api/user/single/${admin.id}`, payload: edit(admin), token: managerToken });
    expect(adminTarget.statusCode).toBe(404);
    const leafBefore = await row(inLeaf.id);
    const toAdmin = await t.call({
      method: 'PATCH',
      url: `/api/user/single/${inLeaf.id}`,
      payload: edit(inLeaf, { rola: roleId.Admin }),
      token: managerToken,
    });
    expect(toAdmin.statusCode).toBe(403);
    expect(toAdmin.json().message).toBe(USERS.roleNotAllowed);
    const moveOut = await t.call({
      method: 'PATCH',
      url: `/api/user/single/${inLeaf.id}`,
      payload: edit(inLeaf, { groupId: tree.other.id }),
      token: managerToken,
    });
    expect(moveOut.statusCode).toBe(400);
    expect(moveOut.json()).toEqual({ message: USERS.invalidOption, errors: { groupId: USERS.invalidOption } });
    const reserved = await t.call({
      method: 'PATCH',
      url: `/api/user/single/${inLeaf.id}`,
      payload: edit(inLeaf, { groupId: reservedId }),
      token: adminToken,
    });
    expect(reserved.statusCode).toBe(400);
    expect(await row(inLeaf.id)).toEqual(leafBefore);
  });

  it('answers 404 for unknown ids and 400 for malformed ones and bodies', async () => {
    expect((await t.call({ method: 'PATCH', url: `/api/user/single/${NO_ID}`, payload: edit(inLeaf), token: adminToken })).statusCode).toBe(
      404,
    );
    expect((await t.call({ method: 'PATCH', url: '/api/user/single/xyz', payload: edit(inLeaf), token: adminToken })).statusCode).toBe(400);
    for (const over of [{ groupId: 42 }, { rola: ['x'] }, { emailPotvrdjen: null }, { lozinka: 'kratko' }]) {
      const res = await t.call({ method: 'PATCH', url: `/api/user/single/${inLeaf.id}`, payload: edit(inLeaf, over), token: adminToken });
      expect(res.statusCode, JSON.stringify(over)).toBe(400);
    }
  });
});

describe('DELETE /api/user/single/:id', () => {
  it('sets the status to neaktivan, signs the user out, and editing brings them back', async () => {
    const u = await createUser(t.db, { groupId: tree.leaf.id });
    const token = await tokenFor(t.ctx, u);
    const res = await t.call({ method: 'DELETE', url: `/api/user/single/${u.id}`, token: managerToken });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: USERS.deleted });
    expect((await row(u.id)).status).toBe('neaktivan');
    expect((await t.call({ method: 'GET', url: '/api/user/my-profile', token })).statusCode).toBe(401);
    const login = await t.call({ method: 'POST', url: '/api/user/login', payload: { email: u.email, lozinka: DEFAULT_PASSWORD } });
    expect(login.statusCode).toBe(403);
    const back = await t.call({
      method: 'PATCH',
      url: `/api/user/single/${u.id}`,
      payload: {
        ime: u.ime,
        prezime: u.prezime,
        email: u.email,
        emailPotvrdjen: true,
        rola: roleId.Zaposleni,
        status: 'aktivan',
        groupId: tree.leaf.id,
      },
      token: managerToken,
    });
    expect(back.statusCode).toBe(200);
    const again = await t.call({ method: 'POST', url: '/api/user/login', payload: { email: u.email, lozinka: DEFAULT_PASSWORD } });
    expect(again.statusCode).toBe(200);
  });

  it('refuses one’s own account (that is deleted on My account)', async () => {
    const res = await t.call({ method: 'DELETE', url: `/api/user/single/${admin.id}`, token: adminToken });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(USERS.cannotDeleteSelf);
    expect((await row(admin.id)).status).toBe('aktivan');
  });

  it('hides users outside a Rukovodilac’s scope like missing ones', async () => {
    for (const id of [inRoot.id, inOther.id, admin.id, NO_ID]) {
      const res = await t.call({ method: 'DELETE', url: `/api/user/single/${id}`, token: managerToken });
      expect(res.statusCode).toBe(404);
      expect(res.json().message).toBe(COMMON.notFound);
    }
    expect((await row(inRoot.id)).status).toBe('aktivan');
    expect((await row(inOther.id)).status).toBe('aktivan');
    expect((await t.call({ method: 'DELETE', url: '/api/user/single/123', token: managerToken })).statusCode).toBe(400);
  });

  it('is not for employees', async () => {
    expect((await t.call({ method: 'DELETE', url: `/api/user/single/${inLeaf.id}`, token: employeeToken })).statusCode).toBe(403);
    expect((await row(inLeaf.id)).status).toBe('aktivan');
  });
});

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
    expect(added.json()).toEqual({ message: USERS.guestAdded });
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
    expect(demote.json().message).toBe(LAST_ADMIN);
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
