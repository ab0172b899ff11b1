import { ACCOUNT, asTyped, type LoginResponse, type loginSchema } from '@trasa/domain';
import type { z } from 'zod';
import type { AppContext } from '../../context.js';
import { writeLog } from '../../platform/audit.js';
import { toActor } from '../../platform/auth.js';
import { currentEpoch } from '../../platform/epoch.js';
import { AppError } from '../../platform/errors.js';
import { PasswordWorkBusy, verifyPassword } from '../../platform/passwords.js';
import {
  type Attempt,
  admitSignIn,
  attemptRefused,
  attemptSucceeded,
  isAddressThrottled,
  reserveAttempt,
} from '../../platform/throttle.js';
import { presentUser } from '../users/presenter.js';
import { awaitsActivation, userByEmail } from './codes.js';
import type { RequestInfo } from './service.js';

/**
 * Signing in: the password check (throttled per account and address) and the token it gives.
 */
/**
 * A password check of a sign-in (or of the current password on a session's sensitive change): the
 * attempt is reserved before hashing (by the caller when given), hashed in the lane the account's state
 * gives, and released on success. 'throttled' when the address is over its limits; throws 503 when the
 * server is too busy.
 */
export async function checkPassword(
  ctx: AppContext,
  email: string,
  password: string,
  stored: string | null,
  req: RequestInfo,
  reserved?: Attempt,
): Promise<{ ok: boolean; attempt: Attempt } | 'throttled'> {
  const attempt = reserved ?? (await reserveAttempt(ctx.db, email, req.ip));
  if (attempt === 'throttled') return 'throttled';
  // An unknown account costs no hashing: its answer already says it does not exist (spec 1).
  if (stored === null) return { ok: false, attempt };
  // An address the account signed in from lately goes first; a slowed account (many attempts from
  // anywhere) waits behind every other password work.
  const lane = attempt.known ? 'known' : attempt.slowed ? 'suspect' : 'normal';
  try {
    return { ok: await verifyPassword(password, stored, lane), attempt };
  } catch (err) {
    if (err instanceof PasswordWorkBusy) await attemptRefused(ctx.db, attempt);
    throw err;
  }
}

/**
 * Sign-in: the attempt is counted against the address first, so an address over its limits gets 429
 * without taking a place in the sign-in gate (an address over its own limit, known so in this process,
 * without a statement); then the gate (one address's share, and all sign-ins in
 * flight), whose 503 stays counted against the address (platform/throttle.ts).
 */
export async function login(ctx: AppContext, input: z.output<typeof loginSchema>, req: RequestInfo): Promise<LoginResponse> {
  if (isAddressThrottled(req.ip)) throw new AppError(429, ACCOUNT.throttled);
  const attempt = await reserveAttempt(ctx.db, input.email, req.ip);
  if (attempt === 'throttled') throw new AppError(429, ACCOUNT.throttled);
  const leave = admitSignIn(attempt);
  if (!leave) {
    await attemptRefused(ctx.db, attempt);
    throw new PasswordWorkBusy();
  }
  try {
    return await signIn(ctx, input, req, attempt);
  } finally {
    leave();
  }
}

async function signIn(ctx: AppContext, input: z.output<typeof loginSchema>, req: RequestInfo, attempt: Attempt): Promise<LoginResponse> {
  // Read before the user: a restore after this read leaves the token in the past epoch (refused).
  const epoch = await currentEpoch(ctx.db);
  const [row] = await userByEmail(ctx.db, input.email);
  const checked = await checkPassword(ctx, input.email, input.lozinka, row?.user.passwordHash ?? null, req, attempt);
  if (checked === 'throttled') throw new AppError(429, ACCOUNT.throttled);
  const failed = (message: string, status: number, note = '') =>
    writeLog(ctx.db, {
      actor: null,
      userLabel: input.email,
      ip: req.ip,
      url: req.url,
      message: `Neuspešna prijava: ${asTyped(input.email)}${note}.`,
    }).then(() => new AppError(status, message));
  if (!row) throw await failed(ACCOUNT.unknownUser, 401);
  if (!checked.ok) throw await failed(ACCOUNT.wrongPassword, 401);
  if (row.user.status !== 'aktivan') {
    // The password was right: not a guess, so the attempt is released.
    await attemptSucceeded(ctx.db, checked.attempt, false);
    const pending = !row.user.emailPotvrdjen && (await awaitsActivation(ctx.db, row.user.id));
    throw await failed(pending ? ACCOUNT.inactiveUser : ACCOUNT.deactivatedUser, 403, ' (nalog nije aktivan)');
  }
  await attemptSucceeded(ctx.db, checked.attempt, true);
  const actor = toActor(row);
  await writeLog(ctx.db, { actor, ip: req.ip, url: req.url, message: `Korisnik ${asTyped(actor.email)} se prijavio.` });
  const token = await ctx.tokens.sign({ sub: row.user.id, tv: row.user.tokenVersion, ep: epoch });
  return { token, user: presentUser(row) };
}
