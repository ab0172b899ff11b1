import { eq, sql } from 'drizzle-orm';
import { loginFailures } from '../db/schema.js';
import type { Db } from './database.js';

/** Failed sign-ins allowed per window, per account and per IP. */
export const THROTTLE = { windowMinutes: 15, perAccount: 5, perIp: 30 } as const;

const accountKey = (email: string) => `acct:${email.toLowerCase()}`;
const ipKey = (ip: string) => `ip:${ip}`;

export async function isThrottled(db: Db, email: string, ip: string): Promise<boolean> {
  const rows = await db
    .select({ key: loginFailures.key, count: loginFailures.count })
    .from(loginFailures)
    .where(
      sql`${loginFailures.key} in (${accountKey(email)}, ${ipKey(ip)}) and ${loginFailures.windowStart} > now() - make_interval(mins => ${THROTTLE.windowMinutes})`,
    );
  return rows.some((r) => (r.key.startsWith('acct:') ? r.count >= THROTTLE.perAccount : r.count >= THROTTLE.perIp));
}

export async function recordFailure(db: Db, email: string, ip: string): Promise<void> {
  for (const key of [accountKey(email), ipKey(ip)]) {
    await db
      .insert(loginFailures)
      .values({ key, count: 1 })
      .onConflictDoUpdate({
        target: loginFailures.key,
        set: {
          count: sql`case when ${loginFailures.windowStart} > now() - make_interval(mins => ${THROTTLE.windowMinutes}) then ${loginFailures.count} + 1 else 1 end`,
          windowStart: sql`case when ${loginFailures.windowStart} > now() - make_interval(mins => ${THROTTLE.windowMinutes}) then ${loginFailures.windowStart} else now() end`,
        },
      });
  }
}

export async function clearAccountFailures(db: Db, email: string): Promise<void> {
  await db.delete(loginFailures).where(eq(loginFailures.key, accountKey(email)));
}
