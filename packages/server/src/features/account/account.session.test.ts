import { ACCOUNT } from '@trasa/domain';
import { describe, expect, it } from 'vitest';
import { said } from '../../../test/harness.js';
import { revokedTokens } from '../../db/schema.js';
import { builtinRoleId } from '../../platform/builtinRoles.js';
import { createUser, DEFAULT_PASSWORD, tokenFor } from '../../seed/factories.js';
import { login, setupAccount, t, userRow } from './accountSetup.js';

setupAccount();

describe('weak passwords everywhere a password is set', () => {
  it('change-password and the user forms of Admin and Manager refuse them too', async () => {
    const u = await createUser(t.db, { ime: 'Branko', email: 'branko.b@primer.rs' });
    const token = await tokenFor(t.ctx, u);
    const change = await t.call({
      method: 'POST',
      url: '/api/user/change-password',
      token,
      payload: { password: DEFAULT_PASSWORD, newPassword: 'Branko2024', confirmNewPassword: 'Branko2024' },
    });
    expect(change.statusCode).toBe(400);
    expect(change.json()).toEqual({ message: said(ACCOUNT.passwordPersonal), errors: { newPassword: said(ACCOUNT.passwordPersonal) } });
    expect((await userRow(u.id)).passwordHash).toBe(u.passwordHash);

    const admin = await createUser(t.db, { role: 'Admin' });
    const adminToken = await tokenFor(t.ctx, admin);
    const form = {
      ime: 'Nova',
      prezime: 'Osoba',
      email: 'nova.osoba@primer.rs',
      emailPotvrdjen: true,
      rola: await builtinRoleId(t.db, 'Gost'),
      status: 'aktivan',
      grupa: null,
      lozinka: 'qwerty123',
      potvrdaLozinke: 'qwerty123',
    };
    const created = await t.call({ method: 'POST', url: '/api/user/', token: adminToken, payload: form });
    expect(created.statusCode).toBe(400);
    expect(created.json()).toEqual({ message: said(ACCOUNT.passwordTooCommon), errors: { lozinka: said(ACCOUNT.passwordTooCommon) } });
    const edited = await t.call({
      method: 'PATCH',
      url: `/api/user/single/${u.id}`,
      token: adminToken,
      payload: { ...form, email: u.email, groupId: null, grupa: undefined, lozinka: 'Password1', potvrdaLozinke: 'Password1' },
    });
    expect(edited.statusCode).toBe(400);
    expect(edited.json().message).toBe(said(ACCOUNT.passwordTooCommon));
  });
});

describe('sign-out', () => {
  it('revokes the token it is called with; other sessions go on', async () => {
    const u = await createUser(t.db);
    const first = (await login(u.email, DEFAULT_PASSWORD)).json().token as string;
    const second = (await login(u.email, DEFAULT_PASSWORD)).json().token as string;
    const out = await t.call({ method: 'POST', url: '/api/user/logout', token: first });
    expect(out.statusCode).toBe(200);
    expect(out.json().message).toBe(said(ACCOUNT.loggedOut));
    expect((await t.call({ method: 'GET', url: '/api/user/my-profile', token: first })).statusCode).toBe(401);
    expect((await t.call({ method: 'POST', url: '/api/user/logout', token: first })).statusCode).toBe(401);
    expect((await t.call({ method: 'GET', url: '/api/user/my-profile', token: second })).statusCode).toBe(200);
  });

  it('signs out every session with logout-all', async () => {
    const u = await createUser(t.db);
    const first = (await login(u.email, DEFAULT_PASSWORD)).json().token as string;
    const second = (await login(u.email, DEFAULT_PASSWORD)).json().token as string;
    const out = await t.call({ method: 'POST', url: '/api/user/logout-all', token: second });
    expect(out.statusCode).toBe(200);
    expect(out.json().message).toBe(said(ACCOUNT.loggedOutEverywhere));
    for (const token of [first, second]) expect((await t.call({ method: 'GET', url: '/api/user/my-profile', token })).statusCode).toBe(401);
    expect((await login(u.email, DEFAULT_PASSWORD)).statusCode).toBe(200);
  });

  it('keeps revoked ids only until the tokens would have expired', async () => {
    await t.db.insert(revokedTokens).values({ jti: 'istekao-davno', expiresAt: new Date(Date.now() - 60_000) });
    const u = await createUser(t.db);
    await t.call({ method: 'POST', url: '/api/user/logout', token: await tokenFor(t.ctx, u) });
    const rows = await t.db.select().from(revokedTokens);
    expect(rows.map((r) => r.jti)).not.toContain('istekao-davno');
    expect(rows.length).toBeGreaterThanOrEqual(1);
  });

  it('refuses a token without an id (as issued before sign-out existed)', async () => {
    const { SignJWT } = await import('jose');
    const { deriveKey } = await import('../../platform/secrets.js');
    const u = await createUser(t.db);
    const old = await new SignJWT({ tv: u.tokenVersion })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(u.id)
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(deriveKey(t.ctx.secret, 'bearer-token'));
    expect((await t.call({ method: 'GET', url: '/api/user/my-profile', token: old })).statusCode).toBe(401);
  });
});
describe('caching', () => {
  it('marks every /api answer no-store, signed in or not, success or error', async () => {
    const u = await createUser(t.db);
    const token = await tokenFor(t.ctx, u);
    const answers = [
      await t.call({ method: 'GET', url: '/api/user/my-profile', token }),
      await t.call({ method: 'GET', url: '/api/user/my-profile' }),
      await t.call({ method: 'GET', url: '/api/nema-takve-rute' }),
      await t.call({ method: 'POST', url: '/api/user/login', payload: { email: 'x' } }),
      await t.call({ method: 'GET', url: '/api/health' }),
    ];
    for (const res of answers) expect(res.headers['cache-control'], `${res.statusCode} ${res.body}`).toBe('no-store');
  });

  it('leaves other paths alone', async () => {
    const res = await t.call({ method: 'GET', url: '/app/moj-nalog' });
    expect(res.headers['cache-control']).not.toBe('no-store');
  });
});
