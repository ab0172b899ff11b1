import { connect } from 'node:net';
import { COMMON } from '@trasa/domain';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { ENDPOINTS } from '../test/endpoints.js';
import { said, useTestApp } from '../test/harness.js';
import { users } from './db/schema.js';
import { createUser, tokenFor } from './seed/factories.js';

/**
 * What no request may carry, refused on every endpoint before its own checks: NUL characters, lone
 * surrogates, nesting deeper than 32 levels (platform/input.ts); and the paths the router can't take
 * apart. Each answers 400/404 in Serbian and changes nothing; none answers 500.
 */
const t = useTestApp();

async function adminToken(): Promise<string> {
  await createUser(t.db, { role: 'Admin' });
  return tokenFor(t.ctx, await createUser(t.db, { role: 'Admin' }));
}

const withQuery = (url: string, extra: string) => `${url}${url.includes('?') ? '&' : '?'}${extra}`;
const adminMay = (allowed: (typeof ENDPOINTS)[number]['allowed']) =>
  allowed === 'public' || allowed === 'signedIn' || allowed.includes('Admin');

describe('hostile input on every endpoint', () => {
  for (const endpoint of ENDPOINTS.filter((e) => adminMay(e.allowed))) {
    it(`${endpoint.method} ${endpoint.route}: a NUL in the query or the body is refused`, async () => {
      const token = await adminToken();
      const url = endpoint.url ?? endpoint.route;
      const inQuery = await t.call({ method: endpoint.method, url: withQuery(url, 'q=a%00b'), token });
      expect(inQuery.statusCode, inQuery.body).toBe(400);
      expect(inQuery.json()).toEqual({ message: said(COMMON.badRequest) });
      if (endpoint.method === 'GET' || endpoint.method === 'DELETE') return;
      const inBody = await t.call({
        method: endpoint.method,
        url,
        token,
        payload: { naziv: 'Naziv\u0000', ime: 'A\u0000', email: 'a@b.rs', nested: { list: ['x', 'y\u0000'] } },
      });
      expect(inBody.statusCode, inBody.body).toBe(400);
    });
  }

  it('refuses a NUL, a lone surrogate and deep nesting in a body, and keeps the data', async () => {
    const user = await createUser(t.db);
    const token = await tokenFor(t.ctx, user);
    const save = (body: string) =>
      t.call({ method: 'POST', url: '/api/user/edit-columns', token, headers: { 'content-type': 'application/json' }, payload: body });
    const deep = `${'['.repeat(5000)}${']'.repeat(5000)}`;
    for (const body of [
      `{"imeTabele":"korisnici","tabela":${deep},"headers":[]}`,
      '{"imeTabele":"korisnici","tabela":{"a":"\\ud800"},"headers":[]}',
      '{"imeTabele":"korisnici","tabela":{"\\u0000":1},"headers":[]}',
    ]) {
      const res = await save(body);
      expect(res.statusCode, body.slice(0, 60)).toBe(400);
      expect(res.json().message).toBe(said(COMMON.badRequest));
    }
    const [row] = await t.db.select().from(users).where(eq(users.id, user.id));
    expect(row?.tables ?? []).toEqual([]);
    // A sane layout still saves.
    expect((await save('{"imeTabele":"korisnici","tabela":{"a":[1,{"b":"ć"}]},"headers":["ime"]}')).statusCode).toBe(200);
  });

  it('answers in Serbian where the schema has no text of its own', async () => {
    const token = await adminToken();
    const notObject = await t.call({
      method: 'POST',
      url: '/api/user/login',
      headers: { 'content-type': 'application/json' },
      payload: 'null',
    });
    expect(notObject.statusCode).toBe(400);
    expect(notObject.json().message).toBe(said(COMMON.badRequest));
    const array = await t.call({ method: 'POST', url: '/api/priority', token, payload: [1, 2] });
    expect(array.statusCode).toBe(400);
    expect(array.json().message).toBe(said(COMMON.badRequest));
    const twice = await t.call({ method: 'GET', url: '/api/user?page=1&page=2', token });
    expect(twice.statusCode).toBeLessThan(500);
    if (twice.statusCode === 400) expect(twice.json().message).not.toMatch(/Invalid|expected/);
  });

  it('answers paths the router cannot take apart in JSON, without echoing them', async () => {
    const token = await adminToken();
    const long = await t.call({ method: 'GET', url: `/api/location/${'a'.repeat(300)}`, token });
    expect(long.statusCode).toBe(404);
    expect(long.json()).toEqual({ message: said(COMMON.notFound) });
    const bad = await t.call({ method: 'GET', url: '/api/location/%E0%A4%A', token });
    expect(bad.statusCode).toBeGreaterThanOrEqual(400);
    expect(bad.statusCode).toBeLessThan(500);
    expect(bad.body).not.toContain('%E0');
  });

  it('answers what the HTTP parser refuses (headers or URL over 16 KB, a broken request line) in Serbian', async () => {
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = new URL(address);
    const raw = (request: string) =>
      new Promise<string>((resolve, reject) => {
        const socket = connect({ port: Number(port), host: '127.0.0.1' }, () => socket.write(request));
        let answer = '';
        socket.setEncoding('utf8');
        socket.on('data', (chunk) => {
          answer += chunk;
        });
        socket.on('end', () => resolve(answer));
        socket.on('close', () => resolve(answer));
        socket.on('error', reject);
      });
    const long = await raw(`GET /api/health?x=${'a'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`);
    expect(long).toMatch(/^HTTP\/1\.1 431 /);
    expect(JSON.parse(long.slice(long.indexOf('\r\n\r\n') + 4))).toEqual({ message: said(COMMON.tooLarge) });
    const broken = await raw('NONSENSE\r\n\r\n');
    expect(broken).toMatch(/^HTTP\/1\.1 400 /);
    expect(JSON.parse(broken.slice(broken.indexOf('\r\n\r\n') + 4))).toEqual({ message: said(COMMON.badRequest) });
  });
});
