import { COMMON, USERS } from '@trasa/domain';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { said } from '../../../test/harness.js';
import { users } from '../../db/schema.js';
import { createUser, DEFAULT_PASSWORD, tokenFor } from '../../seed/factories.js';
import {
  admin,
  adminToken,
  employeeToken,
  inLeaf,
  inMid,
  inOther,
  inRoot,
  lastLogOf,
  managerToken,
  NO_ID,
  newUser,
  reservedId,
  roleId,
  row,
  setupUsers,
  t,
  tree,
  userCount,
} from './usersSetup.js';

setupUsers();
describe('POST /api/user/', () => {
  it('creates a user who can then sign in with that role and group', async () => {
    const payload = newUser({ grupa: tree.other.id, email: 'Dusan.Djuric@Primer.rs' });
    const res = await t.call({ method: 'POST', url: '/api/user/', payload, token: adminToken });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({ message: said(USERS.created) });
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
    expect(res.json()).toEqual({ message: said(USERS.emailTakenCreate), errors: { email: said(USERS.emailTakenCreate) } });
    expect(await userCount()).toBe(before);
  });

  it('requires a valid, offered group for roles that have one', async () => {
    const before = await userCount();
    for (const grupa of [undefined, '', null, NO_ID, reservedId]) {
      const res = await t.call({ method: 'POST', url: '/api/user/', payload: newUser({ grupa }), token: adminToken });
      expect(res.statusCode, String(grupa)).toBe(400);
      expect(res.json()).toEqual({ message: said(USERS.invalidOption), errors: { grupa: said(USERS.invalidOption) } });
    }
    const bad = await t.call({ method: 'POST', url: '/api/user/', payload: newUser({ grupa: 'nije-id' }), token: adminToken });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors.grupa).toBe(said(USERS.invalidOption));
    expect(await userCount()).toBe(before);
  });

  it('lets a Rukovodilac create only in their subtree and only Rukovodilac, Zaposleni or Gost', async () => {
    const before = await userCount();
    for (const grupa of [tree.root.id, tree.other.id]) {
      const res = await t.call({ method: 'POST', url: '/api/user/', payload: newUser({ grupa }), token: managerToken });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ message: said(USERS.invalidOption), errors: { grupa: said(USERS.invalidOption) } });
    }
    const asAdmin = await t.call({ method: 'POST', url: '/api/user/', payload: newUser({ rola: roleId.Admin }), token: managerToken });
    expect(asAdmin.statusCode).toBe(403);
    expect(asAdmin.json().message).toBe(said(USERS.roleNotAllowed));
    expect(await userCount()).toBe(before);
    for (const key of ['Rukovodilac', 'Zaposleni', 'Gost'] as const) {
      const res = await t.call({ method: 'POST', url: '/api/user/', payload: newUser({ rola: roleId[key] }), token: managerToken });
      expect(res.statusCode, key).toBe(201);
    }
  });

  it('refuses an unknown role', async () => {
    const res = await t.call({ method: 'POST', url: '/api/user/', payload: newUser({ rola: NO_ID }), token: adminToken });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual({ rola: said(USERS.invalidOption) });
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
      expect(res.json().errors[field], JSON.stringify(over)).toBe(said(text));
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
    expect(res.json()).toEqual({ message: said(USERS.edited) });
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
    expect(mismatch.json().errors.potvrdaLozinke).toBe(said(USERS.passwordsMustMatch));
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
    expect(res.json()).toEqual({ message: said(USERS.emailTakenEdit), errors: { email: said(USERS.emailTakenEdit) } });
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
    expect(outside.json().message).toBe(said(COMMON.notFound));
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
    expect(toAdmin.json().message).toBe(said(USERS.roleNotAllowed));
    const moveOut = await t.call({
      method: 'PATCH',
      url: `/api/user/single/${inLeaf.id}`,
      payload: edit(inLeaf, { groupId: tree.other.id }),
      token: managerToken,
    });
    expect(moveOut.statusCode).toBe(400);
    expect(moveOut.json()).toEqual({ message: said(USERS.invalidOption), errors: { groupId: said(USERS.invalidOption) } });
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
    expect(res.json()).toEqual({ message: said(USERS.deleted) });
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
    expect(res.json().message).toBe(said(USERS.cannotDeleteSelf));
    expect((await row(admin.id)).status).toBe('aktivan');
  });

  it('hides users outside a Rukovodilac’s scope like missing ones', async () => {
    for (const id of [inRoot.id, inOther.id, admin.id, NO_ID]) {
      const res = await t.call({ method: 'DELETE', url: `/api/user/single/${id}`, token: managerToken });
      expect(res.statusCode).toBe(404);
      expect(res.json().message).toBe(said(COMMON.notFound));
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
