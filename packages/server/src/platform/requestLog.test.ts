import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { buildApp } from '../app.js';
import { loadConfig } from '../config.js';
import { connect, type Db } from './database.js';
import { ensureDatabase } from './ensureDatabase.js';
import { createLogger } from './logger.js';

/** The application with an info logger writing into `lines` (issue 15: one line per request, none for health). */
describe('request log', () => {
  const lines: Record<string, unknown>[] = [];
  let app: FastifyInstance;
  let db: Db;
  let dataDir: string;

  beforeAll(async () => {
    const url = await ensureDatabase(inject('pgAdminUrl'), `${inject('dbPrefix')}_${randomBytes(4).toString('hex')}`, inject('templateDb'));
    db = connect(url, 2);
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'trasa-test-log-'));
    const sink = new Writable({
      write(chunk, _enc, done) {
        for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
        done();
      },
    });
    const config = { ...loadConfig({}), appUrl: 'http://trasa.test', dataDir, webDist: '/nonexistent' };
    ({ app } = await buildApp({ db, config, secret: randomBytes(32).toString('hex'), log: createLogger('info', sink) }));
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
    await db?.$client.end();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('writes one info line per request with the redacted URL, status and time, and none for /api/health', async () => {
    lines.length = 0;
    expect((await app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
    expect(lines).toHaveLength(0);

    const res = await app.inject({ method: 'GET', url: '/api/user/my-profile?code=TAJNIkod1' });
    expect(res.statusCode).toBe(401);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: 30, msg: 'request completed', statusCode: 401, req: { method: 'GET' } });
    const first = lines[0] as { req: { url: string }; ms: unknown };
    expect(first.req.url).toBe('/api/user/my-profile?code=[redacted]');
    expect(typeof first.ms).toBe('number');

    await app.inject({ method: 'GET', url: '/api/ne-postoji' });
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatchObject({ msg: 'request completed', statusCode: 404 });
    expect(JSON.stringify(lines)).not.toMatch(/TAJNI|incoming request/);
  });
});
