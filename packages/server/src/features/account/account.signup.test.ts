import { ACCOUNT } from '@trasa/domain';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { said } from '../../../test/harness.js';
import { userCodes, users } from '../../db/schema.js';
import { backgroundSettled } from '../../platform/background.js';
import { plainName } from '../../platform/mail.js';
import { createUser, tokenFor } from '../../seed/factories.js';
import { lastMailTo, linkIn, login, setupAccount, t, userRow } from './accountSetup.js';

setupAccount();

describe('sign-up and activation', () => {
  it('creates an inactive guest, mails a single-use link that activates it', async () => {
    const res = await t.call({
      method: 'POST',
      url: '/api/user/signup',
      payload: { ime: ' Jelena ', prezime: 'Jović', email: 'Jelena.Jovic@primer.rs', lozinka: 'NovaLozinka1' },
    });
    expect(res.statusCode).toBe(201);
    expect(res.json().message).toBe(said('На ваш мејл је послат активациони линк.'));
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
    expect(taken.json().message).toBe(said(ACCOUNT.signupSuccess));
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
      expect(res.json()).toEqual({ message: said(message), errors: { lozinka: said(message) } });
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
      expect(res.json().message).toBe(said(message));
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
    expect(mismatch.json().message).toBe(said('лозинке морају да се подударају'));
    const noLatin = await t.call({
      method: 'POST',
      url: '/api/user/reset-password',
      payload: { email, resetCode, password: '123456789', confirmPassword: '123456789' },
    });
    expect(noLatin.json().message).toBe(said(ACCOUNT.passwordNeedsLatin));
    const empty = await t.call({
      method: 'POST',
      url: '/api/user/reset-password',
      payload: { email, resetCode, password: '', confirmPassword: '' },
    });
    expect(empty.json().message).toBe(said('Није наведена лозинка.'));

    const ok = await t.call({
      method: 'POST',
      url: '/api/user/reset-password',
      payload: { email, resetCode, password: 'Zelena12345', confirmPassword: 'Zelena12345' },
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().message).toBe(said('Успешна промена лозинке'));
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
      expect(res.json().message).toBe(said(ACCOUNT.forgotSent));
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
    expect(common.json()).toEqual({ message: said(ACCOUNT.passwordTooCommon), errors: { password: said(ACCOUNT.passwordTooCommon) } });
    const personal = await t.call({ method: 'POST', url: '/api/user/reset-password', payload: body('Zoran-1975') });
    expect(personal.json().message).toBe(said(ACCOUNT.passwordPersonal));
    const ok = await t.call({ method: 'POST', url: '/api/user/reset-password', payload: body('Ribnjak-Zeleni-7') });
    expect(ok.statusCode).toBe(200);
  });

  it('rejects an invalid e-mail with the spec text', async () => {
    const res = await t.call({ method: 'POST', url: '/api/user/reset-password', payload: { email: 'nije' } });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(said('Имејл није валидан.'));
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
    expect(before.json().message).toBe(said(ACCOUNT.inactiveUser));

    const active = await createUser(t.db, { email: 'aktivna@primer.rs' });
    const answers = [await resend('zakasnela@primer.rs'), await resend('aktivna@primer.rs'), await resend('niko.nigde@primer.rs')];
    for (const res of answers) {
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ message: said(ACCOUNT.resendActivationSent) });
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
    expect(res.json().message).toBe(said(ACCOUNT.invalidEmail));
  });
});
