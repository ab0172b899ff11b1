import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acceptedEncoding, sendKept } from './answers.js';
import { KeptStore } from './store.js';

/**
 * Whole answers kept (answers.ts) on a real Fastify instance: a route answers `/:key` from a store whose
 * 'clusterList' kind holds 40,000 bytes, with an answer of `size` bytes that counts how often it was built.
 */
const store = new KeptStore(undefined, { clusterList: { bytes: 40_000 } });
const builds = new Map<string, number>();
const app = Fastify();
let slow: Promise<void> = Promise.resolve();

beforeAll(async () => {
  app.get<{ Params: { key: string }; Querystring: { size?: string } }>('/:key', async (request, reply) => {
    const { key } = request.params;
    return sendKept(
      store,
      'clusterList',
      request,
      reply,
      [key],
      async () => {
        await slow;
        if (key === 'bad') throw new Error('build failed');
        builds.set(key, (builds.get(key) ?? 0) + 1);
        const size = Number(request.query.size ?? 2000);
        return JSON.stringify({ key, filler: 'ž'.repeat(Math.max(0, (size - 30) / 2)) });
      },
      '1',
    );
  });
  await app.ready();
});
afterAll(() => app.close());

const get = (url: string, headers: Record<string, string> = {}) => app.inject({ method: 'GET', url, headers });

describe('whole answers kept', () => {
  it('builds a key once, also for concurrent requests, and answers the same bytes', async () => {
    let release = () => {};
    slow = new Promise((r) => {
      release = r;
    });
    const pending = [get('/a'), get('/a'), get('/a')];
    release();
    const answers = await Promise.all(pending);
    slow = Promise.resolve();
    expect(builds.get('a')).toBe(1);
    expect(new Set(answers.map((a) => a.body)).size).toBe(1);
    expect(answers[0]?.json()).toMatchObject({ key: 'a' });
    expect(answers[0]?.headers['content-type']).toBe('application/json; charset=utf-8');
    await get('/a');
    expect(builds.get('a')).toBe(1);
  });

  it('compresses once per encoding from the kept text; under 1 KB it answers plain', async () => {
    const plain = (await get('/z')).body;
    const br = await get('/z', { 'accept-encoding': 'gzip, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toBe('accept-encoding');
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(plain);
    const gz = await get('/z', { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(plain);
    const small = await get('/small?size=200', { 'accept-encoding': 'br' });
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(small.json()).toMatchObject({ key: 'small' });
    expect(builds.get('z')).toBe(1);
  });

  it('keeps at most its bound, least recently used out; an answer over a quarter of it is not kept', async () => {
    for (const key of ['l1', 'l2', 'l3', 'l4']) await get(`/${key}?size=9000`);
    await get('/l1?size=9000'); // l1 used again: l2 is now the least recently used
    await get('/l5?size=9000');
    expect(store.stats('clusterList').bytes).toBeLessThanOrEqual(40_000);
    await get('/l1?size=9000');
    expect(builds.get('l1')).toBe(1);
    await get('/l2?size=9000');
    expect(builds.get('l2')).toBe(2);
    await get('/big?size=12000');
    await get('/big?size=12000');
    expect(builds.get('big')).toBe(2);
  });

  it('keeps no failed build', async () => {
    expect((await get('/bad')).statusCode).toBe(500);
    expect((await get('/bad')).statusCode).toBe(500);
  });

  it('chooses the encoding as the client weighs it', () => {
    expect(acceptedEncoding(undefined)).toBeNull();
    expect(acceptedEncoding('identity')).toBeNull();
    expect(acceptedEncoding('gzip, deflate, br')).toBe('br');
    expect(acceptedEncoding('br;q=0, gzip')).toBe('gzip');
    expect(acceptedEncoding('br;q=0, gzip;q=0')).toBeNull();
    expect(acceptedEncoding('*')).toBe('br');
    expect(acceptedEncoding('*;q=0, gzip;q=0.5')).toBe('gzip');
    expect(acceptedEncoding(['gzip', 'br;q=0.1'])).toBe('br');
  });
});
