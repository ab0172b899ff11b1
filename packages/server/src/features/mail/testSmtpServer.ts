import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export type ReceivedMail = { from: string; to: string[]; data: string };

/**
 * A real SMTP server on 127.0.0.1 for tests (the smtp-server package): accepts `user`/`password`,
 * records what it receives, refuses recipients while `refuse` is set, and can be stopped and started
 * again on the same port (a server that is down, then back).
 */
export type TestSmtp = {
  port: number;
  received: ReceivedMail[];
  /** Set to refuse every recipient (550). */
  refuse: boolean;
  stop(): Promise<void>;
  /** Listens again on the same port. */
  start(): Promise<void>;
  /** The plain text of a received mail (quoted-printable or base64 body decoded). */
  textOf(mail: ReceivedMail): string;
};

export async function startTestSmtp(user = 'trasa@primer.rs', password = 'tajna-lozinka'): Promise<TestSmtp> {
  let server: SMTPServer;
  const state: TestSmtp = {
    port: 0,
    received: [],
    refuse: false,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
    async start() {
      server = make();
      server.listen(state.port, '127.0.0.1');
      await once(server.server, 'listening');
      state.port = (server.server.address() as AddressInfo).port;
    },
    textOf(mail) {
      const [head = '', ...rest] = mail.data.split(/\r?\n\r?\n/);
      const body = rest.join('\n\n');
      if (/content-transfer-encoding:\s*base64/i.test(head)) return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
      if (/content-transfer-encoding:\s*quoted-printable/i.test(head)) {
        const bytes = body
          .replace(/=\r?\n/g, '')
          .replace(/=([0-9A-F]{2})/gi, (_, h: string) => String.fromCharCode(Number.parseInt(h, 16)));
        return Buffer.from(bytes, 'latin1').toString('utf8');
      }
      return body;
    },
  };
  const make = () =>
    new SMTPServer({
      disabledCommands: ['STARTTLS'],
      allowInsecureAuth: true,
      onAuth(auth, _session, cb) {
        if (auth.username === user && auth.password === password) return cb(null, { user: auth.username });
        return cb(new Error('Invalid username or password'));
      },
      onRcptTo(address, _session, cb) {
        if (!state.refuse) return cb();
        const err = Object.assign(new Error(`Mailbox ${address.address} unavailable`), { responseCode: 550 });
        return cb(err);
      },
      onData(stream, session, cb) {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => {
          state.received.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((r) => r.address),
            data: Buffer.concat(chunks).toString('utf8'),
          });
          cb();
        });
      },
    });
  await state.start();
  return state;
}
