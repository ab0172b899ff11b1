import { ACCOUNT, toScript } from '@trasa/domain';
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { said } from '../../../test/harness.js';
import { auditLogs, userCodes } from '../../db/schema.js';
import { createUser, DEFAULT_PASSWORD, tokenFor } from '../../seed/factories.js';
import { lastMailTo, linkIn, login, setupAccount, t, userRow } from './accountSetup.js';

setupAccount();

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
    expect(short.json().message).toBe(said('Lozinka mora imati 8 ili više karaktera.'));
    const mismatch = await t.call({
      method: 'POST',
      url: '/api/user/change-password',
      token,
      payload: { password: DEFAULT_PASSWORD, newPassword: 'Zelena12345', confirmNewPassword: 'Zelena1234' },
    });
    expect(mismatch.json().message).toBe(said('Lozinke moraju biti identične'));
    expect((await userRow(u.id)).passwordHash).toBe(u.passwordHash);

    const ok = await t.call({
      method: 'POST',
      url: '/api/user/change-password',
      token,
      payload: { password: DEFAULT_PASSWORD, newPassword: 'Zelena12345', confirmNewPassword: 'Zelena12345' },
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().message).toBe(said('Uspešno ste izmenili lozinku.'));
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
    expect(blocked.json().message).toBe(said(ACCOUNT.passwordThrottled));
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
    expect(missing.json().message).toBe(said('Polje je obavezno'));
    const badEmail = await info({ ime: 'Ana', prezime: 'Anić', email: 'ana' });
    expect(badEmail.json().message).toBe(said('email nije ispravan'));

    // The name alone: no password needed, effective at once.
    const names = await info({ ime: 'Ana', prezime: 'Anić', email: 'Stara.Adresa@primer.rs' });
    expect(names.json().message).toBe(said(ACCOUNT.infoChanged));
    expect(await userRow(u.id)).toMatchObject({ ime: 'Ana', prezime: 'Anić', email: 'stara.adresa@primer.rs' });

    // A new e-mail without the current password, or with a wrong one, is refused on the password field.
    const noPassword = await info({ ime: 'Ana', prezime: 'Anić', email: 'nova.adresa@primer.rs' });
    expect(noPassword.statusCode).toBe(400);
    expect(noPassword.json()).toEqual({
      message: said(ACCOUNT.currentPasswordForEmail),
      errors: { lozinka: said(ACCOUNT.currentPasswordForEmail) },
    });
    const wrong = await info({ ime: 'Ana', prezime: 'Anić', email: 'nova.adresa@primer.rs', lozinka: 'Pogresna123' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toEqual({ message: said(ACCOUNT.wrongCurrentPassword), errors: { lozinka: said(ACCOUNT.wrongCurrentPassword) } });
    const ok = await info({ ime: 'Ana', prezime: 'Anić', email: 'Nova.Adresa@primer.rs', lozinka: DEFAULT_PASSWORD });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().message).toBe(said(ACCOUNT.emailChangePending));
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
    expect(saved.json().message).toBe(said(ACCOUNT.scriptSaved));
    expect((await t.call({ method: 'GET', url: '/api/user/my-profile', token })).json().user.pismo).toBe('lat');
    expect((await userRow(guest.id)).pismo).toBe('lat');
    // Someone else's choice is their own.
    const other = await createUser(t.db);
    const otherToken = await tokenFor(t.ctx, other);
    expect((await t.call({ method: 'GET', url: '/api/user/my-profile', token: otherToken })).json().user.pismo).toBe('cyr');

    for (const payload of [{ pismo: 'LAT' }, { pismo: 'en' }, { pismo: 1 }, {}, { pismo: null }]) {
      const bad = await t.call({ method: 'POST', url: '/api/user/edit-script', token, payload });
      expect(bad.statusCode, JSON.stringify(payload)).toBe(400);
      // In the script the user just chose.
      expect(bad.json().message).not.toMatch(/[\u0400-\u04FF]/);
    }
    const wrong = await t.call({ method: 'POST', url: '/api/user/edit-script', token, payload: { pismo: 'en' } });
    expect(wrong.json().errors?.pismo ?? wrong.json().message).toBe(toScript(ACCOUNT.scriptInvalid, 'lat'));
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
    expect(res.json().message).toBe(said('Nalog uspešno obrisan.'));
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
    expect(taken.json()).toEqual({ message: said(ACCOUNT.emailChangePending) });
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
    expect(last.json().message).toBe(said(ACCOUNT.lastAdmin));
    expect((await userRow(a2.id)).deletedAt).toBeNull();
  });
});
