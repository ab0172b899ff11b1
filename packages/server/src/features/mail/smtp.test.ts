import { once } from 'node:events';
import net, { type AddressInfo } from 'node:net';
import { SMTP } from '@trasa/domain';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { said, useTestApp } from '../../../test/harness.js';
import { auditLogs, mailOutbox, smtpServers } from '../../db/schema.js';
import { decrypt } from '../../platform/secrets.js';
import { createUser, tokenFor } from '../../seed/factories.js';
import { startTestSmtp, type TestSmtp } from './testSmtpServer.js';

const t = useTestApp();
let mailServer: TestSmtp;
let admin: string;
let adminEmail: string;

beforeAll(async () => {
  mailServer = await startTestSmtp();
  const user = await createUser(t.db, { role: 'Admin', email: 'admin.smtp@primer.rs' });
  adminEmail = user.email;
  admin = await tokenFor(t.ctx, user);
});

afterAll(async () => {
  await mailServer.stop();
});

beforeEach(async () => {
  mailServer.received.length = 0;
  mailServer.refuse = false;
  await t.db.delete(smtpServers);
});

const create = (payload: Record<string, unknown>) => t.call({ method: 'POST', url: '/api/smtp/', payload, token: admin });
const patch = (id: string, payload: Record<string, unknown>) => t.call({ method: 'PATCH', url: `/api/smtp/${id}`, payload, token: admin });
const list = async () =>
  (await t.call({ method: 'GET', url: '/api/smtp', token: admin })).json().smtps as { _id: string; inUse: boolean }[];
const good = () => ({ host: '127.0.0.1', port: mailServer.port, email: 'trasa@primer.rs', password: 'tajna-lozinka', inUse: true });

