import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../test/harness.js';

/**
 * Every answer carries the security headers (platform/securityHeaders.ts, computed once from helmet's
 * options in app.ts): the CSP that allows only the app's own scripts, styles, images, fonts, calls, service
 * worker and manifest, no framing, no MIME sniffing, no referrer; no HSTS (the proxy's) and no COEP (the
 * report charts' blobs).
 */
const t = useTestApp();

const EXPECTED = {
  'content-security-policy':
    "default-src 'self';base-uri 'self';font-src 'self' data:;form-action 'self';frame-ancestors 'none';img-src 'self' data: blob:;object-src 'none';script-src 'self';script-src-attr 'none';style-src 'self' 'unsafe-inline';connect-src 'self';worker-src 'self';manifest-src 'self'",
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
  'origin-agent-cluster': '?1',
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
  'x-dns-prefetch-control': 'off',
  'x-download-options': 'noopen',
  'x-frame-options': 'SAMEORIGIN',
  'x-permitted-cross-domain-policies': 'none',
  'x-xss-protection': '0',
};

describe('security headers', () => {
  it('are on every answer: an API call, a refused call, an unknown path', async () => {
    for (const url of ['/api/health', '/api/user', '/api/nepostojeci']) {
      const res = await t.call({ method: 'GET', url });
      expect(res.headers, url).toMatchObject(EXPECTED);
      expect(res.headers['strict-transport-security'], url).toBeUndefined();
      expect(res.headers['cross-origin-embedder-policy'], url).toBeUndefined();
      expect(res.headers['x-powered-by'], url).toBeUndefined();
    }
  });
});
