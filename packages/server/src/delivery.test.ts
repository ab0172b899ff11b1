import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../test/harness.js';

/** A built web app in miniature: index.html, app.html and one hashed asset, with their precompressed copies. */
function fakeWebDist(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'trasa-web-'));
  mkdirSync(path.join(dir, 'assets'));
  const html = `<!doctype html><title>Траса</title>${'<!-- pad -->'.repeat(200)}`;
  writeFileSync(path.join(dir, 'index.html'), html);
  writeFileSync(path.join(dir, 'index.html.br'), brotliCompressSync(html));
  writeFileSync(path.join(dir, 'index.html.gz'), gzipSync(html));
  const app = `<!doctype html><title>Траса</title><script type="module" src="/assets/opening-abc123.js"></script>${'<!-- pad -->'.repeat(200)}`;
  writeFileSync(path.join(dir, 'app.html'), app);
  writeFileSync(path.join(dir, 'app.html.br'), brotliCompressSync(app));
  writeFileSync(path.join(dir, 'app.html.gz'), gzipSync(app));
  const js = `console.log(${JSON.stringify('x'.repeat(5000))});`;
  writeFileSync(path.join(dir, 'assets', 'app-abc123.js'), js);
  writeFileSync(path.join(dir, 'assets', 'app-abc123.js.br'), brotliCompressSync(js));
  writeFileSync(path.join(dir, 'assets', 'app-abc123.js.gz'), gzipSync(js));
  writeFileSync(path.join(dir, 'sw.js'), 'self.addEventListener("fetch", () => {});');
  writeFileSync(path.join(dir, 'manifest.webmanifest'), JSON.stringify({ name: 'Trasa', start_url: '/app' }));
  return dir;
}

describe('delivery: compression and caching (issue 13 item 1)', () => {
  const t = useTestApp({ webDist: fakeWebDist() });

  it('serves a hashed asset precompressed with brotli, cached immutable for a year', async () => {
    const res = await t.call({ method: 'GET', url: '/assets/app-abc123.js', headers: { 'accept-encoding': 'br, gzip' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(brotliDecompressSync(res.rawPayload).toString()).toContain('console.log');
  });

  it('falls back to gzip for a client without brotli, and to plain bytes for one without either', async () => {
    const gz = await t.call({ method: 'GET', url: '/assets/app-abc123.js', headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toContain('console.log');
    const plain = await t.call({ method: 'GET', url: '/assets/app-abc123.js', headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toContain('console.log');
  });

  it('revalidates the SPA pages (index.html, app.html) on every visit', async () => {
    const res = await t.call({ method: 'GET', url: '/app/klasteri', headers: { 'accept-encoding': 'gzip' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.headers['content-encoding']).toBe('gzip');
  });

  it('sends app.html for /app and its screens, index.html for the public pages', async () => {
    for (const url of ['/app', '/app/', '/app/klasteri', '/app/aktivnost/1?x=1']) {
      const res = await t.call({ method: 'GET', url, headers: { 'accept-encoding': 'identity' } });
      expect(res.statusCode, url).toBe(200);
      expect(res.body, url).toContain('opening-abc123.js');
      expect(res.headers['cache-control']).toBe('no-cache');
    }
    for (const url of ['/', '/registracija', '/application', '/nepostojeca-strana']) {
      const res = await t.call({ method: 'GET', url, headers: { 'accept-encoding': 'identity' } });
      expect(res.statusCode, url).toBe(200);
      expect(res.body, url).not.toContain('opening-abc123.js');
    }
  });

  it('answers HEAD on the SPA as GET does, without a body (uptime monitors probe with HEAD)', async () => {
    for (const url of ['/', '/app/klasteri']) {
      const get = await t.call({ method: 'GET', url, headers: { 'accept-encoding': 'identity' } });
      const head = await t.call({ method: 'HEAD', url, headers: { 'accept-encoding': 'identity' } });
      expect(head.statusCode, url).toBe(200);
      expect(head.headers['content-type']).toBe(get.headers['content-type']);
      expect(head.headers['cache-control']).toBe('no-cache');
      expect(head.body).toBe('');
    }
    const api = await t.call({ method: 'HEAD', url: '/api/nepostojece' });
    expect(api.statusCode).toBe(404);
  });

  it('serves the service worker as JavaScript, revalidated on every check, and the manifest as a manifest', async () => {
    const sw = await t.call({ method: 'GET', url: '/sw.js' });
    expect(sw.statusCode).toBe(200);
    expect(sw.headers['content-type']).toMatch(/^(application|text)\/javascript/);
    expect(sw.headers['cache-control']).toBe('no-cache');
    const manifest = await t.call({ method: 'GET', url: '/manifest.webmanifest' });
    expect(manifest.statusCode).toBe(200);
    expect(manifest.headers['content-type']).toMatch(/^application\/manifest\+json/);
    expect(manifest.headers['cache-control']).toBe('no-cache');
    expect(JSON.parse(manifest.body).start_url).toBe('/app');
    // The page's policy lets it register a worker and read a manifest from its own origin only.
    const page = await t.call({ method: 'GET', url: '/app' });
    const csp = String(page.headers['content-security-policy']);
    expect(csp).toContain("worker-src 'self'");
    expect(csp).toContain("manifest-src 'self'");
  });

  it('compresses JSON answers over 1 KB', async () => {
    const res = await t.call({ method: 'GET', url: '/api/docs/json', headers: { 'accept-encoding': 'br' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(JSON.parse(brotliDecompressSync(res.rawPayload).toString()).openapi).toMatch(/^3\./);
  });
});
