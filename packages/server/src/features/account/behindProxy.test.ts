import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { ACCOUNT } from '@trasa/domain';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { said, type TestApp, useTestApp } from '../../../test/harness.js';
import { auditLogs } from '../../db/schema.js';
import { createUser, DEFAULT_PASSWORD } from '../../seed/factories.js';

/**
 * The server behind a real reverse proxy hop: a node:http proxy that appends the connecting peer's
 * address to X-Forwarded-For, as nginx's `$proxy_add_x_forwarded_for` does, in front of the server
 * listening on 127.0.0.1. Clients connect to the proxy from addresses of 127.0.0.0/8 (all loopback),
 * so each has an address of its own; what they write into X-Forwarded-For must not change the
 * address the server sees.
 */
type Answer = { status: number; body: { message?: string } };

function startProxy(upstreamPort: number): Promise<http.Server> {
  const proxy = http.createServer((req, res) => {
    const peer = req.socket.remoteAddress ?? '';
    const sent = req.headers['x-forwarded-for'];
    const up = http.request(
      {
        host: '127.0.0.1',
        port: upstreamPort,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, 'x-forwarded-for': sent ? `${sent}, ${peer}` : peer },
        agent: false,
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    up.on('error', () => {
      res.writeHead(502);
      res.end();
    });
    req.pipe(up);
  });
  return new Promise((resolve) => proxy.listen(0, '127.0.0.1', () => resolve(proxy)));
}

function listeningPort(server: { address(): AddressInfo | string | null }): number {
  return (server.address() as AddressInfo).port;
}

/** A sign-in sent from `from` (a loopback address) to `port`, with a forged X-Forwarded-For if given. */
function signIn(port: number, from: string, email: string, lozinka: string, forged?: string): Promise<Answer> {
  const data = JSON.stringify({ email, lozinka });
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        localAddress: from,
        method: 'POST',
        path: '/api/user/login',
        agent: false,
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(data),
          ...(forged !== undefined && { 'x-forwarded-for': forged }),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') }));
      },
    );
    req.on('error', reject);
    req.end(data);
  });
}

async function failedSignInAddresses(t: TestApp, email: string): Promise<string[]> {
  const rows = await t.db.select({ ip: auditLogs.ip }).from(auditLogs).where(eq(auditLogs.userLabel, email));
  return rows.map((r) => r.ip);
}

/** Listens on 127.0.0.1 with a proxy in front; returns the ports. */
function behindProxy(t: TestApp): { server: number; proxy: number } {
  const ports = { server: 0, proxy: 0 };
  let proxy: http.Server | undefined;
  beforeAll(async () => {
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    ports.server = listeningPort(t.app.server);
    proxy = await startProxy(ports.server);
    ports.proxy = listeningPort(proxy);
  });
  afterAll(async () => {
    await new Promise((resolve) => proxy?.close(resolve));
  });
  return ports;
}

describe('TRUST_PROXY=true (one proxy hop)', () => {
  const t = useTestApp({ env: { TRUST_PROXY: 'true' } });
  const ports = behindProxy(t);

  it("sees the proxy's peer, not a forged X-Forwarded-For: 40 guesses with 40 forged addresses are throttled after 5", async () => {
    const u = await createUser(t.db);
    const statuses: number[] = [];
    for (let i = 0; i < 40; i++) {
      statuses.push((await signIn(ports.proxy, '127.0.0.2', u.email, `Pogresna${i}xx`, `203.0.113.${i + 1}`)).status);
    }
    expect(statuses).toEqual([...Array(5).fill(401), ...Array(35).fill(429)]);
    // The audit rows name the real address.
    expect(await failedSignInAddresses(t, u.email)).toEqual(Array(5).fill('127.0.0.2'));
  });

  it("guesses naming the owner's address do not lock the owner out", async () => {
    const u = await createUser(t.db);
    expect((await signIn(ports.proxy, '127.0.0.3', u.email, DEFAULT_PASSWORD)).status).toBe(200);
    const guesses: number[] = [];
    for (let i = 0; i < 6; i++) guesses.push((await signIn(ports.proxy, '127.0.0.4', u.email, `Pogresna${i}xx`, '127.0.0.3')).status);
    expect(guesses).toEqual([401, 401, 401, 401, 401, 429]);
    const owner = await signIn(ports.proxy, '127.0.0.3', u.email, DEFAULT_PASSWORD);
    expect(owner.status).toBe(200);
  });

  it('takes the right-most address of a chain the client started', async () => {
    const res = await signIn(ports.proxy, '127.0.0.5', 'niko.lanac@primer.rs', 'Lozinka123', '198.51.100.1, 198.51.100.2');
    expect(res.body.message).toBe(said(ACCOUNT.unknownUser));
    expect(await failedSignInAddresses(t, 'niko.lanac@primer.rs')).toEqual(['127.0.0.5']);
  });
});

describe("TRUST_PROXY as the proxy's address", () => {
  const t = useTestApp({ env: { TRUST_PROXY: '127.0.0.1' } });
  const ports = behindProxy(t);

  it('believes X-Forwarded-For only from the proxy, not from a client connecting directly', async () => {
    await signIn(ports.proxy, '127.0.0.6', 'niko.proksi@primer.rs', 'Lozinka123', '203.0.113.9');
    await signIn(ports.server, '127.0.0.7', 'niko.direktno@primer.rs', 'Lozinka123', '203.0.113.9');
    expect(await failedSignInAddresses(t, 'niko.proksi@primer.rs')).toEqual(['127.0.0.6']);
    expect(await failedSignInAddresses(t, 'niko.direktno@primer.rs')).toEqual(['127.0.0.7']);
  });
});
