import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';

/** APP_SECRET, or one generated on first start and kept in DATA_DIR/app-secret. */
export async function loadAppSecret(configured: string | undefined, dataDir: string): Promise<string> {
  if (configured) return configured;
  const file = path.join(dataDir, 'app-secret');
  const read = async () => {
    try {
      const s = (await fs.readFile(file, 'utf8')).trim();
      return s.length >= 32 ? s : null;
    } catch {
      return null;
    }
  };
  await fs.mkdir(dataDir, { recursive: true });
  // Several servers starting at once on one shared DATA_DIR: the file is created exclusively, so the
  // first one's secret is everyone's (a server that loses the race reads it, waiting while it is written).
  for (let attempt = 0; attempt < 50; attempt++) {
    const existing = await read();
    if (existing) return existing;
    const secret = randomBytes(48).toString('base64url');
    try {
      await fs.writeFile(file, secret, { mode: 0o600, flag: 'wx' });
      return secret;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
  // A file that stays unreadable or too short (damaged): replaced, as before.
  const secret = randomBytes(48).toString('base64url');
  await fs.writeFile(file, secret, { mode: 0o600 });
  return secret;
}

/** A key for one purpose, derived from the application secret. */
export function deriveKey(secret: string, purpose: string): Buffer {
  return createHash('sha256').update(`${purpose}:${secret}`).digest();
}

/** AES-256-GCM for values kept encrypted at rest (the SMTP password). */
export function encrypt(secret: string, plain: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', deriveKey(secret, 'at-rest'), iv);
  const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return [iv, cipher.getAuthTag(), data].map((b) => b.toString('base64')).join('.');
}

export function decrypt(secret: string, sealed: string): string {
  const [iv, tag, data] = sealed.split('.').map((s) => Buffer.from(s, 'base64'));
  if (!iv || !tag || !data) throw new Error('malformed sealed value');
  const decipher = createDecipheriv('aes-256-gcm', deriveKey(secret, 'at-rest'), iv);
  decipher.setAuthTag(tag);
  return Buffer.concat([decipher.update(data), decipher.final()]).toString('utf8');
}

/** Codes for activation and reset links: random, sent once, stored only as a hash. */
export function newCode(): { code: string; hash: string } {
  const code = randomBytes(24).toString('base64url');
  return { code, hash: hashCode(code) };
}

export function hashCode(code: string): string {
  return createHash('sha256').update(code).digest('hex');
}
