import { desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll } from 'vitest';
import { type TestApp, useTestApp } from '../../../test/harness.js';
import { loginFailures, mailOutbox, users } from '../../db/schema.js';
import { backgroundSettled } from '../../platform/background.js';
import { configurePasswordWork } from '../../platform/passwords.js';
import { configureSignInGate } from '../../platform/throttle.js';

/**
 * What the account tests share (account.*.test.ts): the test app with room for parallel sign-ins, and helpers
 * for the mails, sign-in and users. Each test file that imports it gets its own.
 */

/** The running test file's app (set by its set-up: the modules are shared between a worker's files). */
export let t: TestApp;

export async function lastMailTo(email: string) {
  await backgroundSettled();
  const [mail] = await t.db.select().from(mailOutbox).where(eq(mailOutbox.to, email)).orderBy(desc(mailOutbox.createdAt)).limit(1);
  return mail;
}

export const login = (email: string, lozinka: string, remoteAddress?: string) =>
  t.call({ method: 'POST', url: '/api/user/login', payload: { email, lozinka }, ...(remoteAddress && { remoteAddress }) });

/** The throttle's count under `key` (platform/throttle.ts), 0 when there is none. */
export async function failures(key: string): Promise<number> {
  const [row] = await t.db.select({ count: loginFailures.count }).from(loginFailures).where(eq(loginFailures.key, key));
  return row?.count ?? 0;
}

export function linkIn(text: string): URL {
  const m = text.match(/https?:\/\/\S+/);
  if (!m) throw new Error(`no link in mail: ${text}`);
  return new URL(m[0]);
}

export async function userRow(id: string) {
  const [row] = await t.db.select().from(users).where(eq(users.id, id));
  if (!row) throw new Error('no user');
  return row;
}

/**
 * Registers the set-up of the calling test file: its own app and data, read through the bindings above
 * while its tests run (vitest isolate: false shares this module between a worker's files).
 */
export function setupAccount(): void {
  const app = useTestApp();
  beforeAll(() => {
    t = app;
    // Parallel sign-ins of the tests queue for the hash; on a loaded test machine they may wait long.
    configurePasswordWork({ maxWaiting: { normal: 50, suspect: 50 }, maxWaitMs: 60_000 });
    configureSignInGate(1000, 1000);
  });
  afterAll(() => {
    configurePasswordWork();
    configureSignInGate();
  });
}
