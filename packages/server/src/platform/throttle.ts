import { sql } from 'drizzle-orm';
import { loginFailures } from '../db/schema.js';
import type { Db, Executor } from './database.js';

/**
 * Password attempts (sign-in, and the current password asked by change-password and an e-mail change)
 * are counted in PostgreSQL, so the limits hold across server instances:
 * - per account and IP: 5 in 15 minutes, then that address gets 429 for that account;
 * - per IP: 30 in 15 minutes (spraying many accounts from one address), then 429;
 * - per account as a whole: past 5 the account is only slowed, never locked: its attempts go to the
 *   'suspect' lane of the password work (platform/passwords.ts), unless they come from an address
 *   the account signed in from within 30 days.
 * An attempt is reserved (counted) before the password is hashed, in one statement, so parallel
 * guesses cannot all pass the check; success releases it.
 */
export const THROTTLE = { windowMinutes: 15, perAccountIp: 5, perIp: 30, accountSlowAfter: 5, knownAddressDays: 30 } as const;

const norm = (email: string) => email.trim().toLowerCase();
const pairKey = (email: string, ip: string) => `acct-ip:${norm(email)}|${ip}`;
const ipKey = (ip: string) => `ip:${ip}`;
const accountKey = (email: string) => `acct:${norm(email)}`;
const knownKey = (email: string, ip: string) => `known:${norm(email)}|${ip}`;

export type Attempt = {
  email: string;
  ip: string;
  /** Attempts of this account in the window, this one included. */
  account: number;
  /** Past `accountSlowAfter`: the account is slowed (its work goes to the suspect lane). */
  slowed: boolean;
  /** The account signed in from this address within `knownAddressDays`. */
  known: boolean;
};

const fresh = sql`${loginFailures.windowStart} > now() - make_interval(mins => ${THROTTLE.windowMinutes})`;

/** Takes one from each key's count (never below 0; `zero` keys to 0), locking rows in key order. */
async function decrement(db: Executor, keys: string[], zero: string[] = []): Promise<void> {
  const all = [...keys, ...zero];
  if (all.length === 0) return;
  const list = (ks: string[]) =>
    sql.join(
      ks.map((k) => sql`${k}`),
      sql`, `,
    );
  await db.execute(sql`with locked as (
      select ${loginFailures.key} as k from ${loginFailures} where ${loginFailures.key} in (${list(all)}) order by 1 for update)
    update ${loginFailures}
    set count = case when ${loginFailures.key} in (${zero.length ? list(zero) : sql`null`}) then 0 else greatest(${loginFailures.count} - 1, 0) end
    where ${loginFailures.key} in (select k from locked)`);
}

/**
 * Reserves a password attempt of `email` from `ip` before any hashing: 'throttled' when this address
 * is over its limits (for the account, or altogether), else the attempt with the account's count and
 * whether the address is known for the account. One statement.
 */
export async function reserveAttempt(db: Db, email: string, ip: string): Promise<Attempt | 'throttled'> {
  sweepLater(db);
  const keys = [pairKey(email, ip), ipKey(ip), accountKey(email)].sort();
  const rows = await db.execute<{ key: string; count: number; since: Date | string }>(sql`with counted as (
      insert into ${loginFailures} (key, count) values ${sql.join(
        keys.map((k) => sql`(${k}, 1)`),
        sql`, `,
      )}
      on conflict (key) do update set
        count = case when ${fresh} then ${loginFailures.count} + 1 else 1 end,
        window_start = case when ${fresh} then ${loginFailures.windowStart} else now() end
      returning ${loginFailures.key} as key, ${loginFailures.count} as count, ${loginFailures.windowStart} as since)
    select key, count, since from counted
    union all
    select ${loginFailures.key}, -1, ${loginFailures.windowStart} from ${loginFailures} where ${loginFailures.key} = ${knownKey(email, ip)}
      and ${loginFailures.windowStart} > now() - make_interval(days => ${THROTTLE.knownAddressDays})`);
  const counts = new Map(rows.rows.map((r) => [r.key, Number(r.count)]));
  const pair = counts.get(pairKey(email, ip)) ?? 0;
  const perIp = counts.get(ipKey(ip)) ?? 0;
  const account = counts.get(accountKey(email)) ?? 0;
  if (perIp > THROTTLE.perIp) {
    const since = rows.rows.find((r) => r.key === ipKey(ip))?.since;
    if (since !== undefined) rememberThrottled(ip, new Date(since).getTime() + THROTTLE.windowMinutes * 60_000);
  }
  if (pair > THROTTLE.perAccountIp || perIp > THROTTLE.perIp) return 'throttled';
  const known = counts.has(knownKey(email, ip)) || isRecentlyKnown(email, ip);
  return { email, ip, account, slowed: account > THROTTLE.accountSlowAfter, known };
}

/**
 * The password was right: this address's count for the account is cleared, the IP's and the
 * account's lose this attempt, and the address becomes known for the account (`remember`).
 */