async function settled(to: string) {
  for (let i = 0; i < 100; i++) {
    const rows = await t.db.select({ status: mailOutbox.status }).from(mailOutbox).where(eq(mailOutbox.to, to));
    if (rows.length > 0 && rows.every((r) => r.status !== 'queued')) return rows;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return [];
}

describe('SMTP settings (spec 3 §5, §7)', () => {
  it('validates with the spec texts', async () => {
    const empty = await create({});
    expect(empty.statusCode).toBe(400);
    expect(empty.json().errors).toEqual({
      host: said('Obavezno polje'),
      port: said('Obavezno polje'),
      email: said('Obavezno polje'),
      password: said('Obavezno polje'),
    });
    const bad = await create({ host: ' ', port: '25a', email: 'nije-adresa', password: ' ' });
    expect(bad.json().errors).toEqual({
      host: said('Obavezno polje'),
      port: said(SMTP.portInvalid),
      email: said('Neispravna e-pošta'),
      password: said('Obavezno polje'),
    });
    expect((await create({ ...good(), port: 70000 })).json().errors).toEqual({ port: said(SMTP.portInvalid) });
    expect((await create({ ...good(), port: '587' })).statusCode).toBe(201);
  });

  it('keeps the password sealed and never answers it', async () => {
    const res = await create({ ...good(), email: 'Trasa@Primer.rs' });
    expect(res.statusCode).toBe(201);
    const { smtp, message } = res.json();
    expect(message).toBe(SMTP.created);
    expect(smtp).toEqual({ _id: expect.any(String), host: '127.0.0.1', port: mailServer.port, email: 'trasa@primer.rs', inUse: true });
    const [row] = await t.db.select().from(smtpServers).where(eq(smtpServers.id, smtp._id));
    expect(row?.passwordEnc).not.toContain('tajna');
    expect(decrypt(t.ctx.secret, row?.passwordEnc ?? '')).toBe('tajna-lozinka');
    for (const url of ['/api/smtp', `/api/smtp/${smtp._id}`]) {
      const body = (await t.call({ method: 'GET', url, token: admin })).body;
      expect(body).not.toMatch(/password|lozinka|tajna/i);
      expect(body).not.toContain(row?.passwordEnc);
    }
    expect((await t.call({ method: 'GET', url: `/api/smtp/${smtp._id}`, token: admin })).json()).toEqual({ smtp });
  });

  it('edits only what is given: empty values are dropped, an empty password keeps the old one', async () => {
    const { smtp } = (await create(good())).json();
    const res = await patch(smtp._id, { host: '', port: '', email: 'nova@primer.rs', password: '' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: said(SMTP.edited), smtp: { ...smtp, email: 'nova@primer.rs' } });
    const [row] = await t.db.select().from(smtpServers);
    expect(decrypt(t.ctx.secret, row?.passwordEnc ?? '')).toBe('tajna-lozinka');
    await patch(smtp._id, { password: 'druga', port: 2525 });
    const [after] = await t.db.select().from(smtpServers);
    expect(decrypt(t.ctx.secret, after?.passwordEnc ?? '')).toBe('druga');
    expect(after?.port).toBe(2525);
    expect((await patch(smtp._id, { email: 'x' })).json().errors).toEqual({ email: said('Neispravna e-pošta') });
    expect((await patch('00000000-0000-4000-8000-000000000000', { host: 'a' })).statusCode).toBe(404);
    const [log] = await t.db
      .select()
      .from(auditLogs)
      .where(eq(auditLogs.url, `/api/smtp/${smtp._id}`))
      .limit(1);
    expect(log?.message).not.toContain('druga');
  });

  it('keeps exactly one server in use, also when two are set at once', async () => {
    const a = (await create(good())).json().smtp;
    const b = (await create({ ...good(), host: 'localhost' })).json().smtp;
    expect(await list()).toEqual([
      expect.objectContaining({ _id: a._id, inUse: false }),
      expect.objectContaining({ _id: b._id, inUse: true }),
    ]);
    await patch(a._id, { inUse: true });
    expect((await list()).map((s) => s.inUse)).toEqual([true, false]);
    const c = (await create({ ...good(), inUse: false })).json().smtp;
    expect((await list()).map((s) => s.inUse)).toEqual([true, false, false]);
    for (let i = 0; i < 5; i++) {
      await Promise.all([b, c].map((s) => patch(s._id, { inUse: true })));
      expect((await list()).filter((s) => s.inUse)).toHaveLength(1);
    }
    const [current] = (await list()).filter((s) => s.inUse);
    await patch(current?._id ?? '', { inUse: false });
    expect((await list()).filter((s) => s.inUse)).toHaveLength(0);
  });

  it('deletes', async () => {
    const { smtp } = (await create(good())).json();
    const res = await t.call({ method: 'DELETE', url: `/api/smtp/${smtp._id}`, token: admin });
    expect(res.json()).toEqual({ message: said(SMTP.deleted) });
    expect(await list()).toEqual([]);
    expect((await t.call({ method: 'DELETE', url: `/api/smtp/${smtp._id}`, token: admin })).statusCode).toBe(404);
    expect((await t.call({ method: 'GET', url: `/api/smtp/${smtp._id}`, token: admin })).statusCode).toBe(404);
  });
});

describe('mail through the server in use (a real SMTP server)', () => {
  it('delivers the sign-up activation mail', async () => {
    await create(good());
    const res = await t.call({
      method: 'POST',
      url: '/api/user/signup',
      payload: { ime: 'Mila', prezime: 'Milić', email: 'mila@primer.rs', lozinka: 'Trasa-Posta-2026!' },
    });
    expect(res.statusCode).toBe(201);
    expect(await settled('mila@primer.rs')).toEqual([{ status: 'sent' }]);
    const mail = mailServer.received.find((m) => m.to.includes('mila@primer.rs'));
    expect(mail?.from).toBe('trasa@primer.rs');
    expect(mailServer.textOf(mail ?? { from: '', to: [], data: '' })).toContain('/api/user/activate?email=mila%40primer.rs&code=');
  });

  it('sends the test mail through that server (in use or not) to the Admin or the address given', async () => {
    const { smtp } = (await create({ ...good(), inUse: false })).json();
    const res = await t.call({ method: 'POST', url: `/api/smtp/${smtp._id}/test`, payload: {}, token: admin });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: SMTP.testSent(adminEmail), to: adminEmail });
    const other = await t.call({ method: 'POST', url: `/api/smtp/${smtp._id}/test`, payload: { to: 'Proba@Primer.rs' }, token: admin });
    expect(other.json().to).toBe('proba@primer.rs');
    expect(mailServer.received.map((m) => m.to)).toEqual([[adminEmail], ['proba@primer.rs']]);
    expect(mailServer.textOf(mailServer.received[0] ?? { from: '', to: [], data: '' })).toContain('пробна порука апликације Траса');
    // not an application mail: nothing in the outbox
    expect(await t.db.select().from(mailOutbox).where(eq(mailOutbox.to, 'proba@primer.rs'))).toEqual([]);
    expect((await t.call({ method: 'POST', url: `/api/smtp/${smtp._id}/test`, payload: { to: 'x' }, token: admin })).statusCode).toBe(400);
  });

  it('answers one failure for a closed, silent or foreign port, with no banner; an SMTP refusal adds its code only', async () => {
    // A port that speaks another protocol (an SSH-like banner), one that accepts and says nothing, one closed.
    const peers: net.Server[] = [];
    const listen = async (onConnection: (socket: net.Socket) => void) => {
      const server = net.createServer(onConnection);
      server.listen(0, '127.0.0.1');
      await once(server, 'listening');
      peers.push(server);
      return (server.address() as AddressInfo).port;
    };
    const sockets: net.Socket[] = [];
    try {
      const ssh = await listen((socket) => {
        sockets.push(socket);
        socket.write('SSH-2.0-OpenSSH_9.6 Ubuntu-3ubuntu13\r\n');
      });
      const silent = await listen((socket) => {
        sockets.push(socket);
      });
      const gone = await startTestSmtp();
      await gone.stop();
      const answers = [];
      for (const port of [ssh, silent, gone.port]) {
        const { smtp } = (await create({ ...good(), port, inUse: false })).json();
        answers.push(await t.call({ method: 'POST', url: `/api/smtp/${smtp._id}/test`, payload: {}, token: admin }));
      }
      for (const res of answers) {
        expect(res.statusCode).toBe(422);
        expect(res.json()).toEqual({ message: said(SMTP.testFailed) });
        expect(res.body).not.toContain('SSH');
        expect(res.body).not.toContain('OpenSSH');
      }
    } finally {
      for (const socket of sockets) socket.destroy();
      await Promise.all(peers.map((p) => new Promise((resolve) => p.close(resolve))));
    }
    // A real SMTP server that refuses: the same text and its reply code, not its words.
    const wrong = (await create({ ...good(), password: 'pogresna', inUse: false })).json().smtp;
    const auth = await t.call({ method: 'POST', url: `/api/smtp/${wrong._id}/test`, payload: {}, token: admin });
    expect(auth.statusCode).toBe(422);
    expect(auth.json()).toEqual({ message: said(SMTP.testFailed) + SMTP.replyCode(535) });
    mailServer.refuse = true;
    const ok = (await create(good())).json().smtp;
    const rcpt = await t.call({ method: 'POST', url: `/api/smtp/${ok._id}/test`, payload: {}, token: admin });
    expect(rcpt.json()).toEqual({ message: said(SMTP.testFailed) + SMTP.replyCode(550) });
    expect(rcpt.body).not.toContain('unavailable');
    // An outbox row keeps the code, not the server's words.
    expect(await t.ctx.mailer.send({ script: 'lat', to: 'odbijena.sifra@primer.rs', subject: 'S', text: 'tekst', origin: 'digest' })).toBe(
      'failed',
    );
    const [row] = await t.db.select().from(mailOutbox).where(eq(mailOutbox.to, 'odbijena.sifra@primer.rs'));
    expect(row?.error).toBe(SMTP.sendFailed + SMTP.replyCode(550));
    await t.db.delete(mailOutbox).where(eq(mailOutbox.to, 'odbijena.sifra@primer.rs'));
    // Success stays success.
    mailServer.refuse = false;
    const sent = await t.call({ method: 'POST', url: `/api/smtp/${ok._id}/test`, payload: {}, token: admin });
    expect(sent.json()).toEqual({ message: SMTP.testSent(adminEmail), to: adminEmail });
  }, 60_000);
});

