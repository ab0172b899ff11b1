import { ACCOUNT } from '@trasa/domain';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { said } from '../../../test/harness.js';
import { auditLogs } from '../../db/schema.js';
import { configurePasswordWork, passwordWorkStats } from '../../platform/passwords.js';
import { configureSignInGate, THROTTLE } from '../../platform/throttle.js';
import { createGroup, createUser, DEFAULT_PASSWORD } from '../../seed/factories.js';
import { failures, login, setupAccount, t } from './accountSetup.js';

setupAccount();

describe('POST /api/user/login', () => {
  it('returns a token and the user with its base role and group', async () => {
    const group = await createGroup(t.db, { naziv: 'Telekom izvođač', type: 'IZVODJAC' });
    const u = await createUser(t.db, { role: 'Zaposleni', groupId: group.id, email: 'Marko.Markovic@primer.rs' });
    const res = await t.call({
      method: 'POST',
      url: '/api/user/login',
      payload: { email: 'marko.markovic@PRIMER.rs', lozinka: DEFAULT_PASSWORD },
    });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(typeof body.token).toBe('string');
    expect(res.headers.authorization).toBe(`Bearer ${body.token}`);
    expect(body.user).toMatchObject({
      _id: u.id,
      email: 'marko.markovic@primer.rs',
      rola: 'Zaposleni',
      status: 'aktivan',
      grupa: { _id: group.id, naziv: 'Telekom izvođač', tip: 'Izvođač', tipKod: 'IZVODJAC' },
    });
    expect(JSON.stringify(body)).not.toMatch(/passwordHash|scrypt/);
    const profile = await t.call({ method: 'GET', url: '/api/user/my-profile', token: body.token });
    expect(profile.statusCode).toBe(200);
    expect(profile.json().user._id).toBe(u.id);
  });

  it('answers with messages the UI places under the right field', async () => {
    const u = await createUser(t.db);
    const unknown = await t.call({
      method: 'POST',
      url: '/api/user/login',
      payload: { email: 'nema.ga@primer.rs', lozinka: 'Lozinka123' },
    });
    expect(unknown.statusCode).toBe(401);
    expect(unknown.json().message).toContain(said('Korisnik'));
    const wrong = await t.call({ method: 'POST', url: '/api/user/login', payload: { email: u.email, lozinka: 'Pogresna123' } });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().message).toBe(said('Pogrešna lozinka'));
    const inactive = await createUser(t.db, { status: 'neaktivan' });
    const res = await t.call({ method: 'POST', url: '/api/user/login', payload: { email: inactive.email, lozinka: DEFAULT_PASSWORD } });
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toContain(said('Korisnik'));
  });

  it('validates with the spec messages', async () => {
    const cases: [unknown, string][] = [
      [{ lozinka: 'Lozinka123' }, 'Обавезно поље'],
      [{ email: 'nije-adresa', lozinka: 'Lozinka123' }, 'Погрешна имејл адреса'],
      [{ email: 'a@b.rs' }, 'Унесите лозинку'],
      [{ email: 'a@b.rs', lozinka: 'kratka' }, 'Лозинка мора имати минимум 8 карактера'],
      [{ email: 42, lozinka: ['x'] }, 'Обавезно поље'],
    ];
    for (const [payload, message] of cases) {
      const res = await t.call({ method: 'POST', url: '/api/user/login', payload: payload as object });
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(Object.values(res.json().errors ?? {}).concat(res.json().message)).toContain(message);
    }
  });

  it('refuses malformed bodies with 400, never 500', async () => {
    for (const payload of ['{bad json', 'null', '[]', '"text"', '{"email":{"$gt":""},"lozinka":"x"}']) {
      const res = await t.call({ method: 'POST', url: '/api/user/login', payload, headers: { 'content-type': 'application/json' } });
      expect(res.statusCode, payload).toBe(400);
      expect(typeof res.json().message).toBe('string');
    }
    const huge = await t.call({ method: 'POST', url: '/api/user/login', payload: { email: 'a@b.rs', lozinka: 'x'.repeat(2_000_000) } });
    expect(huge.statusCode).toBe(413);
  });

  it('throttles an address that keeps failing at an account, but lets the right password in from another one', async () => {
    const u = await createUser(t.db);
    for (let i = 0; i < 5; i++) expect((await login(u.email, `Pogresna${i}xx`, '10.0.0.1')).statusCode).toBe(401);
    // Another address with the right password: the account is not locked for everyone.
    const other = await login(u.email, DEFAULT_PASSWORD, '10.0.1.1');
    expect(other.statusCode).toBe(200);
    // The failing address is throttled for that account, even with the right password.
    const blocked = await login(u.email, DEFAULT_PASSWORD, '10.0.0.1');
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().message).toBe(said(ACCOUNT.throttled));
    // … and only for that account.
    const v = await createUser(t.db);
    expect((await login(v.email, DEFAULT_PASSWORD, '10.0.0.1')).statusCode).toBe(200);
  });

  it('counts an attempt before hashing: 40 parallel guesses at one account, at most 5 are checked', async () => {
    const u = await createUser(t.db);
    const before = passwordWorkStats().hashed;
    const answers = await Promise.all(Array.from({ length: 40 }, (_, i) => login(u.email, `Pogresna${i}xx`, '10.0.2.1')));
    const wrong = answers.filter((r) => r.statusCode === 401 && r.json().message === said(ACCOUNT.wrongPassword));
    const throttled = answers.filter((r) => r.statusCode === 429);
    expect(wrong).toHaveLength(5);
    expect(throttled).toHaveLength(35);
    expect(passwordWorkStats().hashed - before).toBe(5);
  });

  it('spends no hashing on an unknown account (its answer already says so)', async () => {
    const before = passwordWorkStats().hashed;
    const res = await login('niko.ovde@primer.rs', 'Lozinka123', '10.0.3.1');
    expect(res.statusCode).toBe(401);
    expect(res.json().message).toBe(said(ACCOUNT.unknownUser));
    expect(passwordWorkStats().hashed).toBe(before);
  });

  it('answers 503 in Serbian when the password work is full, and does not count that against the address at the account', async () => {
    const accounts = await Promise.all(Array.from({ length: 6 }, () => createUser(t.db)));
    configurePasswordWork({ concurrency: 1, maxWaiting: { normal: 1, suspect: 1 }, maxWaitMs: 60_000 });
    let answers: Awaited<ReturnType<typeof login>>[];
    try {
      answers = await Promise.all(accounts.map((a, i) => login(a.email, DEFAULT_PASSWORD, `10.0.4.${i}`)));
      const busy = answers.filter((r) => r.statusCode === 503);
      expect(busy.length).toBeGreaterThanOrEqual(1);
      expect(busy[0]?.json().message).toBe(said(ACCOUNT.busy));
      expect(answers.filter((r) => r.statusCode === 200).length).toBeGreaterThanOrEqual(2);
    } finally {
      configurePasswordWork({ maxWaiting: { normal: 50, suspect: 50 }, maxWaitMs: 60_000 });
    }
    // A refused address tries again five more times at that account before it is throttled: 503 is not
    // a failed guess. It stays counted against the address as a whole.
    const refused = accounts[answers.findIndex((r) => r.statusCode === 503)] as (typeof accounts)[number];
    const ip = `10.0.4.${accounts.indexOf(refused)}`;
    expect(await failures(`ip:${ip}`)).toBe(1);
    for (let i = 0; i < 5; i++) expect((await login(refused.email, `Pogresna${i}xx`, ip)).statusCode).toBe(401);
    expect((await login(refused.email, DEFAULT_PASSWORD, ip)).statusCode).toBe(429);
  });

  it('lets sign-ins from other addresses through while one address floods, and counts its refusals against it', async () => {
    const owners = await Promise.all(Array.from({ length: 6 }, () => createUser(t.db)));
    // Room for the six and one address's share: the flood can take only its share.
    configureSignInGate(8, 2);
    try {
      const flood = Promise.all(Array.from({ length: 40 }, (_, i) => login(`poplava${i}@primer.rs`, 'Pogresna123', '10.0.8.1')));
      const real = Promise.all(owners.map((u, i) => login(u.email, DEFAULT_PASSWORD, `10.0.8.${10 + i}`)));
      const [flooded, signedIn] = await Promise.all([flood, real]);
      expect(signedIn.map((r) => r.statusCode)).toEqual(Array(6).fill(200));
      const statuses = flooded.map((r) => r.statusCode);
      expect(statuses.every((s) => s === 401 || s === 429 || s === 503)).toBe(true);
      expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(THROTTLE.perIp);
      expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(40 - THROTTLE.perIp);
    } finally {
      configureSignInGate(1000, 1000);
    }
    // The 503s counted too: the sender went past its limit (once past it, this process answers it
    // without counting further) and is throttled, before the gate.
    const counted = await failures('ip:10.0.8.1');
    expect(counted).toBeGreaterThan(THROTTLE.perIp);
    const after = await login('poplava.posle@primer.rs', 'Pogresna123', '10.0.8.1');
    expect(after.statusCode).toBe(429);
    expect(after.json().message).toBe(said(ACCOUNT.throttled));
    // … answered without a statement: its window does not move, so nothing needs counting.
    expect(await failures('ip:10.0.8.1')).toBe(counted);
  });

  it('sheds sign-ins past the gate before any work, except from an address the account signed in from', async () => {
    const u = await createUser(t.db);
    expect((await login(u.email, DEFAULT_PASSWORD, '10.0.6.1')).statusCode).toBe(200);
    configureSignInGate(0);
    try {
      const before = passwordWorkStats().hashed;
      const shed = await login(u.email, DEFAULT_PASSWORD, '10.0.6.2');
      expect(shed.statusCode).toBe(503);
      expect(shed.json().message).toBe(said(ACCOUNT.busy));
      expect(passwordWorkStats().hashed).toBe(before);
      expect((await login(u.email, DEFAULT_PASSWORD, '10.0.6.1')).statusCode).toBe(200);
    } finally {
      configureSignInGate(1000, 1000);
    }
  });

  it('slows an account under attack from many addresses instead of locking it', async () => {
    const u = await createUser(t.db);
    // Sign in once from the owner's usual address: it stays in the ordinary lane.
    expect((await login(u.email, DEFAULT_PASSWORD, '10.0.5.200')).statusCode).toBe(200);
    for (let i = 0; i < 7; i++) expect((await login(u.email, `Pogresna${i}xx`, `10.0.5.${i}`)).statusCode).toBe(401);
    expect((await login(u.email, DEFAULT_PASSWORD, '10.0.5.201')).statusCode).toBe(200);
    expect((await login(u.email, DEFAULT_PASSWORD, '10.0.5.200')).statusCode).toBe(200);
  });

  it('throttles per IP across accounts', async () => {
    const ip = '10.9.9.9';
    for (let i = 0; i < 30; i++) await login(`niko${i}@primer.rs`, 'Lozinka123', ip);
    const u = await createUser(t.db);
    const res = await login(u.email, DEFAULT_PASSWORD, ip);
    expect(res.statusCode).toBe(429);
    const other = await login(u.email, DEFAULT_PASSWORD, '10.9.9.10');
    expect(other.statusCode).toBe(200);
  });

  it('tells a deactivated account from one whose e-mail is not confirmed', async () => {
    const deactivated = await createUser(t.db, { status: 'neaktivan' });
    const res = await login(deactivated.email, DEFAULT_PASSWORD);
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe(said(ACCOUNT.deactivatedUser));
    expect(res.json().message).toContain(said('Korisnik'));
    expect(ACCOUNT.deactivatedUser).not.toBe(ACCOUNT.inactiveUser);
    // A wrong password still answers 'Pogrešna lozinka' (the status tells nothing to a guesser).
    expect((await login(deactivated.email, 'Pogresna123')).json().message).toBe(said(ACCOUNT.wrongPassword));
  });

  it('writes an audit row for a login and for a failed one', async () => {
    const u = await createUser(t.db, { email: 'audit.me@primer.rs' });
    await t.call({ method: 'POST', url: '/api/user/login', payload: { email: u.email, lozinka: DEFAULT_PASSWORD } });
    await t.call({ method: 'POST', url: '/api/user/login', payload: { email: u.email, lozinka: 'Pogresna123' } });
    const rows = await t.db.select().from(auditLogs).where(eq(auditLogs.url, '/api/user/login'));
    const messages = rows.map((r) => r.message);
    expect(messages).toContain('Korisnik audit.me@primer.rs se prijavio.');
    expect(messages).toContain('Neuspešna prijava: audit.me@primer.rs.');
  });
});
