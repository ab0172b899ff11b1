import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { ACCOUNT } from '@trasa/domain';
import { and, eq, sql } from 'drizzle-orm';
import pino from 'pino';
import { SMTPServer } from 'smtp-server';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { said, useTestApp } from '../../../test/harness.js';
import { mailOutbox, smtpServers } from '../../db/schema.js';
import { connect } from '../../platform/database.js';
import { createMailer, importMailer, MAIL_LIMITS } from '../../platform/mail.js';
import { encrypt } from '../../platform/secrets.js';
import { createGroup, createUser, tokenFor } from '../../seed/factories.js';
import { multipartBody } from '../contracts/testDocuments.js';

const t = useTestApp();

/** Every recipient the SMTP server accepted, once per delivered mail. */
const delivered: string[] = [];
let smtp: SMTPServer;
let port: number;
let adminToken: string;

beforeAll(async () => {
  smtp = new SMTPServer({
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    onAuth(auth, _session, cb) {
      if (auth.username === 'trasa@primer.rs' && auth.password === 'tajna-lozinka') return cb(null, { user: auth.username });
      return cb(new Error('Invalid username or password'));
    },
    onData(stream, session, cb) {
      stream.on('data', () => undefined);
      stream.on('end', () => {
        delivered.push(...session.envelope.rcptTo.map((r) => r.address));
        cb();
      });
    },
  });
  smtp.listen(0, '127.0.0.1');
  await once(smtp.server, 'listening');
  port = (smtp.server.address() as AddressInfo).port;
  adminToken = await tokenFor(t.ctx, await createUser(t.db, { role: 'Admin' }));
});

afterAll(async () => {
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
});

beforeEach(async () => {
  delivered.length = 0;
  await t.db.delete(smtpServers);
});

async function useSmtp(password = 'tajna-lozinka') {
  await t.db.delete(smtpServers);
  await t.db.insert(smtpServers).values({
    host: '127.0.0.1',
    port,
    email: 'trasa@primer.rs',
    passwordEnc: encrypt(t.ctx.secret, password),
    inUse: true,
  });
}

const rowsTo = (to: string) => t.db.select().from(mailOutbox).where(eq(mailOutbox.to, to)).orderBy(mailOutbox.createdAt);

