import { ACCOUNT } from '@trasa/domain';
import { and, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/harness.js';
import { auditLogs, loginFailures, mailOutbox, revokedTokens, userCodes, users } from '../../db/schema.js';
import { backgroundSettled } from '../../platform/background.js';
import { builtinRoleId } from '../../platform/builtinRoles.js';
import { plainName } from '../../platform/mail.js';
import { configurePasswordWork, passwordWorkStats } from '../../platform/passwords.js';
import { configureSignInGate, THROTTLE } from '../../platform/throttle.js';
import { createGroup, createUser, DEFAULT_PASSWORD, tokenFor } from '../../seed/factories.js';

const t = useTestApp();

// Parallel sign-ins below queue for the hash; on a loaded test machine they may wait long.
beforeAll(() => {
  configurePasswordWork({ maxWaiting: { normal: 50, suspect: 50 }, maxWaitMs: 60_000 });
  configureSignInGate(1000, 1000);
});
afterAll(() => {
  configurePasswordWork();
  configureSignInGate();
});

async function lastMailTo(email: string) {
  await backgroundSettled();
  const [mail] = await t.db.select().from(mailOutbox).where(eq(mailOutbox.to, email)).orderBy(desc(mailOutbox.createdAt)).limit(1);
  return mail;
}

const login = (email: string, lozinka: string, remoteAddress?: string) =>
  t.call({ method: 'POST', url: '/api/user/login', payload: { email, lozinka }, ...(remoteAddress && { remoteAddress }) });

/** The throttle's count under `key` (platform/throttle.ts), 0 when there is none. */
async function failures(key: string): Promise<number> {
  const [row] = await t.db.select({ count: loginFailures.count }).from(loginFailures).where(eq(loginFailures.key, key));
  return row?.count ?? 0;
}

function linkIn(text: string): URL {
  const m = text.match(/https?:\/\/\S+/);
  if (!m) throw new Error(`no link in mail: ${text}`);
  return new URL(m[0]);
}

async function userRow(id: string) {
  const [row] = await t.db.select().from(users).where(eq(users.id, id));
  if (!row) throw new Error('no user');
  return row;
}

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
    expect(unknown.json().message).toContain('Korisnik');
    const wrong = await t.call({ method: 'POST', url: '/api/user/login', payload: { email: u.email, lozinka: 'Pogresna123' } });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().message).toBe('Pogrešna lozinka');
    const inactive = await createUser(t.db, { status: 'neaktivan' });
    const res = await t.call({ method: 'POST', url: '/api/user/login', payload: { email: inactive.email, lozinka: DEFAULT_PASSWORD } });
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toContain('Korisnik');
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
    expect(blocked.json().message).toBe(ACCOUNT.throttled);
    // … and only for that account.
    const v = await createUser(t.db);
    expect((await login(v.email, DEFAULT_PASSWORD, '10.0.0.1')).statusCode).toBe(200);
  });

  it('counts an attempt before hashing: 40 parallel guesses at one account, at most 5 are checked', async () => {
    const u = await createUser(t.db);
    const before = passwordWorkStats().hashed;
    const answers = await Promise.all(Array.from({ length: 40 }, (_, i) => login(u.email, `Pogresna${i}xx`, '10.0.2.1')));
    const wrong = answers.filter((r) => r.statusCode === 401 && r.json().message === ACCOUNT.wrongPassword);
    const throttled = answers.filter((r) => r.statusCode === 429);
    expect(wrong).toHaveLength(5);
    expect(throttled).toHaveLength(35);
    expect(passwordWorkStats().hashed - before).toBe(5);
  });

  it('spends no hashing on an unknown account (its answer already says so)', async () => {
    const before = passwordWorkStats().hashed;
    const res = await login('niko.ovde@primer.rs', 'Lozinka123', '10.0.3.1');
    expect(res.statusCode).toBe(401);
    expect(res.json().message).toBe(ACCOUNT.unknownUser);
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
      expect(busy[0]?.json().message).toBe(ACCOUNT.busy);
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
    expect(after.json().message).toBe(ACCOUNT.throttled);
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
      expect(shed.json().message).toBe(ACCOUNT.busy);
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
    expect(res.json().message).toBe(ACCOUNT.deactivatedUser);
    expect(res.json().message).toContain('Korisnik');
    expect(ACCOUNT.deactivatedUser).not.toBe(ACCOUNT.inactiveUser);
    // A wrong password still answers 'Pogrešna lozinka' (the status tells nothing to a guesser).
    expect((await login(deactivated.email, 'Pogresna123')).json().message).toBe(ACCOUNT.wrongPassword);
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

describe('sign-up and activation', () => {
  it('creates an inactive guest, mails a single-use link that activates it', async () => {
    const res = await t.call({
      method: 'POST',
      url: '/api/user/signup',
      payload: { ime: ' Jelena ', prezime: 'Jović', email: 'Jelena.Jovic@primer.rs', lozinka: 'NovaLozinka1' },
    });
    expect(res.statusCode).toBe(201);
    expect(res.json().message).toBe('На ваш мејл је послат активациони линк.');
    const [created] = await t.db.select().from(users).where(eq(users.email, 'jelena.jovic@primer.rs'));
    expect(created).toMatchObject({ ime: 'Jelena', emailPotvrdjen: false, status: 'neaktivan', groupId: null });

    const before = await t.call({
      method: 'POST',
      url: '/api/user/login',
      payload: { email: 'jelena.jovic@primer.rs', lozinka: 'NovaLozinka1' },
    });
    expect(before.statusCode).toBe(403);

    const mail = await lastMailTo('jelena.jovic@primer.rs');
    expect(mail?.status).toBe('outbox');
    const link = linkIn(mail?.text ?? '');
    expect(link.origin).toBe('http://trasa.test');
    const wrongCode = await t.call({
      method: 'GET',
      url: `${link.pathname}?email=${encodeURIComponent('jelena.jovic@primer.rs')}&code=nijeto`,
    });
    expect(wrongCode.headers.location).toBe('/?aktivacija=neuspesna');
    const follow = await t.call({ method: 'GET', url: link.pathname + link.search });
    expect(follow.statusCode).toBe(303);
    expect(follow.headers.location).toBe('/?aktivacija=uspesna');
    const again = await t.call({ method: 'GET', url: link.pathname + link.search });
    expect(again.headers.location).toBe('/?aktivacija=neuspesna');

    const login = await t.call({
      method: 'POST',
      url: '/api/user/login',
      payload: { email: 'jelena.jovic@primer.rs', lozinka: 'NovaLozinka1' },
    });
    expect(login.statusCode).toBe(200);
    expect(login.json().user).toMatchObject({ rola: 'Gost', grupa: null, emailPotvrdjen: true, status: 'aktivan' });
  });

  it('answers a taken address like a new one and mails its owner instead (no enumeration)', async () => {
    const u = await createUser(t.db, { email: 'vec.postoji@primer.rs' });
    const taken = await t.call({
      method: 'POST',
      url: '/api/user/signup',
      payload: { ime: 'A', prezime: 'B', email: 'Vec.Postoji@primer.rs', lozinka: 'Kamen-Most-42' },
    });
    const fresh = await t.call({
      method: 'POST',
      url: '/api/user/signup',
      payload: { ime: 'A', prezime: 'B', email: 'sasvim.nov@primer.rs', lozinka: 'Kamen-Most-42' },
    });
    expect(taken.statusCode).toBe(201);
    expect(taken.json()).toEqual(fresh.json());
    expect(taken.json().message).toBe(ACCOUNT.signupSuccess);
    expect(await userRow(u.id)).toMatchObject({ passwordHash: u.passwordHash, ime: u.ime });
    const notice = await lastMailTo('vec.postoji@primer.rs');
    expect(notice?.subject).toBe('Траса — покушај регистрације');
    expect(notice?.text).not.toMatch(/activate|code=/);
  });

  it('puts no sign-up name into mail to an unconfirmed address, and no link-like text anywhere', async () => {
    const names = ['Visit http://evil.example/win', 'www.evil.example', 'evil.example/x'];
    for (const [i, ime] of names.entries()) {
      const email = `napad.${i}@primer.rs`;
      const res = await t.call({
        method: 'POST',
        url: '/api/user/signup',
        payload: { ime, prezime: 'Napadač', email, lozinka: 'Kamen-Most-42' },
        // An address of its own: sign-up and reset requests are limited per address.
        remoteAddress: '203.0.113.60',
      });
      expect(res.statusCode).toBe(201);
      const activation = await lastMailTo(email);
      expect(activation?.subject).toBe('Траса — активација налога');
      expect(activation?.text.startsWith('Поштовани/а,\n')).toBe(true);
      expect(activation?.text).not.toContain('evil');
      expect(activation?.text).not.toContain('Napadač');
      // A reset requested for the unconfirmed account does not greet the sign-up name either.
      await t.call({ method: 'POST', url: '/api/user/reset-password', payload: { email }, remoteAddress: '203.0.113.61' });
      const reset = await lastMailTo(email);
      expect(reset?.subject).toBe('Траса — промена лозинке');
      expect(reset?.text).not.toContain('evil');
    }
    // Names mail does show (a confirmed address, an account made by staff) come as plain text.
    for (const ime of [...names, 'Pišite na info@evil.example', 'evil．example', 'javascript:alert(1)']) {
      const shown = plainName(ime);
      expect(shown, ime).not.toMatch(/[a-z][a-z0-9+.-]*:/i);
      expect(shown, ime).not.toMatch(/www\.\S/i);
      expect(shown, ime).not.toMatch(/[\p{L}\p{N}][.．@/][\p{L}\p{N}]/u);
    }
    expect(plainName('Visit http://evil.example/win')).toBe('Visit evil. example/ win');
    for (const ime of ['Ана', 'J. R. Tolkin', 'Marić-Perić', 'Đorđe']) expect(plainName(ime)).toBe(ime);
    const confirmed = await createUser(t.db, { email: 'potvrdjen.napad@primer.rs', ime: 'www.evil.example' });
    await t.call({ method: 'POST', url: '/api/user/reset-password', payload: { email: confirmed.email }, remoteAddress: '203.0.113.61' });
    expect((await lastMailTo(confirmed.email))?.text.startsWith('Поштовани/а www. evil. example,\n')).toBe(true);
  });

  it('refuses common passwords and ones built on the name or address, on the server', async () => {
    const cases: [object, string][] = [
      [{ ime: 'Petar', prezime: 'Perić', email: 'pp@primer.rs', lozinka: 'password' }, ACCOUNT.passwordTooCommon],
      [{ ime: 'Petar', prezime: 'Perić', email: 'pp@primer.rs', lozinka: 'aaaaaaaa' }, ACCOUNT.passwordTooCommon],
      [{ ime: 'Petar', prezime: 'Perić', email: 'pp@primer.rs', lozinka: 'Lozinka123' }, ACCOUNT.passwordTooCommon],
      [{ ime: 'Petar', prezime: 'Perić', email: 'pp@primer.rs', lozinka: 'šifra123' }, ACCOUNT.passwordTooCommon],
      [{ ime: 'Petar', prezime: 'Perić', email: 'pp@primer.rs', lozinka: 'Srbija2025' }, ACCOUNT.passwordTooCommon],
      [{ ime: 'Petar', prezime: 'Perić', email: 'pp@primer.rs', lozinka: 'PetarPetrovic1' }, ACCOUNT.passwordPersonal],
      [{ ime: 'Ivana', prezime: 'Perić', email: 'kraljica.neba@primer.rs', lozinka: 'Kraljica.neba9' }, ACCOUNT.passwordPersonal],
    ];
    for (const [payload, message] of cases) {
      const res = await t.call({ method: 'POST', url: '/api/user/signup', payload });
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json()).toEqual({ message, errors: { lozinka: message } });
    }
    expect(await t.db.select().from(users).where(eq(users.email, 'pp@primer.rs'))).toHaveLength(0);
  });

  it('refuses bad input without creating anything', async () => {
    const bad: [object, string][] = [
      [{ prezime: 'B', email: 'x@y.rs', lozinka: 'Lozinka123' }, 'Обавезно поље'],
      [{ ime: '   ', prezime: 'B', email: 'x@y.rs', lozinka: 'Lozinka123' }, 'Обавезно поље'],
      [{ ime: 'A', prezime: 'B', email: 'x@y', lozinka: 'Lozinka123' }, 'Погрешна имејл адреса'],
      [{ ime: 'A', prezime: 'B', email: 'x@y.rs', lozinka: '1234567' }, 'Лозинка мора имати минимум 8 карактера'],
      [{ ime: 'A', prezime: 'B', email: 'x@y.rs', lozinka: '12345678' }, ACCOUNT.passwordNeedsLatin],
      [{ ime: 'A'.repeat(101), prezime: 'B', email: 'x@y.rs', lozinka: 'Lozinka123' }, ACCOUNT.tooLong],
    ];
    for (const [payload, message] of bad) {
      const res = await t.call({ method: 'POST', url: '/api/user/signup', payload });
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().message).toBe(message);
    }
    const none = await t.db.select().from(users).where(eq(users.email, 'x@y.rs'));
    expect(none).toHaveLength(0);
  });
});

