import { jwtVerify, SignJWT } from 'jose';
import { deriveKey } from './secrets.js';

export const TOKEN_TTL = '12h';

export type TokenClaims = { sub: string; tv: number };

export function tokenService(secret: string) {
  const key = deriveKey(secret, 'bearer-token');
  return {
    async sign(claims: TokenClaims): Promise<string> {
      return new SignJWT({ tv: claims.tv })
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(claims.sub)
        .setIssuedAt()
        .setExpirationTime(TOKEN_TTL)
        .sign(key);
    },
    async verify(token: string): Promise<TokenClaims | null> {
      try {
        const { payload } = await jwtVerify(token, key, { algorithms: ['HS256'] });
        if (typeof payload.sub !== 'string' || typeof payload.tv !== 'number') return null;
        return { sub: payload.sub, tv: payload.tv };
      } catch {
        return null;
      }
    },
  };
}
export type TokenService = ReturnType<typeof tokenService>;