/** The rows to an address once `n` of them are settled (account mail may be sent after the answer). */
async function settledRowsTo(to: string, n: number) {
  for (let i = 0; i < 100; i++) {
    const rows = await rowsTo(to);
    if (rows.length >= n && rows.every((r) => r.status !== 'queued')) return rows;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return rowsTo(to);
}

describe('account mail: at most 3 per address an hour', () => {
  it('drops the fourth and later mails silently: the answer stays the same, nothing is sent', async () => {
    await useSmtp();
    const user = await createUser(t.db, { email: 'cesto.resetuje@primer.rs' });
    const answers = [];
    for (let i = 0; i < 5; i++) {
      const res = await t.call({ method: 'POST', url: '/api/user/reset-password', payload: { email: user.email } });
      answers.push([res.statusCode, res.json().message]);
    }
    expect(new Set(answers.map((a) => JSON.stringify(a))).size).toBe(1);
    expect(answers[0]).toEqual([200, ACCOUNT.forgotSent]);
    const rows = await settledRowsTo(user.email, 5);
    // Account mail is written after the answer, so which request's mail came third is not fixed: count them.
    expect(rows.map((r) => r.status).sort()).toEqual(['dropped', 'dropped', 'sent', 'sent', 'sent']);
    expect(delivered.filter((d) => d === user.email)).toHaveLength(3);
    // a dropped mail keeps no text (it would hold a live code)
    for (const dropped of rows.filter((r) => r.status === 'dropped')) expect(dropped.text).toBe('');
    expect(rows.every((r) => r.origin === 'account')).toBe(true);
  });

  it('counts sign-up, activation and reset together (any case of the address), and only the last hour', async () => {
    const email = 'nov.korisnik@primer.rs';
    const send = (origin: string | undefined, to = email) => t.ctx.mailer.send({ script: 'lat', to, subject: 's', text: 'kod', origin });
    expect(await send('signup')).toBe('outbox');
    expect(await send('activation')).toBe('outbox');
    expect(await send(undefined, 'Nov.Korisnik@primer.rs')).toBe('outbox');
    expect(await send('reset')).toBe('dropped');
    // other kinds of mail are not an address's account mail
    expect(await send('digest')).toBe('outbox');
    // an hour later the address may get mail again
    await t.db.update(mailOutbox).set({ createdAt: sql`now() - interval '61 minutes'` }).where(sql`lower(${mailOutbox.to}) = ${email}`);
    expect(await send('reset')).toBe('outbox');
  });
});

describe('mail text in the server log', () => {
  it('is written at debug level only (it carries live codes)', async () => {
    const logged = async (level: string) => {
      const lines: string[] = [];
      const sink = new Writable({
        write(chunk, _enc, cb) {
          lines.push(String(chunk));
          cb();
        },
      });
      const mailer = createMailer({ db: t.db, secret: t.ctx.secret, log: pino({ level }, sink) });
      await mailer.send({ script: 'lat', to: `log.${level}@primer.rs`, subject: 'Kod', text: 'tajni-kod-123456', origin: 'reset' });
      return lines.join('');
    };
    const info = await logged('info');
    expect(info).toContain('log.info@primer.rs');
    expect(info).not.toContain('tajni-kod-123456');
    expect(await logged('debug')).toContain('tajni-kod-123456');
  });
});

describe('import mail: 500 a day per importer, the rest held for the Admin', () => {
  let importer: Awaited<ReturnType<typeof createUser>>;
  let importerToken: string;
  let groupName: string;
  const cap = MAIL_LIMITS.importPerDay;

  beforeAll(async () => {
    const group = await createGroup(t.db, { naziv: 'Uvoz Pošta' });
    groupName = group.naziv;
    importer = await createUser(t.db, { role: 'Rukovodilac', groupId: group.id });
    importerToken = await tokenFor(t.ctx, importer);
  });
  afterEach(() => {
    MAIL_LIMITS.importPerDay = cap;
  });

  const csv = (emails: string[]) =>
    Buffer.from(['ime,prezime,email,grupa', ...emails.map((e, i) => `Ime${i},Prezime${i},${e},${groupName}`)].join('\r\n'));
  async function importUsers(emails: string[], token = importerToken) {
    const form = await multipartBody({}, [{ field: 'file', name: 'korisnici.csv', content: csv(emails) }]);
    const res = await t.call({ method: 'POST', url: '/api/user/excel-import', payload: form.payload, headers: form.headers, token });
    expect(res.statusCode, res.body).toBe(200);
  }
  const statuses = async (emails: string[]) => Promise.all(emails.map(async (e) => (await rowsTo(e)).map((r) => r.status).join(',')));

  it('holds the 501st mail of the day (the real cap, counted from the outbox)', async () => {
    expect(cap).toBe(500);
    await t.db.insert(mailOutbox).values(
      Array.from({ length: cap - 1 }, (_, i) => ({
        to: `ranije.${i}@primer.rs`,
        subject: 'x',
        text: 'x',
        status: 'sent',
        origin: 'import',
        actorId: importer.id,
      })),
    );
    await importUsers(['petstoti@primer.rs', 'petstoprvi@primer.rs']);
    expect(await statuses(['petstoti@primer.rs', 'petstoprvi@primer.rs'])).toEqual(['outbox', 'held']);
    // yesterday's mail does not count
    await t.db.update(mailOutbox).set({ createdAt: sql`now() - interval '25 hours'` }).where(eq(mailOutbox.actorId, importer.id));
    await importUsers(['sutradan@primer.rs']);
    expect(await statuses(['sutradan@primer.rs'])).toEqual(['outbox']);
    await t.db.delete(mailOutbox).where(eq(mailOutbox.actorId, importer.id));
  });

  it('sends up to the cap, holds the rest unsent; the Admin lists and releases them', async () => {
    await useSmtp();
    MAIL_LIMITS.importPerDay = 2;
    const emails = ['u1@uvoz.rs', 'u2@uvoz.rs', 'u3@uvoz.rs', 'u4@uvoz.rs', 'u5@uvoz.rs'];
    await importUsers(emails);
    expect(await statuses(emails)).toEqual(['sent', 'sent', 'held', 'held', 'held']);
    expect(delivered.sort()).toEqual(['u1@uvoz.rs', 'u2@uvoz.rs']);
    const [row] = await rowsTo('u3@uvoz.rs');
    expect(row).toMatchObject({ origin: 'import', actorId: importer.id, attempts: 0 });
    expect(row?.text).toContain('http://trasa.test/reset-lozninke?email=u3%40uvoz.rs&code=');

    const list = await t.call({ method: 'GET', url: '/api/smtp/outbox?status=held&limit=100', token: adminToken });
    expect(list.statusCode).toBe(200);
    expect(list.json().held).toBe(3);
    expect(
      list
        .json()
        .outbox.map((m: { to: string }) => m.to)
        .sort(),
    ).toEqual(['u3@uvoz.rs', 'u4@uvoz.rs', 'u5@uvoz.rs']);

    // only the Admin releases
    const byManager = await t.call({ method: 'POST', url: '/api/smtp/outbox/release', payload: {}, token: importerToken });
    expect(byManager.statusCode).toBe(403);
    expect((await t.call({ method: 'POST', url: '/api/smtp/outbox/release', payload: { ids: ['x'] }, token: adminToken })).statusCode).toBe(
      400,
    );

    const one = await t.call({ method: 'POST', url: '/api/smtp/outbox/release', payload: { ids: [row?.id] }, token: adminToken });
    expect(one.statusCode, one.body).toBe(200);
    expect(one.json()).toEqual({ released: 1, message: said('Za slanje je pušteno poruka: 1.') });
    await t.ctx.mailer.deliverDue();
    expect(await statuses(['u3@uvoz.rs', 'u4@uvoz.rs'])).toEqual(['sent', 'held']);

    const all = await t.call({ method: 'POST', url: '/api/smtp/outbox/release', payload: {}, token: adminToken });
    expect(all.json().released).toBe(2);
    await t.ctx.mailer.deliverDue();
    expect(await statuses(emails)).toEqual(['sent', 'sent', 'sent', 'sent', 'sent']);
    expect(delivered.sort()).toEqual(emails);
    // a released mail is not sent twice
    await t.ctx.mailer.deliverDue();
    expect(delivered).toHaveLength(5);
  });

  it('counts per importer: another importer has their own 500', async () => {
    await t.db.delete(mailOutbox).where(eq(mailOutbox.actorId, importer.id));
    MAIL_LIMITS.importPerDay = 1;
    await importUsers(['v1@uvoz.rs', 'v2@uvoz.rs']);
    await importUsers(['v3@uvoz.rs'], adminToken);
    expect(await statuses(['v1@uvoz.rs', 'v2@uvoz.rs', 'v3@uvoz.rs'])).toEqual(['outbox', 'held', 'outbox']);
  });

  it('importMailer stops counting once one mail is held', async () => {
    MAIL_LIMITS.importPerDay = 0;
    const mailer = importMailer(t.ctx.mailer, importer.id);
    expect(await mailer.send({ script: 'lat', to: 'w1@uvoz.rs', subject: 's', text: 't' })).toBe('held');
    MAIL_LIMITS.importPerDay = 100;
    expect(await mailer.send({ script: 'lat', to: 'w2@uvoz.rs', subject: 's', text: 't' })).toBe('held');
  });
});

describe('failed mail is kept and retried', () => {
  it('stays failed with attempts counted, and is sent when the retry is due', async () => {
    await useSmtp('pogresna');
    const status = await t.ctx.mailer.send({ script: 'lat', to: 'ponovo@primer.rs', subject: 'Pokušaj', text: 'tekst', origin: 'reset' });
    expect(status).toBe('failed');
    expect((await rowsTo('ponovo@primer.rs'))[0]).toMatchObject({ status: 'failed', attempts: 1 });
    await useSmtp();
    const soon = new Date(Date.now() + 4 * 60_000);
    expect(await t.ctx.mailer.deliverDue({ now: soon })).toBe(0);
    const later = new Date(Date.now() + 6 * 60_000);
    expect(await t.ctx.mailer.deliverDue({ now: later })).toBe(1);
    expect((await rowsTo('ponovo@primer.rs'))[0]).toMatchObject({ status: 'sent', attempts: 2, error: null });
    expect(delivered).toEqual(['ponovo@primer.rs']);
  });

  it('waits twice as long after each failure and gives up after the last attempt (the Admin may release it)', async () => {
    await useSmtp('pogresna');
    await t.ctx.mailer.send({ script: 'lat', to: 'uporno@primer.rs', subject: 'x', text: 'x', origin: 'digest' });
    const [row] = await rowsTo('uporno@primer.rs');
    const at = (minutes: number) => new Date((row?.createdAt.getTime() ?? 0) + minutes * 60_000 + 1000);
    expect(await t.ctx.mailer.deliverDue({ now: at(5) })).toBe(1); // attempt 2
    expect(await t.ctx.mailer.deliverDue({ now: at(10) })).toBe(0);
    expect(await t.ctx.mailer.deliverDue({ now: at(15) })).toBe(1); // attempt 3
    await t.db.update(mailOutbox).set({ attempts: MAIL_LIMITS.maxAttempts }).where(eq(mailOutbox.to, 'uporno@primer.rs'));
    expect(await t.ctx.mailer.deliverDue({ now: at(100_000) })).toBe(0);
    await useSmtp();
    const res = await t.call({ method: 'POST', url: '/api/smtp/outbox/release', payload: { ids: [row?.id] }, token: adminToken });
    expect(res.json().released).toBe(1);
    await t.ctx.mailer.deliverDue();
    expect((await rowsTo('uporno@primer.rs'))[0]?.status).toBe('sent');
  });

  it('two servers retrying at once send each mail exactly once (rows locked, skip locked)', async () => {
    await useSmtp();
    const to = Array.from({ length: 12 }, (_, i) => `par.${i}@primer.rs`);
    await t.db.insert(mailOutbox).values(to.map((address) => ({ to: address, subject: 'x', text: 'x', status: 'failed', attempts: 1 })));
    await t.db
      .update(mailOutbox)
      .set({ createdAt: sql`now() - interval '1 hour'` })
      .where(and(eq(mailOutbox.status, 'failed'), sql`${mailOutbox.to} like 'par.%'`));
    const otherDb = connect(t.db.$client.options.connectionString ?? '', 3);
    try {
      const silent = pino({ level: 'silent' });
      const first = createMailer({ db: t.db, secret: t.ctx.secret, log: silent });
      const second = createMailer({ db: otherDb, secret: t.ctx.secret, log: silent });
      const [a, b] = await Promise.all([first.deliverDue({ batch: 2 }), second.deliverDue({ batch: 2 })]);
      expect(a + b).toBe(12);
    } finally {
      await otherDb.$client.end();
    }
    expect(delivered.sort()).toEqual([...to].sort());
    const rows = await t.db.select().from(mailOutbox).where(sql`${mailOutbox.to} like 'par.%'`);
    expect(rows.every((r) => r.status === 'sent' && r.attempts === 2)).toBe(true);
  });
});
