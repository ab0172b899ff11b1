import { randomUUID, webcrypto } from 'node:crypto';
import { jwtVerify, SignJWT } from 'jose';
import { NEVER_RESTORED } from './epoch.js';
import { deriveKey } from './secrets.js';

export const TOKEN_TTL = '12h';

/**
 * `ep`: the database's epoch the token was issued in (platform/epoch.ts); a restore starts a new one, and
 * the caller refuses a token of another (platform/auth.ts). A token without it was issued before epochs
 * were named: it belongs to the epoch of a database never restored.
 */
export type TokenClaims = { sub: string; tv: number; ep: string };
/** A verified token: its claims, its id (`jti`, for sign-out) and when it expires. */
export type VerifiedToken = TokenClaims & { jti: string; expiresAt: Date };

export function tokenService(secret: string) {
  // Imported once: given the raw bytes, jose imports a WebCrypto key on every call (80 → 28 µs a verify,
  // and every authenticated request verifies one).
  const key = webcrypto.subtle.importKey('raw', deriveKey(secret, 'bearer-token'), { name: 'HMAC', hash: 'SHA-256' }, false, [
    'sign',
    'verify',
  ]);
  const check = async (token: string): Promise<VerifiedToken | null> => {
    try {
      const { payload } = await jwtVerify(token, await key, { algorithms: ['HS256'] });
      const { sub, tv, jti, exp, ep = NEVER_RESTORED } = payload;
      if (typeof sub !== 'string' || typeof tv !== 'number' || typeof exp !== 'number' || typeof ep !== 'string') return null;
      if (typeof jti !== 'string' || !/^[0-9a-f-]{36}$/i.test(jti)) return null;
      return Object.freeze({ sub, tv, ep, jti, expiresAt: new Date(exp * 1000) });
    } catch {
      return null;
    }
  };
  return {
    async sign(claims: TokenClaims): Promise<string> {
      return new SignJWT({ tv: claims.tv, ep: claims.ep })
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(claims.sub)
        .setJti(randomUUID())
        .setIssuedAt()
        .setExpirationTime(TOKEN_TTL)
        .sign(await key);
    },
    /**
     * null for anything but a valid, unexpired token of ours with an id (older tokens had none). Sign-out,
     * a changed token version and the epoch are not a matter of the signature: the caller checks them
     * against the database on every request (platform/auth.ts).
     */
    verify: check,
  };
}
export type TokenService = ReturnType<typeof tokenService>;