describe('password reset', () => {
  it('answers the same whether or not the address exists and resets with a single-use link', async () => {
    const u = await createUser(t.db, { email: 'zaboravan@primer.rs' });
    const token = await tokenFor(t.ctx, u);
    const known = await t.call({ method: 'POST', url: '/api/user/reset-password', payload: { email: 'zaboravan@primer.rs' } });
    const unknown = await t.call({ method: 'POST', url: '/api/user/reset-password', payload: { email: 'niko.nije@primer.rs' } });
    expect(known.statusCode).toBe(200);
    expect(unknown.statusCode).toBe(200);
    expect(unknown.json()).toEqual(known.json());
    expect(await lastMailTo('niko.nije@primer.rs')).toBeUndefined();

    const link = linkIn((await lastMailTo('zaboravan@primer.rs'))?.text ?? '');
    expect(link.pathname).toBe('/reset-lozninke');
    const email = link.searchParams.get('email');
    const resetCode = link.searchParams.get('code');
    const mismatch = await t.call({
      method: 'POST',
      url: '/api/user/reset-password',
      payload: { email, resetCode, password: 'Zelena12345', confirmPassword: 'Zelena123456' },
    });
    expect(mismatch.statusCode).toBe(400);
    expect(mismatch.json().message).toBe('лозинке морају да се подударају');
    const noLatin = await t.call({
      method: 'POST',
      url: '/api/user/reset-password',
      payload: { email, resetCode, password: '123456789', confirmPassword: '123456789' },
    });
    expect(noLatin.json().message).toBe(ACCOUNT.passwordNeedsLatin);
    const empty = await t.call({
      method: 'POST',
      url: '/api/user/reset-password',
      payload: { email, resetCode, password: '', confirmPassword: '' },
    });
    expect(empty.json().message).toBe('Није наведена лозинка.');

    const ok = await t.call({
      method: 'POST',
      url: '/api/user/reset-password',
      payload: { email, resetCode, password: 'Zelena12345', confirmPassword: 'Zelena12345' },
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().message).toBe('Успешна промена лозинке');
    const reused = await t.call({
      method: 'POST',
      url: '/api/user/reset-password',
      payload: { email, resetCode, password: 'Druga12345', confirmPassword: 'Druga12345' },
    });
    expect(reused.statusCode).toBe(400);

    const old = await t.call({ method: 'GET', url: '/api/user/my-profile', token });
    expect(old.statusCode).toBe(401);
    const login = await t.call({
      method: 'POST',
      url: '/api/user/login',
      payload: { email: 'zaboravan@primer.rs', lozinka: 'Zelena12345' },
    });
    expect(login.statusCode).toBe(200);
  });

  it('answers before any mail work, so an existing address takes no longer than an unknown one', async () => {
    const u = await createUser(t.db, { email: 'spori.mejl@primer.rs' });
    const send = t.ctx.mailer.send;
    let release: () => void = () => undefined;
    const gate = new Promise<void>((r) => {
      release = r;
    });
    t.ctx.mailer.send = async (mail) => {
      await gate;
      return send(mail);
    };
    try {
      const res = await t.call({ method: 'POST', url: '/api/user/reset-password', payload: { email: u.email } });
      // Answered while the mail is still held.
      expect(res.statusCode).toBe(200);
      expect(res.json().message).toBe(ACCOUNT.forgotSent);
    } finally {
      release();
      t.ctx.mailer.send = send;
    }
    expect((await lastMailTo(u.email))?.subject).toBe('Траса — промена лозинке');
  });

  it('refuses a weak new password without using up the link', async () => {
    const u = await createUser(t.db, { email: 'slaba.lozinka@primer.rs', ime: 'Zoran' });
    await t.call({ method: 'POST', url: '/api/user/reset-password', payload: { email: u.email } });
    const link = linkIn((await lastMailTo(u.email))?.text ?? '');
    const body = (password: string) => ({
      email: link.searchParams.get('email'),
      resetCode: link.searchParams.get('code'),
      password,
      confirmPassword: password,
    });
    const common = await t.call({ method: 'POST', url: '/api/user/reset-password', payload: body('iloveyou1') });
    expect(common.statusCode).toBe(400);
    expect(common.json()).toEqual({ message: ACCOUNT.passwordTooCommon, errors: { password: ACCOUNT.passwordTooCommon } });
    const personal = await t.call({ method: 'POST', url: '/api/user/reset-password', payload: body('Zoran-1975') });
    expect(personal.json().message).toBe(ACCOUNT.passwordPersonal);
    const ok = await t.call({ method: 'POST', url: '/api/user/reset-password', payload: body('Ribnjak-Zeleni-7') });
    expect(ok.statusCode).toBe(200);
  });

  it('rejects an invalid e-mail with the spec text', async () => {
    const res = await t.call({ method: 'POST', url: '/api/user/reset-password', payload: { email: 'nije' } });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('Имејл није валидан.');
  });
});

describe('my account', () => {
  it('needs a valid token', async () => {
    expect((await t.call({ method: 'GET', url: '/api/user/my-profile' })).statusCode).toBe(401);
    expect((await t.call({ method: 'GET', url: '/api/user/my-profile', token: 'abc.def.ghi' })).statusCode).toBe(401);
    const other = await createUser(t.db);
    // A changed signature (a character in its middle: the last one also carries padding bits, so
    // changing it may decode to the same bytes).
    const real = await tokenFor(t.ctx, other);
    const at = real.lastIndexOf('.') + 5;
    const forged = `${real.slice(0, at)}${real[at] === 'A' ? 'B' : 'A'}${real.slice(at + 1)}`;
    expect((await t.call({ method: 'GET', url: '/api/user/my-profile', token: forged })).statusCode).toBe(401);
    const inactive = await createUser(t.db, { status: 'neaktivan' });
    expect((await t.call({ method: 'GET', url: '/api/user/my-profile', token: await tokenFor(t.ctx, inactive) })).statusCode).toBe(401);
  });

  it('changes the password, revokes older tokens and returns a fresh one', async () => {
    const u = await createUser(t.db);
    const token = await tokenFor(t.ctx, u);
    const wrong = await t.call({
      method: 'POST',
      url: '/api/user/change-password',
      token,
      payload: { password: 'Pogresna1', newPassword: 'Zelena12345', confirmNewPassword: 'Zelena12345' },
    });
    expect(wrong.statusCode).toBe(400);
    const short = await t.call({
      method: 'POST',
      url: '/api/user/change-password',
      token,
      payload: { password: DEFAULT_PASSWORD, newPassword: 'Ab1', confirmNewPassword: 'Ab1' },
    });
    expect(short.json().message).toBe('Lozinka mora imati 8 ili više karaktera.');
    const mismatch = await t.call({
      method: 'POST',
      url: '/api/user/change-password',
      token,
      payload: { password: DEFAULT_PASSWORD, newPassword: 'Zelena12345', confirmNewPassword: 'Zelena1234' },
    });
    expect(mismatch.json().message).toBe('Lozinke moraju biti identične');
    expect((await userRow(u.id)).passwordHash).toBe(u.passwordHash);

    const ok = await t.call({
      method: 'POST',
      url: '/api/user/change-password',
      token,
      payload: { password: DEFAULT_PASSWORD, newPassword: 'Zelena12345', confirmNewPassword: 'Zelena12345' },
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().message).toBe('Uspešno ste izmenili lozinku.');
    expect((await t.call({ method: 'GET', url: '/api/user/my-profile', token })).statusCode).toBe(401);
    expect((await t.call({ method: 'GET', url: '/api/user/my-profile', token: ok.json().token })).statusCode).toBe(200);
  });

  it('throttles guessing the current password like failed sign-ins', async () => {
    const u = await createUser(t.db);
    const token = await tokenFor(t.ctx, u);
    const attempt = (password: string) =>
      t.call({
        method: 'POST',
        url: '/api/user/change-password',
        token,
        payload: { password, newPassword: 'Zelena12345', confirmNewPassword: 'Zelena12345' },
      });
    for (let i = 0; i < 5; i++) expect((await attempt(`Pogresna${i}`)).statusCode).toBe(400);
    const blocked = await attempt(DEFAULT_PASSWORD);
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().message).toBe(ACCOUNT.passwordThrottled);
    expect((await userRow(u.id)).passwordHash).toBe(u.passwordHash);
    // The account's sign-in is held too.
    const login = await t.call({ method: 'POST', url: '/api/user/login', payload: { email: u.email, lozinka: DEFAULT_PASSWORD } });
    expect(login.statusCode).toBe(429);
  });

  it('changes the name at once; a new e-mail needs the current password and a confirmation from the new address', async () => {
    const u = await createUser(t.db, { email: 'stara.adresa@primer.rs' });
    const other = await createUser(t.db, { email: 'zauzeta@primer.rs' });
    const token = await tokenFor(t.ctx, u);
    const info = (payload: object) => t.call({ method: 'POST', url: '/api/user/change-info', token, payload });

    const missing = await info({ ime: '', prezime: 'Anić', email: 'stara.adresa@primer.rs' });
    expect(missing.json().message).toBe('Polje je obavezno');
    const badEmail = await info({ ime: 'Ana', prezime: 'Anić', email: 'ana' });
    expect(badEmail.json().message).toBe('email nije ispravan');

    // The name alone: no password needed, effective at once.
    const names = await info({ ime: 'Ana', prezime: 'Anić', email: 'Stara.Adresa@primer.rs' });
    expect(names.json().message).toBe(ACCOUNT.infoChanged);
    expect(await userRow(u.id)).toMatchObject({ ime: 'Ana', prezime: 'Anić', email: 'stara.adresa@primer.rs' });

    // A new e-mail without the current password, or with a wrong one, is refused on the password field.
    const noPassword = await info({ ime: 'Ana', prezime: 'Anić', email: 'nova.adresa@primer.rs' });
    expect(noPassword.statusCode).toBe(400);
    expect(noPassword.json()).toEqual({ message: ACCOUNT.currentPasswordForEmail, errors: { lozinka: ACCOUNT.currentPasswordForEmail } });
    const wrong = await info({ ime: 'Ana', prezime: 'Anić', email: 'nova.adresa@primer.rs', lozinka: 'Pogresna123' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toEqual({ message: ACCOUNT.wrongCurrentPassword, errors: { lozinka: ACCOUNT.wrongCurrentPassword } });
    const ok = await info({ ime: 'Ana', prezime: 'Anić', email: 'Nova.Adresa@primer.rs', lozinka: DEFAULT_PASSWORD });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().message).toBe(ACCOUNT.emailChangePending);
    // Not yet changed: the address must confirm first.
    expect((await userRow(u.id)).email).toBe('stara.adresa@primer.rs');
    const notice = await lastMailTo('stara.adresa@primer.rs');
    expect(notice?.subject).toBe('Траса — захтев за промену имејл адресе');
    expect(notice?.text).toContain('nova.adresa@primer.rs');
    expect(notice?.text).not.toContain('code=');
    const [code] = await t.db
      .select()
      .from(userCodes)
      .where(and(eq(userCodes.userId, u.id), eq(userCodes.purpose, 'email-change')));
    expect(code).toMatchObject({ payload: 'nova.adresa@primer.rs', usedAt: null });
    expect(code?.expiresAt.getTime()).toBeGreaterThan(Date.now() + 23 * 3600_000);

    const link = linkIn((await lastMailTo('nova.adresa@primer.rs'))?.text ?? '');
    expect(link.origin).toBe('http://trasa.test');
    expect(link.pathname).toBe('/api/user/confirm-email');
    const forged = await t.call({ method: 'GET', url: '/api/user/confirm-email?code=nijeto' });
    expect(forged.statusCode).toBe(303);
    expect(forged.headers.location).toBe('/?imejl=neuspesno');
    const follow = await t.call({ method: 'GET', url: link.pathname + link.search });
    expect(follow.statusCode).toBe(303);
    expect(follow.headers.location).toBe('/?imejl=potvrdjen');
    expect(await userRow(u.id)).toMatchObject({ email: 'nova.adresa@primer.rs', emailPotvrdjen: true });
    expect((await t.call({ method: 'GET', url: link.pathname + link.search })).headers.location).toBe('/?imejl=neuspesno');
    // Every session ended; the new address signs in.
    expect((await t.call({ method: 'GET', url: '/api/user/my-profile', token })).statusCode).toBe(401);
    expect((await login('nova.adresa@primer.rs', DEFAULT_PASSWORD)).statusCode).toBe(200);
    expect((await login('stara.adresa@primer.rs', DEFAULT_PASSWORD)).statusCode).toBe(401);
    expect((await userRow(other.id)).email).toBe('zauzeta@primer.rs');
    // The audit row keeps the URL without the code.
    const rows = await t.db
      .select()
      .from(auditLogs)
      .where(eq(auditLogs.message, `Korisnik stara.adresa@primer.rs je potvrdio novu imejl adresu nova.adresa@primer.rs.`));
    expect(rows[0]?.url).toBe('/api/user/confirm-email?code=[redacted]');
  });

  it('counts wrong current passwords of an e-mail change like failed sign-ins', async () => {
    const u = await createUser(t.db);
    const token = await tokenFor(t.ctx, u);
    const attempt = (lozinka: string) =>
      t.call({
        method: 'POST',
        url: '/api/user/change-info',
        token,
        payload: { ime: 'A', prezime: 'B', email: 'drugi@primer.rs', lozinka },
      });
    for (let i = 0; i < 5; i++) expect((await attempt(`Pogresna${i}`)).statusCode).toBe(400);
    const blocked = await attempt(DEFAULT_PASSWORD);
    expect(blocked.statusCode).toBe(429);
    expect((await userRow(u.id)).email).toBe(u.email);
  });

  it('drops a pending e-mail change when the password changes', async () => {
    const u = await createUser(t.db);
    const token = await tokenFor(t.ctx, u);
    await t.call({
      method: 'POST',
      url: '/api/user/change-info',
      token,
      payload: { ime: u.ime, prezime: u.prezime, email: 'otmicar@primer.rs', lozinka: DEFAULT_PASSWORD },
    });
    const link = linkIn((await lastMailTo('otmicar@primer.rs'))?.text ?? '');
    const changed = await t.call({
      method: 'POST',
      url: '/api/user/change-password',
      token,
      payload: { password: DEFAULT_PASSWORD, newPassword: 'Vratio-Sam-77', confirmNewPassword: 'Vratio-Sam-77' },
    });
    expect(changed.statusCode).toBe(200);
    expect((await t.call({ method: 'GET', url: link.pathname + link.search })).headers.location).toBe('/?imejl=neuspesno');
    expect((await userRow(u.id)).email).toBe(u.email);
  });

  it('saves table layouts, replacing one of the same name, and returns them with the profile', async () => {
    const u = await createUser(t.db);
    const token = await tokenFor(t.ctx, u);
    const first = { imeTabele: 'korisnici', tabela: { columnOrder: ['ime', 'email'] }, headers: ['ime', 'email'] };
    expect((await t.call({ method: 'POST', url: '/api/user/edit-columns', token, payload: first })).json().message).toBe(
      'Успешно сте сачували табелу.',
    );
    await t.call({ method: 'POST', url: '/api/user/edit-columns', token, payload: { ...first, headers: ['email'] } });
    await t.call({ method: 'POST', url: '/api/user/edit-columns', token, payload: { imeTabele: 'grupe', tabela: [], headers: [] } });
    const profile = (await t.call({ method: 'GET', url: '/api/user/my-profile', token })).json();
    expect(profile.user.tabela).toEqual([
      { imeTabele: 'korisnici', tabela: { columnOrder: ['ime', 'email'] }, headers: ['email'] },
      { imeTabele: 'grupe', tabela: [], headers: [] },
    ]);
    const bad = await t.call({
      method: 'POST',
      url: '/api/user/edit-columns',
      token,
      payload: { imeTabele: '', tabela: {}, headers: 'x' },
    });
    expect(bad.statusCode).toBe(400);
  });

  it('saves the script (Ћирилица/Latinica) per user, guests too, and returns it with the profile', async () => {
    const guest = await createUser(t.db, { role: 'Gost' });
    const token = await tokenFor(t.ctx, guest);
    expect((await t.call({ method: 'GET', url: '/api/user/my-profile', token })).json().user.pismo).toBe('cyr');
    const saved = await t.call({ method: 'POST', url: '/api/user/edit-script', token, payload: { pismo: 'lat' } });
    expect(saved.statusCode).toBe(200);
    expect(saved.json().message).toBe(ACCOUNT.scriptSaved);
    expect((await t.call({ method: 'GET', url: '/api/user/my-profile', token })).json().user.pismo).toBe('lat');
    expect((await userRow(guest.id)).pismo).toBe('lat');
    // Someone else's choice is their own.
    const other = await createUser(t.db);
    const otherToken = await tokenFor(t.ctx, other);
    expect((await t.call({ method: 'GET', url: '/api/user/my-profile', token: otherToken })).json().user.pismo).toBe('cyr');

    for (const payload of [{ pismo: 'LAT' }, { pismo: 'en' }, { pismo: 1 }, {}, { pismo: null }]) {
      const bad = await t.call({ method: 'POST', url: '/api/user/edit-script', token, payload });
      expect(bad.statusCode, JSON.stringify(payload)).toBe(400);
      expect(bad.json().message).toMatch(/[\u0400-\u04FF]|Neispravan/);
    }
    const wrong = await t.call({ method: 'POST', url: '/api/user/edit-script', token, payload: { pismo: 'en' } });
    expect(wrong.json().errors?.pismo ?? wrong.json().message).toBe(ACCOUNT.scriptInvalid);
    expect((await userRow(guest.id)).pismo).toBe('lat');
    expect((await t.call({ method: 'POST', url: '/api/user/edit-script', payload: { pismo: 'cyr' } })).statusCode).toBe(401);

    await t.call({ method: 'POST', url: '/api/user/edit-script', token, payload: { pismo: 'cyr' } });
    expect((await userRow(guest.id)).pismo).toBe('cyr');
  });

  it('deletes one own account by anonymising it; the last Admin cannot', async () => {
    const u = await createUser(t.db, { email: 'odlazim@primer.rs', ime: 'Milan' });
    const token = await tokenFor(t.ctx, u);
    const res = await t.call({ method: 'DELETE', url: '/api/user/my-profile', token });
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe('Nalog uspešno obrisan.');
    const row = await userRow(u.id);
    expect(row.email).not.toContain('odlazim');
    expect(row.ime).not.toBe('Milan');
    expect(row.status).toBe('neaktivan');
    expect(row.deletedAt).not.toBeNull();
    expect((await t.call({ method: 'GET', url: '/api/user/my-profile', token })).statusCode).toBe(401);
    const login = await t.call({
      method: 'POST',
      url: '/api/user/login',
      payload: { email: 'odlazim@primer.rs', lozinka: DEFAULT_PASSWORD },
    });
    expect(login.statusCode).toBe(401);
    // The address is free again.
    const again = await t.call({
      method: 'POST',
      url: '/api/user/signup',
      payload: { ime: 'M', prezime: 'N', email: 'odlazim@primer.rs', lozinka: 'Odlazak-2030' },
    });
    expect(again.statusCode).toBe(201);
  });

  it('answers a taken address exactly as a free one; the address’s owner is told, nothing of theirs changes', async () => {
    const u = await createUser(t.db, { email: 'menja.adresu@primer.rs', ime: 'Mira' });
    const owner = await createUser(t.db, { email: 'zauzeta.tudja@primer.rs', ime: 'Vesna' });
    const token = await tokenFor(t.ctx, u);
    const info = (email: string) =>
      t.call({
        method: 'POST',
        url: '/api/user/change-info',
        token,
        payload: { ime: 'Mira', prezime: 'Mirić', email, lozinka: DEFAULT_PASSWORD },
      });
    const free = await info('slobodna.adresa@primer.rs');
    const taken = await info('Zauzeta.Tudja@primer.rs');
    expect(taken.statusCode).toBe(free.statusCode);
    expect(taken.statusCode).toBe(200);
    expect(taken.body).toBe(free.body);
    expect(taken.json()).toEqual({ message: ACCOUNT.emailChangePending });
    // The owner is told; no link is issued for their address, and the earlier request is replaced.
    const warning = await lastMailTo('zauzeta.tudja@primer.rs');
    expect(warning?.subject).toBe('Траса — покушај употребе ваше имејл адресе');
    expect(warning?.text).not.toContain('code=');
    expect(warning?.text).not.toContain('Mira');
    expect(
      await t.db
        .select()
        .from(userCodes)
        .where(and(eq(userCodes.userId, u.id), eq(userCodes.purpose, 'email-change'))),
    ).toEqual([]);
    // The caller's old address gets the same notice either way.
    const notice = await lastMailTo('menja.adresu@primer.rs');
    expect(notice?.subject).toBe('Траса — захтев за промену имејл адресе');
    expect(notice?.text).toContain('zauzeta.tudja@primer.rs');
    expect(await userRow(u.id)).toMatchObject({ email: 'menja.adresu@primer.rs', prezime: 'Mirić' });
    expect(await userRow(owner.id)).toMatchObject({ email: 'zauzeta.tudja@primer.rs', ime: 'Vesna', passwordHash: owner.passwordHash });
    // The audit rows read alike.
    const logs = await t.db.select({ message: auditLogs.message }).from(auditLogs).where(eq(auditLogs.userId, u.id));
    expect(logs.map((l) => l.message)).toEqual(
      expect.arrayContaining([
        'Korisnik menja.adresu@primer.rs je izmenio svoje podatke i zatražio promenu imejl adrese u slobodna.adresa@primer.rs.',
        'Korisnik menja.adresu@primer.rs je izmenio svoje podatke i zatražio promenu imejl adrese u zauzeta.tudja@primer.rs.',
      ]),
    );
  });

  it('keeps the last active Admin', async () => {
    // This file's database has no Admin but the one made here; a second one can leave, the last cannot.
    const a1 = await createUser(t.db, { role: 'Admin' });
    const a2 = await createUser(t.db, { role: 'Admin' });
    expect((await t.call({ method: 'DELETE', url: '/api/user/my-profile', token: await tokenFor(t.ctx, a1) })).statusCode).toBe(200);
    const last = await t.call({ method: 'DELETE', url: '/api/user/my-profile', token: await tokenFor(t.ctx, a2) });
    expect(last.statusCode).toBe(409);
    expect(last.json().message).toBe(ACCOUNT.lastAdmin);
    expect((await userRow(a2.id)).deletedAt).toBeNull();
  });
});

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
    expect(change.json()).toEqual({ message: ACCOUNT.passwordPersonal, errors: { newPassword: ACCOUNT.passwordPersonal } });
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
    expect(created.json()).toEqual({ message: ACCOUNT.passwordTooCommon, errors: { lozinka: ACCOUNT.passwordTooCommon } });
    const edited = await t.call({
      method: 'PATCH',
      url: `/api/user/single/${u.id}`,
      token: adminToken,
      payload: { ...form, email: u.email, groupId: null, grupa: undefined, lozinka: 'Password1', potvrdaLozinke: 'Password1' },
    });
    expect(edited.statusCode).toBe(400);
    expect(edited.json().message).toBe(ACCOUNT.passwordTooCommon);
  });
});

