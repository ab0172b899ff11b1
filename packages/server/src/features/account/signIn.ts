import { ACCOUNT, type LoginResponse, type loginSchema } from '@trasa/domain';
import type { z } from 'zod';
import type { AppContext } from '../../context.js';
import { writeLog } from '../../platform/audit.js';
import { toActor } from '../../platform/auth.js';
import { AppError } from '../../platform/errors.js';
import { PasswordWorkBusy, verifyPassword } from '../../platform/passwords.js';
import { type Attempt, admitSignIn, attemptAbandoned, attemptSucceeded, reserveAttempt } from '../../platform/throttle.js';
import { presentUser } from '../users/presenter.js';
import { awaitsActivation, userByEmail } from './codes.js';
import type { RequestInfo } from './service.js';

/**
 * Signing in: the password check (throttled per account and address) and the token it gives.
 */
/**
 * A password check of a sign-in (or of the current password on a session's sensitive change): the
 * attempt is reserved before hashing, hashed in the lane the account's state gives, and released on
 * success. 'throttled' when the address is over its limits; throws 503 when the server is too busy.
 */
export async function checkPassword(
  ctx: AppContext,
  email: string,
  password: string,
  stored: string | null,
  req: RequestInfo,
): Promise<{ ok: boolean; attempt: Attempt } | 'throttled'> {
  const attempt = await reserveAttempt(ctx.db, email, req.ip);
  if (attempt === 'throttled') return 'throttled';
  // An unknown account costs no hashing: its answer already says it does not exist (spec 1).
  if (stored === null) return { ok: false, attempt };
  // An address the account signed in from lately goes first; a slowed account (many attempts from
  // anywhere) waits behind every other password work.
  const lane = attempt.known ? 'known' : attempt.slowed ? 'suspect' : 'normal';
  try {
    return { ok: await verifyPassword(password, stored, lane), attempt };
  } catch (err) {
    if (err instanceof PasswordWorkBusy) await attemptAbandoned(ctx.db, attempt);
    throw err;
  }
}

export async function login(ctx: AppContext, input: z.output<typeof loginSchema>, req: RequestInfo): Promise<LoginResponse> {
  const leave = admitSignIn(input.email, req.ip);
  if (!leave) throw new PasswordWorkBusy();
  try {
    return await signIn(ctx, input, req);
  } finally {
    leave();
  }
}

async function signIn(ctx: AppContext, input: z.output<typeof loginSchema>, req: RequestInfo): Promise<LoginResponse> {
  const [row] = await userByEmail(ctx.db, input.email);
  const checked = await checkPassword(ctx, input.email, input.lozinka, row?.user.passwordHash ?? null, req);
  if (checked === 'throttled') throw new AppError(429, ACCOUNT.throttled);
  const failed = (message: string, status: number, note = '') =>
    writeLog(ctx.db, {
      actor: null,
      userLabel: input.email,
      ip: req.ip,
      url: req.url,
      message: `Neuspešna prijava: ${input.email}${note}.`,
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
  await writeLog(ctx.db, { actor, ip: req.ip, url: req.url, message: `Korisnik ${actor.email} se prijavio.` });
  const token = await ctx.tokens.sign({ sub: row.user.id, tv: row.user.tokenVersion });
  return { token, user: presentUser(row) };
}
