import { COMMON } from '@trasa/domain';
import { sql } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { z } from 'zod';
import { idempotencyKeys } from '../db/schema.js';
import { afterReply } from './background.js';
import type { Db } from './database.js';
import { AppError, badRequest } from './errors.js';

/**
 * A change applied once per user and key (docs/decisions.md "Offline", "A kept change is applied once"):
 * the web's queue sends each change it kept with the header `Idempotency-Key` (a UUID made when the change
 * was kept), and sends it again until an answer reaches it — the same change may therefore arrive twice (an
 * answer lost after the server applied it, two senders, a service worker stopped before it removed the
 * change). The routes a kept change uses (activity data, a comment, an upload) run their work through
 * `idempotently`, after authentication and the role check:
 *
 * - the first request with a key claims it (a row with no status yet) and applies the change; a 2xx answer
 *   is kept (status and JSON body), anything else (a refusal, an error) removes the row, so a retry is
 *   applied as a new request;
 * - a repeat of a kept answer gets it again — the same status and body, `Idempotent-Replayed: true` —
 *   once the caller still sees the activity (`guard`), and nothing is applied or logged again;
 * - a repeat while the first is still being applied gets 503 with Retry-After (the queue's "try later":
 *   offline/sendRules.ts `pauseOfStatus`; 409 would be a final refusal there). The running request
 *   renews its claim every 20 s; a claim not renewed for a minute (its request stopped with the server) is
 *   taken over by the next repeat;
 * - the same key with another method or address: 422 (a key names one change);
 * - a key is the user's: another user's equal key is another change;
 * - rows older than seven days are removed after a reply, at most once an hour (platform/background.ts).
 *
 * Not covered: the server stopping between the change's commit and the answer's record leaves a claim
 * that a repeat takes over after a minute, and applies again.
 */
export const IDEMPOTENCY_HEADER = 'idempotency-key';
export const REPLAYED_HEADER = 'Idempotent-Replayed';
/** A claim not renewed for this long belongs to a request that stopped (ms). */
export const CLAIM_STALE_MS = 60_000;
const CLAIM_RENEW_MS = 20_000;
/** How long a kept answer is kept (days). */
export const IDEMPOTENCY_RETENTION_DAYS = 7;
const SWEEP_EVERY_MS = 60 * 60_000;
/** What a repeat during the first request is told to wait (s). */
const RETRY_AFTER_S = 5;

const keyValue = z.uuid({ error: COMMON.idempotencyKeyInvalid });

/**
 * The routes' header schema: the optional key (the OpenAPI document names it); other headers pass as
 * they are (the validated object replaces request.headers).
 */
export const idempotencyHeaders = z.looseObject({
  [IDEMPOTENCY_HEADER]: keyValue.optional().meta({ description: 'A UUID naming one change: a repeat gets the first answer again.' }),
});

/** The key of a request (lower case), undefined without one; 400 in Serbian for anything but a UUID. */
export function idempotencyKeyOf(request: FastifyRequest): string | undefined {
  const sent = request.headers[IDEMPOTENCY_HEADER];
  if (sent === undefined) return undefined;
  const parsed = keyValue.safeParse(sent);
  if (!parsed.success) throw badRequest(COMMON.idempotencyKeyInvalid, { [IDEMPOTENCY_HEADER]: COMMON.idempotencyKeyInvalid });
  return parsed.data.toLowerCase();
}

class KeyBusy extends AppError {
  constructor() {
    super(503, COMMON.idempotencyBusy);
  }
}

type Claim = { kind: 'claimed' } | { kind: 'replay'; status: number; body: unknown } | { kind: 'busy' } | { kind: 'reused' };

type Row = { request: string; status: number | null; answer: unknown; stale: boolean };

/** A claim not renewed for CLAIM_STALE_MS: its request stopped. */
const staleClaim = sql`started_at < now() - make_interval(secs => ${CLAIM_STALE_MS / 1000})`;