describe('sign-out', () => {
  it('revokes the token it is called with; other sessions go on', async () => {
    const u = await createUser(t.db);
    const first = (await login(u.email, DEFAULT_PASSWORD)).json().token as string;
    const second = (await login(u.email, DEFAULT_PASSWORD)).json().token as string;
    const out = await t.call({ method: 'POST', url: '/api/user/logout', token: first });
    expect(out.statusCode).toBe(200);
    expect(out.json().message).toBe(ACCOUNT.loggedOut);
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
    expect(out.json().message).toBe(ACCOUNT.loggedOutEverywhere);
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

describe('a new activation link from the login screen', () => {
  const signup = (email: string) =>
    t.call({ method: 'POST', url: '/api/user/signup', payload: { ime: 'Zorica', prezime: 'Z', email, lozinka: 'Jorgovan-77' } });
  const resend = (email: string) => t.call({ method: 'POST', url: '/api/user/resend-activation', payload: { email } });

  it('replaces an expired link; the answer is the same for any address', async () => {
    await signup('zakasnela@primer.rs');
    const stale = linkIn((await lastMailTo('zakasnela@primer.rs'))?.text ?? '');
    await t.db
      .update(userCodes)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(userCodes.purpose, 'activation'));
    expect((await t.call({ method: 'GET', url: stale.pathname + stale.search })).headers.location).toBe('/?aktivacija=neuspesna');

    // The unconfirmed account is told to confirm (the login page then offers the new link).
    const before = await login('zakasnela@primer.rs', 'Jorgovan-77');
    expect(before.statusCode).toBe(403);
    expect(before.json().message).toBe(ACCOUNT.inactiveUser);

    const active = await createUser(t.db, { email: 'aktivna@primer.rs' });
    const answers = [await resend('zakasnela@primer.rs'), await resend('aktivna@primer.rs'), await resend('niko.nigde@primer.rs')];
    for (const res of answers) {
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ message: ACCOUNT.resendActivationSent });
    }
    await backgroundSettled();
    expect(await lastMailTo('niko.nigde@primer.rs')).toBeUndefined();
    expect(await lastMailTo(active.email)).toBeUndefined();
    const fresh = linkIn((await lastMailTo('zakasnela@primer.rs'))?.text ?? '');
    expect(fresh.search).not.toBe(stale.search);
    expect((await t.call({ method: 'GET', url: fresh.pathname + fresh.search })).headers.location).toBe('/?aktivacija=uspesna');
    expect((await login('zakasnela@primer.rs', 'Jorgovan-77')).statusCode).toBe(200);
  });

  it('sends nothing to a deactivated account', async () => {
    const u = await createUser(t.db, { status: 'neaktivan', email: 'deaktiviran@primer.rs' });
    expect((await resend(u.email)).statusCode).toBe(200);
    expect(await lastMailTo(u.email)).toBeUndefined();
  });

  it('validates the address', async () => {
    const res = await resend('nije-adresa');
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(ACCOUNT.invalidEmail);
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
