import { randomUUID } from 'node:crypto';
import { SignJWT } from 'jose';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { NEVER_RESTORED } from './epoch.js';
import { deriveKey } from './secrets.js';
import { tokenService } from './tokens.js';

afterEach(() => vi.useRealTimers());

describe('bearer tokens', () => {
  it('verifies a token of ours until it expires, never a tampered one', async () => {
    const tokens = tokenService('a secret of this test only');
    const token = await tokens.sign({ sub: '4510a5ca-202e-42a2-9f31-be84427d950d', tv: 3, ep: '7' });
    const first = await tokens.verify(token);
    expect(first).toMatchObject({ sub: '4510a5ca-202e-42a2-9f31-be84427d950d', tv: 3, ep: '7' });
    expect(await tokens.verify(token)).toEqual(first);
    // Another signature, or another service's key, is refused.
    const [head, body, signature = ''] = token.split('.');
    const flipped = `${head}.${body}.${signature[0] === 'A' ? 'B' : 'A'}${signature.slice(1)}`;
    expect(await tokens.verify(flipped)).toBeNull();
    expect(await tokenService('another secret').verify(token)).toBeNull();
    // From its expiry on, it is refused.
    const expiry = (first?.expiresAt.getTime() ?? 0) + 1;
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(expiry);
    expect(await tokens.verify(token)).toBeNull();
    expect(await tokens.verify(token)).toBeNull();
  });
});

describe('the epoch a token names (platform/epoch.ts)', () => {
  it('is the one it was signed with; a token signed without one belongs to a database never restored', async () => {
    const secret = 'a secret of this test only';
    const tokens = tokenService(secret);
    const sub = '4510a5ca-202e-42a2-9f31-be84427d950d';
    expect((await tokens.verify(await tokens.sign({ sub, tv: 1, ep: '123456789' })))?.ep).toBe('123456789');
    const older = await new SignJWT({ tv: 1 })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(sub)
      .setJti(randomUUID())
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(deriveKey(secret, 'bearer-token'));
    expect((await tokens.verify(older))?.ep).toBe(NEVER_RESTORED);
  });
});
