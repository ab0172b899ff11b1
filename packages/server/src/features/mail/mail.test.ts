import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/harness.js';
import { mailOutbox, smtpServers } from '../../db/schema.js';
import { encrypt } from '../../platform/secrets.js';
import { createUser, tokenFor } from '../../seed/factories.js';

const t = useTestApp();

type Received = { from: string; to: string[]; data: string };
const received: Received[] = [];
let smtp: SMTPServer;
let port: number;

beforeAll(async () => {
  smtp = new SMTPServer({
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    onAuth(auth, _session, cb) {
      if (auth.username === 'trasa@primer.rs' && auth.password === 'tajna-lozinka') return cb(null, { user: auth.username });
      return cb(new Error('Invalid username or password'));
    },
    onData(stream, session, cb) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          data: Buffer.concat(chunks).toString('utf8'),
        });
        cb();
      });
    },
  });
  smtp.listen(0, '127.0.0.1');
  await once(smtp.server, 'listening');
  port = (smtp.server.address() as AddressInfo).port;
});

afterAll(async () => {
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
});

/** Account mail may be sent after the answer: waits until the mail to `to` is stored and settled. */
async function settled(to: string) {
  for (let i = 0; i < 100; i++) {
    const rows = await t.db.select({ status: mailOutbox.status }).from(mailOutbox).where(eq(mailOutbox.to, to));
    if (rows.length > 0 && rows.every((r) => r.status !== 'queued')) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('mail', () => {
  it('keeps mail in the outbox when no SMTP server is in use, readable by an Admin only', async () => {
    await t.call({
      method: 'POST',
      url: '/api/user/reset-password',
      payload: { email: (await createUser(t.db, { email: 'bez.smtp@primer.rs' })).email },
    });
    await settled('bez.smtp@primer.rs');
    const admin = await createUser(t.db, { role: 'Admin' });
    const res = await t.call({ method: 'GET', url: '/api/smtp/outbox?page=1&limit=10', token: await tokenFor(t.ctx, admin) });
    expect(res.statusCode).toBe(200);
    const mail = res.json().outbox.find((m: { to: string }) => m.to === 'bez.smtp@primer.rs');
    expect(mail).toMatchObject({ status: 'outbox', subject: 'Траса — промена лозинке' });
    expect(mail.text).toContain('http://trasa.test/reset-lozninke?email=');
    const employee = await createUser(t.db, { role: 'Zaposleni' });
    expect((await t.call({ method: 'GET', url: '/api/smtp/outbox', token: await tokenFor(t.ctx, employee) })).statusCode).toBe(403);
    expect((await t.call({ method: 'GET', url: '/api/smtp/outbox' })).statusCode).toBe(401);
  });

  it('sends through the SMTP server in use, with its password kept encrypted', async () => {
    await t.db.insert(smtpServers).values({
      host: '127.0.0.1',
      port,
      email: 'trasa@primer.rs',
      passwordEnc: encrypt(t.ctx.secret, 'tajna-lozinka'),
      inUse: true,
    });
    const res = await t.call({
      method: 'POST',
      url: '/api/user/signup',
      payload: { ime: 'Vesna', prezime: 'Vasić', email: 'vesna@primer.rs', lozinka: 'Trasa-Posta-2026!' },
    });
    expect(res.statusCode).toBe(201);
    await settled('vesna@primer.rs');
    const mail = received.find((m) => m.to.includes('vesna@primer.rs'));
    expect(mail?.from).toBe('trasa@primer.rs');
    const [, body = ''] = (mail?.data ?? '').split(/\r?\n\r?\n/);
    const text = Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
    expect(text).toContain('http://trasa.test/api/user/activate?email=vesna%40primer.rs&code=');
    expect(mail?.data).not.toContain('tajna-lozinka');
    const admin = await createUser(t.db, { role: 'Admin' });
    const outbox = (await t.call({ method: 'GET', url: '/api/smtp/outbox', token: await tokenFor(t.ctx, admin) })).json().outbox;
    expect(outbox.find((m: { to: string }) => m.to === 'vesna@primer.rs')?.status).toBe('sent');
  });

  it('records a failure when the SMTP server refuses, and sign-up still answers', async () => {
    await t.db.update(smtpServers).set({ passwordEnc: encrypt(t.ctx.secret, 'pogresna') });
    const res = await t.call({
      method: 'POST',
      url: '/api/user/signup',
      payload: { ime: 'Goran', prezime: 'Gajić', email: 'goran@primer.rs', lozinka: 'Trasa-Posta-2026!' },
    });
    expect(res.statusCode).toBe(201);
    await settled('goran@primer.rs');
    const admin = await createUser(t.db, { role: 'Admin' });
    const outbox = (await t.call({ method: 'GET', url: '/api/smtp/outbox', token: await tokenFor(t.ctx, admin) })).json().outbox;
    expect(outbox.find((m: { to: string }) => m.to === 'goran@primer.rs')?.status).toBe('failed');
  });
});