export async function attemptSucceeded(db: Db, a: Attempt, remember: boolean): Promise<void> {
  await decrement(db, [ipKey(a.ip), accountKey(a.email)], [pairKey(a.email, a.ip)]);
  if (remember) {
    rememberAddress(a.email, a.ip);
    await db
      .insert(loginFailures)
      .values({ key: knownKey(a.email, a.ip), count: 0 })
      .onConflictDoUpdate({ target: loginFailures.key, set: { windowStart: sql`now()` } });
  }
}

/**
 * No password was checked (the sign-in gate or the password work was full: 503): the attempt is taken
 * back from this address's count for the account, so retrying after a 503 never throttles anyone at
 * their own account. The address's own count keeps it, so a sender looping into 503s reaches its limit
 * and gets 429 before the gate; so does the account's, so a flood at one account slows that account,
 * whoever got through.
 */
export async function attemptRefused(db: Db, a: Attempt): Promise<void> {
  await decrement(db, [pairKey(a.email, a.ip)]);
}

/**
 * Addresses that signed in to an account lately, in this process: they pass the sign-in gate and keep
 * the ordinary lane (the database rows say the same across servers and restarts).
 */
const recentlyKnown = new Map<string, number>();
const RECENT_MAX = 20_000;
function rememberAddress(email: string, ip: string): void {
  const key = knownKey(email, ip);
  recentlyKnown.delete(key);
  recentlyKnown.set(key, Date.now() + THROTTLE.knownAddressDays * 86_400_000);
  if (recentlyKnown.size > RECENT_MAX) recentlyKnown.delete(recentlyKnown.keys().next().value as string);
}
export function isRecentlyKnown(email: string, ip: string): boolean {
  return (recentlyKnown.get(knownKey(email, ip)) ?? 0) > Date.now();
}

/**
 * Addresses over their own limit (`perIp`), until their window ends, in this process: their sign-ins
 * get 429 without a statement. The window does not move while an address is over its limit (counting
 * more changes nothing), so this answers as the database row would; a flood from one address then
 * costs the database nothing.
 */
const throttledAddresses = new Map<string, number>();
function rememberThrottled(ip: string, until: number): void {
  throttledAddresses.delete(ip);
  throttledAddresses.set(ip, Math.min(until, Date.now() + THROTTLE.windowMinutes * 60_000));
  if (throttledAddresses.size > RECENT_MAX) throttledAddresses.delete(throttledAddresses.keys().next().value as string);
}
export function isAddressThrottled(ip: string): boolean {
  const until = throttledAddresses.get(ip);
  if (until === undefined) return false;
  if (until > Date.now()) return true;
  throttledAddresses.delete(ip);
  return false;
}

/**
 * Sign-ins in progress in this process, bounded. A sign-in comes here after its attempt was counted
 * (reserveAttempt: an address over its limits got 429 without taking a place). One address holds at
 * most `perAddress` places, so a single sender cannot fill the gate, and past `max` in all a new one is
 * answered 503 before any password work (attemptRefused keeps it counted against the address). An
 * address the account signed in from lately passes both bounds.
 */
export const SIGN_IN_GATE = { max: 24, perAddress: 2 } as const;
const gate = { inFlight: 0, ...SIGN_IN_GATE } as { inFlight: number; max: number; perAddress: number };
const inFlightByAddress = new Map<string, number>();
export function configureSignInGate(max: number = SIGN_IN_GATE.max, perAddress: number = SIGN_IN_GATE.perAddress): void {
  gate.max = max;
  gate.perAddress = perAddress;
}
export function admitSignIn(a: Attempt): (() => void) | null {
  const mine = inFlightByAddress.get(a.ip) ?? 0;
  if (!a.known && (mine >= gate.perAddress || gate.inFlight >= gate.max)) return null;
  gate.inFlight++;
  inFlightByAddress.set(a.ip, mine + 1);
  let done = false;
  return () => {
    if (done) return;
    done = true;
    gate.inFlight--;
    const left = (inFlightByAddress.get(a.ip) ?? 1) - 1;
    if (left > 0) inFlightByAddress.set(a.ip, left);
    else inFlightByAddress.delete(a.ip);
  };
}

/** A password reset proves the mailbox: every address's count for the account is cleared. */
export async function clearAccountFailures(db: Executor, email: string): Promise<void> {
  const e = norm(email);
  await db.execute(
    sql`delete from ${loginFailures} where ${loginFailures.key} = ${accountKey(e)}
        or (${loginFailures.key} like ${`acct-ip:${e.replace(/[\\%_]/g, '\\$&')}|%`})`,
  );
}

/** Old rows are dropped at most once a minute, by whichever request comes. */
let lastSweep = 0;
function sweepLater(db: Db): void {
  const now = Date.now();
  if (now - lastSweep < 60_000) return;
  lastSweep = now;
  // Rows another statement holds are skipped, so the sweep never waits on (or deadlocks with) a sign-in.
  db.execute(
    sql`delete from ${loginFailures} where ${loginFailures.key} in (
          select ${loginFailures.key} from ${loginFailures} where
            (${loginFailures.key} not like 'known:%' and ${loginFailures.windowStart} < now() - make_interval(mins => ${THROTTLE.windowMinutes}))
            or ${loginFailures.windowStart} < now() - make_interval(days => ${THROTTLE.knownAddressDays})
          for update skip locked)`,
  ).catch(() => undefined);
}
