import { ACCOUNT } from '@trasa/domain';
import { desc, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/harness.js';
import { auditLogs, mailOutbox, users } from '../../db/schema.js';
import { createGroup, createUser, DEFAULT_PASSWORD, tokenFor } from '../../seed/factories.js';

const t = useTestApp();

async function lastMailTo(email: string) {
  const [mail] = await t.db.select().from(mailOutbox).where(eq(mailOutbox.to, email)).orderBy(desc(mailOutbox.createdAt)).limit(1);
  return mail;
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

  it('throttles repeated failures per account, even with the right password afterwards', async () => {
    const u = await createUser(t.db);
    for (let i = 0; i < 5; i++) {
      const res = await t.call({
        method: 'POST',
        url: '/api/user/login',
        payload: { email: u.email, lozinka: `Pogresna${i}xx` },
        remoteAddress: `10.0.0.${i}`,
      });
      expect(res.statusCode).toBe(401);
    }
    const blocked = await t.call({
      method: 'POST',
      url: '/api/user/login',
      payload: { email: u.email, lozinka: DEFAULT_PASSWORD },
      remoteAddress: '10.0.1.1',
    });
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().message).toBe(ACCOUNT.throttled);
  });

  it('throttles per IP across accounts', async () => {
    const ip = '10.9.9.9';
    for (let i = 0; i < 30; i++) {
      await t.call({
        method: 'POST',
        url: '/api/user/login',
        payload: { email: `niko${i}@primer.rs`, lozinka: 'Lozinka123' },
        remoteAddress: ip,
      });
    }
    const u = await createUser(t.db);
    const res = await t.call({
      method: 'POST',
      url: '/api/user/login',
      payload: { email: u.email, lozinka: DEFAULT_PASSWORD },
      remoteAddress: ip,
    });
    expect(res.statusCode).toBe(429);
    const other = await t.call({
      method: 'POST',
      url: '/api/user/login',
      payload: { email: u.email, lozinka: DEFAULT_PASSWORD },
      remoteAddress: '10.9.9.10',
    });
    expect(other.statusCode).toBe(200);
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

  it('refuses a taken e-mail and bad input without creating anything', async () => {
    const u = await createUser(t.db);
    const taken = await t.call({
      method: 'POST',
      url: '/api/user/signup',
      payload: { ime: 'A', prezime: 'B', email: u.email.toUpperCase(), lozinka: 'Lozinka123' },
    });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().message).toBe('Unesena E-pošta je zauzeta.');
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
      payload: { email, resetCode, password: 'Nova12345', confirmPassword: 'Nova123456' },
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
      payload: { email, resetCode, password: 'Nova12345', confirmPassword: 'Nova12345' },
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
    const login = await t.call({ method: 'POST', url: '/api/user/login', payload: { email: 'zaboravan@primer.rs', lozinka: 'Nova12345' } });
    expect(login.statusCode).toBe(200);
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
    const forged = `${(await tokenFor(t.ctx, other)).slice(0, -2)}xx`;
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
      payload: { password: 'Pogresna1', newPassword: 'Nova12345', confirmNewPassword: 'Nova12345' },
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
      payload: { password: DEFAULT_PASSWORD, newPassword: 'Nova12345', confirmNewPassword: 'Nova1234' },
    });
    expect(mismatch.json().message).toBe('Lozinke moraju biti identične');
    expect((await userRow(u.id)).passwordHash).toBe(u.passwordHash);

    const ok = await t.call({
      method: 'POST',
      url: '/api/user/change-password',
      token,
      payload: { password: DEFAULT_PASSWORD, newPassword: 'Nova12345', confirmNewPassword: 'Nova12345' },
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
        payload: { password, newPassword: 'Nova12345', confirmNewPassword: 'Nova12345' },
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

  it('changes name and e-mail, refusing an address another account has', async () => {
    const u = await createUser(t.db);
    const other = await createUser(t.db, { email: 'zauzeta@primer.rs' });
    const token = await tokenFor(t.ctx, u);
    const taken = await t.call({
      method: 'POST',
      url: '/api/user/change-info',
      token,
      payload: { ime: 'Ana', prezime: 'Anić', email: 'ZAUZETA@primer.rs' },
    });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().message).toBe('Imejl adresa - pogrešan unos');
    const missing = await t.call({
      method: 'POST',
      url: '/api/user/change-info',
      token,
      payload: { ime: '', prezime: 'Anić', email: 'ana@primer.rs' },
    });
    expect(missing.json().message).toBe('Polje je obavezno');
    const badEmail = await t.call({
      method: 'POST',
      url: '/api/user/change-info',
      token,
      payload: { ime: 'Ana', prezime: 'Anić', email: 'ana' },
    });
    expect(badEmail.json().message).toBe('email nije ispravan');
    expect((await userRow(u.id)).ime).toBe(u.ime);

    const ok = await t.call({
      method: 'POST',
      url: '/api/user/change-info',
      token,
      payload: { ime: 'Ana', prezime: 'Anić', email: 'Ana.Anic@primer.rs' },
    });
    expect(ok.json().message).toBe('Uspešno ste izmenili podatke.');
    expect(await userRow(u.id)).toMatchObject({ ime: 'Ana', prezime: 'Anić', email: 'ana.anic@primer.rs' });
    expect((await userRow(other.id)).email).toBe('zauzeta@primer.rs');
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
      payload: { ime: 'M', prezime: 'N', email: 'odlazim@primer.rs', lozinka: 'Lozinka123' },
    });
    expect(again.statusCode).toBe(201);
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
