import { Writable } from 'node:stream';
import Fastify, { type FastifyBaseLogger } from 'fastify';
import { describe, expect, it } from 'vitest';
import { createLogger, redactUrl } from './logger.js';

describe('request logging', () => {
  it('never writes a code or token from a URL to the log', async () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _enc, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const app = Fastify({ loggerInstance: createLogger('info', sink) as FastifyBaseLogger });
    app.get('/api/user/activate', async () => ({ ok: true }));
    await app.ready();
    await app.inject({ method: 'GET', url: '/api/user/activate?email=a%40b.rs&code=TAJNIkod123' });
    await app.inject({ method: 'GET', url: '/reset-lozninke?email=a%40b.rs&code=TAJNIkod456&x=1' });
    await app.inject({ method: 'GET', url: '/api/user/confirm-email?token=TAJNItoken&CODE=TAJNIkod789' });
    await app.close();
    const log = lines.join('');
    expect(log).toContain('incoming request');
    expect(log).toContain('/api/user/activate?email=a%40b.rs&code=[redacted]');
    expect(log).not.toMatch(/TAJNI/);
  });

  it('keeps every other part of the URL', () => {
    expect(redactUrl('/api/user/activate?email=a%40b.rs&code=abc&x=1#frag')).toBe(
      '/api/user/activate?email=a%40b.rs&code=[redacted]&x=1#frag',
    );
    expect(redactUrl('/api/user?page=1&limit=10')).toBe('/api/user?page=1&limit=10');
    expect(redactUrl('/api/user/reset?resetCode=abc')).toBe('/api/user/reset?resetCode=[redacted]');
  });
});
