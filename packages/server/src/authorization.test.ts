import { ROLE_KEYS, type RoleKey } from '@trasa/domain';
import { describe, expect, it } from 'vitest';
import { ENDPOINTS } from '../test/endpoints.js';
import { useTestApp } from '../test/harness.js';
import { createGroup, createUser, tokenFor } from './seed/factories.js';

const t = useTestApp();
const callers = ['anonymous', ...ROLE_KEYS] as const;

/** Fresh users per call: some endpoints (deleting one's account) change the caller. */
async function tokenOf(caller: (typeof callers)[number]): Promise<string | undefined> {
  if (caller === 'anonymous') return undefined;
  const group = caller === 'Admin' || caller === 'Gost' ? null : await createGroup(t.db);
  // An extra Admin keeps "the last Admin" rules from masking the permission under test.
  if (caller === 'Admin') await createUser(t.db, { role: 'Admin' });
  const user = await createUser(t.db, { role: caller as RoleKey, groupId: group?.id ?? null });
  return tokenFor(t.ctx, user);
}

describe('authorization table', () => {
  it('covers every registered /api route', () => {
    const covered = new Set(ENDPOINTS.map((e) => `${e.method} ${e.route}`));
    const missing = t.routes
      .filter((r) => r.url.startsWith('/api'))
      .map((r) => `${r.method} ${r.url}`)
      .filter((r) => !covered.has(r));
    expect(missing).toEqual([]);
  });

  for (const endpoint of ENDPOINTS) {
    for (const caller of callers) {
      const allowed =
        endpoint.allowed === 'public' ||
        (endpoint.allowed === 'signedIn' && caller !== 'anonymous') ||
        (Array.isArray(endpoint.allowed) && caller !== 'anonymous' && endpoint.allowed.includes(caller));
      it(`${endpoint.method} ${endpoint.route} as ${caller}: ${allowed ? 'allowed' : 'refused'}`, async () => {
        const res = await t.call({
          method: endpoint.method,
          url: endpoint.url ?? endpoint.route,
          token: await tokenOf(caller),
          ...(endpoint.payload !== undefined && { payload: endpoint.payload as object }),
        });
        expect(res.statusCode, res.body).toBeLessThan(500);
        // Public endpoints answer for themselves (a failed login is a 401 of its own).
        if (endpoint.allowed === 'public') return;
        if (allowed) expect([401, 403]).not.toContain(res.statusCode);
        else expect(res.statusCode).toBe(caller === 'anonymous' ? 401 : 403);
      });
    }
  }
});