describe('nothing is lost', () => {
  it('a refused mail stays failed and the retry delivers it once the server accepts', async () => {
    await create(good());
    mailServer.refuse = true;
    expect(await t.ctx.mailer.send({ script: 'lat', to: 'odbijena@primer.rs', subject: 'S', text: 'tekst', origin: 'digest' })).toBe(
      'failed',
    );
    const [row] = await t.db.select().from(mailOutbox).where(eq(mailOutbox.to, 'odbijena@primer.rs'));
    expect(row).toMatchObject({ status: 'failed', attempts: 1 });
    expect(row?.error).toContain('550');
    mailServer.refuse = false;
    expect(await t.ctx.mailer.deliverDue({ now: new Date(Date.now() + 6 * 60_000) })).toBe(1);
    expect((await t.db.select().from(mailOutbox).where(eq(mailOutbox.to, 'odbijena@primer.rs')))[0]).toMatchObject({
      status: 'sent',
      attempts: 2,
    });
    expect(mailServer.received.map((m) => m.to)).toEqual([['odbijena@primer.rs']]);
  });

  it('a mail sent while the server is down is delivered when it is back', async () => {
    const flaky = await startTestSmtp();
    try {
      await create({ ...good(), port: flaky.port });
      await flaky.stop();
      expect(await t.ctx.mailer.send({ script: 'lat', to: 'kasnije@primer.rs', subject: 'S', text: 'tekst', origin: 'digest' })).toBe(
        'failed',
      );
      expect(await t.ctx.mailer.deliverDue({ now: new Date(Date.now() + 6 * 60_000) })).toBe(1); // still down
      await flaky.start();
      expect(await t.ctx.mailer.deliverDue({ now: new Date(Date.now() + 16 * 60_000) })).toBe(1);
      const [row] = await t.db.select().from(mailOutbox).where(eq(mailOutbox.to, 'kasnije@primer.rs'));
      expect(row).toMatchObject({ status: 'sent', attempts: 3 });
      expect(flaky.received.map((m) => m.to)).toEqual([['kasnije@primer.rs']]);
    } finally {
      await flaky.stop().catch(() => undefined);
    }
  });
});