async function claim(db: Db, userId: string, key: string, requestLine: string): Promise<Claim> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const inserted = await db.execute(
      sql`insert into ${idempotencyKeys} (user_id, key, request) values (${userId}, ${key}, ${requestLine})
          on conflict do nothing returning 1 as claimed`,
    );
    if (inserted.rows.length > 0) return { kind: 'claimed' };
    const found = await db.execute<Row>(
      sql`select request, status, answer, ${staleClaim} as stale
            from ${idempotencyKeys} where user_id = ${userId} and key = ${key}`,
    );
    const row = found.rows[0];
    // Removed meanwhile (the first request failed): claimed again.
    if (!row) continue;
    if (row.request !== requestLine) return { kind: 'reused' };
    if (row.status !== null) return { kind: 'replay', status: row.status, body: row.answer };
    if (!row.stale) return { kind: 'busy' };
    const taken = await db.execute(
      sql`update ${idempotencyKeys} set started_at = now()
           where user_id = ${userId} and key = ${key} and status is null and ${staleClaim}
          returning 1 as taken`,
    );
    return taken.rows.length > 0 ? { kind: 'claimed' } : { kind: 'busy' };
  }
  return { kind: 'busy' };
}

let lastSweep = 0;
function sweepLater(db: Db, log: Logger): void {
  const now = Date.now();
  if (now - lastSweep < SWEEP_EVERY_MS) return;
  lastSweep = now;
  afterReply(log, 'idempotency keys sweep', async () => {
    await removeOldKeys(db);
  });
}

/** Removes the keys older than IDEMPOTENCY_RETENTION_DAYS; answers how many. */
export async function removeOldKeys(db: Db): Promise<number> {
  const removed = await db.execute(
    sql`delete from ${idempotencyKeys} where started_at < now() - make_interval(days => ${IDEMPOTENCY_RETENTION_DAYS})`,
  );
  return removed.rowCount ?? 0;
}

export type IdempotencyDeps = { db: Db; log: Logger };

/**
 * Runs `apply` once per (user, key) when the request carries a key (else simply runs it). `guard` is
 * checked before a kept answer is given again: it throws when the caller may no longer see the change's
 * activity (the answer is theirs, but what it shows is the activity's).
 */
export async function idempotently(
  deps: IdempotencyDeps,
  request: FastifyRequest,
  reply: FastifyReply,
  userId: string,
  guard: () => Promise<unknown>,
  apply: () => Promise<unknown>,
): Promise<unknown> {
  const key = idempotencyKeyOf(request);
  if (key === undefined) return apply();
  const { db } = deps;
  sweepLater(db, deps.log);
  const claimed = await claim(db, userId, key, `${request.method} ${request.url}`);
  if (claimed.kind === 'reused') throw new AppError(422, COMMON.idempotencyKeyReused);
  if (claimed.kind === 'busy') {
    reply.header('Retry-After', String(RETRY_AFTER_S));
    throw new KeyBusy();
  }
  if (claimed.kind === 'replay') {
    await guard();
    reply.status(claimed.status).header(REPLAYED_HEADER, 'true');
    return claimed.body;
  }
  const mine = sql`user_id = ${userId} and key = ${key} and status is null`;
  const release = () => db.execute(sql`delete from ${idempotencyKeys} where ${mine}`).catch(() => undefined);
  const renew = setInterval(() => {
    db.execute(sql`update ${idempotencyKeys} set started_at = now() where ${mine}`).catch(() => undefined);
  }, CLAIM_RENEW_MS);
  renew.unref();
  try {
    const body = await apply();
    const status = reply.statusCode;
    if (status >= 200 && status < 300) {
      // The change is applied: a failure to keep the answer is logged, not answered (the claim then
      // blocks repeats for a minute and is taken over after it).
      await db
        .execute(sql`update ${idempotencyKeys} set status = ${status}, answer = ${JSON.stringify(body ?? null)}::json where ${mine}`)
        .catch((err) => request.log.error({ err }, 'idempotency: the answer was not kept'));
    } else await release();
    return body;
  } catch (error) {
    await release();
    throw error;
  } finally {
    clearInterval(renew);
  }
}
