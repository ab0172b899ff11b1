import type { APIRequestContext } from '@playwright/test';

export const ADMIN = { email: 'admin@trasa.test', password: 'AdminLozinka1' };
/** Demo accounts (packages/server/src/seed/demo.ts); all have this password. */
export const DEMO_PASSWORD = 'Lozinka123';

export async function apiToken(request: APIRequestContext, email: string, lozinka: string): Promise<string> {
  const res = await request.post('/api/user/login', { data: { email, lozinka } });
  if (!res.ok()) throw new Error(`login ${email}: ${res.status()} ${await res.text()}`);
  return (await res.json()).token as string;
}

/** The newest mail to an address, read from the outbox as the Admin reads it (no SMTP server in use). */
export async function lastMailTo(request: APIRequestContext, to: string): Promise<{ subject: string; text: string }> {
  const token = await apiToken(request, ADMIN.email, ADMIN.password);
  for (let i = 0; i < 20; i++) {
    const res = await request.get('/api/smtp/outbox?page=1&limit=50', { headers: { authorization: `Bearer ${token}` } });
    const { outbox } = (await res.json()) as { outbox: { to: string; subject: string; text: string }[] };
    const mail = outbox.find((m) => m.to === to);
    if (mail) return mail;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`no mail to ${to}`);
}

export function linkIn(text: string): string {
  const m = text.match(/https?:\/\/\S+/);
  if (!m) throw new Error(`no link in: ${text}`);
  return m[0];
}
