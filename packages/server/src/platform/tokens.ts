import { randomUUID } from 'node:crypto';
import { jwtVerify, SignJWT } from 'jose';
import { deriveKey } from './secrets.js';

export const TOKEN_TTL = '12h';

export type TokenClaims = { sub: string; tv: number };
/** A verified token: its claims, its id (`jti`, for sign-out) and when it expires. */
export type VerifiedToken = TokenClaims & { jti: string; expiresAt: Date };

export function tokenService(secret: string) {
  const key = deriveKey(secret, 'bearer-token');
  return {
    async sign(claims: TokenClaims): Promise<string> {
      return new SignJWT({ tv: claims.tv })
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(claims.sub)
        .setJti(randomUUID())
        .setIssuedAt()
        .setExpirationTime(TOKEN_TTL)
        .sign(key);
    },
    /** null for anything but a valid, unexpired token of ours with an id (older tokens had none). */
    async verify(token: string): Promise<VerifiedToken | null> {
      try {
        const { payload } = await jwtVerify(token, key, { algorithms: ['HS256'] });
        const { sub, tv, jti, exp } = payload;
        if (typeof sub !== 'string' || typeof tv !== 'number' || typeof exp !== 'number') return null;
        if (typeof jti !== 'string' || !/^[0-9a-f-]{36}$/i.test(jti)) return null;
        return { sub, tv, jti, expiresAt: new Date(exp * 1000) };
      } catch {
        return null;
      }
    },
  };
}
export type TokenService = ReturnType<typeof tokenService>;
