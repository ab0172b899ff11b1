import {
  ACCOUNT,
  type changeInfoSchema,
  type changePasswordSchema,
  type editColumnsSchema,
  type editScriptSchema,
  type LoginResponse,
  type loginSchema,
  PUBLIC_PATHS,
  type SavedTable,
  type setNewPasswordSchema,
  type signupSchema,
} from '@trasa/domain';
import { and, eq, gt, isNull, lt, ne, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { AppContext } from '../../context.js';
import { revokedTokens, roles, userCodes, users } from '../../db/schema.js';
import { writeLog } from '../../platform/audit.js';
import { type Actor, toActor } from '../../platform/auth.js';
import { afterReply } from '../../platform/background.js';
import { builtinRoleId } from '../../platform/builtinRoles.js';
import type { Executor } from '../../platform/database.js';
import { currentEpoch } from '../../platform/epoch.js';
import { AppError, badRequest } from '../../platform/errors.js';
import { greeting } from '../../platform/mail.js';
import { assertStrongPassword, hashPassword, PasswordWorkBusy, verifyPassword } from '../../platform/passwords.js';
import { pgCode, UNIQUE_VIOLATION } from '../../platform/pgErrors.js';
import { hashCode, newCode } from '../../platform/secrets.js';
import {
  type Attempt,
  admitSignIn,
  attemptRefused,
  attemptSucceeded,
  clearAccountFailures,
  isAddressThrottled,
  reserveAttempt,
} from '../../platform/throttle.js';
import { presentUser, selectUserWithRelations } from '../users/presenter.js';

export type RequestInfo = { ip: string; url: string };

const ACTIVATION_HOURS = 24;
const RESET_HOURS = 1;
const EMAIL_CHANGE_HOURS = 24;

type CodePurpose = 'activation' | 'reset' | 'email-change';

function userByEmail(db: Executor, email: string) {
  return selectUserWithRelations(db)
    .where(and(sql`lower(${users.email}) = ${email.toLowerCase()}`, isNull(users.deletedAt)))
    .limit(1);
}

async function issueCode(db: Executor, userId: string, purpose: CodePurpose, hours: number, payload?: string): Promise<string> {
  const { code, hash } = newCode();
  await db.delete(userCodes).where(and(eq(userCodes.userId, userId), eq(userCodes.purpose, purpose)));
  await db.insert(userCodes).values({
    userId,
    purpose,
    codeHash: hash,
    payload: payload ?? null,
    expiresAt: new Date(Date.now() + hours * 3600_000),
  });
  return code;
}

/** Uses a code once: true if it was valid, unused and unexpired for this user. */
async function consumeCode(db: Executor, userId: string, purpose: CodePurpose, code: string): Promise<boolean> {
  const used = await db
    .update(userCodes)
    .set({ usedAt: new Date() })
    .where(
      and(
        eq(userCodes.userId, userId),
        eq(userCodes.purpose, purpose),
        eq(userCodes.codeHash, hashCode(code)),
        isNull(userCodes.usedAt),
        gt(userCodes.expiresAt, new Date()),
      ),
    )
    .returning({ id: userCodes.id });
  return used.length === 1;
}

/** A self-registered account that never followed its activation link (expired or not). */
async function awaitsActivation(db: Executor, userId: string): Promise<boolean> {
  const [code] = await db
    .select({ id: userCodes.id })
    .from(userCodes)
    .where(and(eq(userCodes.userId, userId), eq(userCodes.purpose, 'activation'), isNull(userCodes.usedAt)))
    .limit(1);
  return !!code;
}

const activationLink = (ctx: AppContext, email: string, code: string) =>
  `${ctx.config.appUrl}/api/user/activate?email=${encodeURIComponent(email)}&code=${encodeURIComponent(code)}`;

/** The activation mail goes to an address nobody has confirmed yet: it carries no name (greeting). */
async function mailActivation(ctx: AppContext, user: { email: string }, code: string): Promise<void> {
  await ctx.mailer.send({
    to: user.email,
    subject: 'Траса — активација налога',
    text: `${greeting(null)}\n\nда бисте активирали налог у апликацији Траса, отворите линк:\n${activationLink(ctx, user.email, code)}\n\nЛинк важи ${ACTIVATION_HOURS} сата. Ако се нисте регистровали, занемарите ову поруку.`,
  });
}

/**
 * A password check of a sign-in (or of the current password on a session's sensitive change): the
 * attempt is reserved before hashing (by the caller when given), hashed in the lane the account's state
 * gives, and released on success. 'throttled' when the address is over its limits; throws 503 when the
 * server is too busy.
 */
async function checkPassword(
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
  const token = await ctx.tokens.sign({ sub: row.user.id, tv: row.user.tokenVersion, ep: epoch });
  return { token, user: presentUser(row) };
}

/**
 * Sign-up answers the same for a taken address as for a new one (spec 1's success message): the
 * owner of the address is told by mail instead. Both paths hash and send one mail, so they take about
 * the same time.
 */
export async function signup(ctx: AppContext, input: z.output<typeof signupSchema>, req: RequestInfo): Promise<string> {
  assertStrongPassword(input.lozinka, input, 'lozinka');
  const passwordHash = await hashPassword(input.lozinka);
  const created = await ctx.db.transaction(async (tx) => {
    const [taken] = await userByEmail(tx, input.email);
    if (taken) return null;
    const inserted = await tx
      .insert(users)
      .values({
        ime: input.ime,
        prezime: input.prezime,
        email: input.email,
        emailPotvrdjen: false,
        status: 'neaktivan',
        roleId: await builtinRoleId(tx, 'Gost'),
        passwordHash,
      })
      .onConflictDoNothing()
      .returning({ id: users.id });
    const user = inserted[0];
    if (!user) return null;
    const code = await issueCode(tx, user.id, 'activation', ACTIVATION_HOURS);
    await writeLog(tx, {
      actor: null,
      userLabel: input.email,
      ip: req.ip,
      url: req.url,
      message: `Registrovan novi korisnik ${input.email}.`,
    });
    return { code };
  });
  if (created) {
    await mailActivation(ctx, input, created.code);
  } else {
    await writeLog(ctx.db, {
      actor: null,
      userLabel: input.email,
      ip: req.ip,
      url: req.url,
      message: `Pokušaj registracije sa zauzetom adresom ${input.email}.`,
    });
    await ctx.mailer.send({
      to: input.email,
      subject: 'Траса — покушај регистрације',
      text: `Поштовани/а,\n\nнеко је покушао да региструје нови налог у апликацији Траса са овом адресом, а налог са њом већ постоји. Ако сте то били ви, пријавите се на ${ctx.config.appUrl}/ или поставите нову лозинку преко „Заборавили сте лозинку?“ (${ctx.config.appUrl}${PUBLIC_PATHS.forgotPassword}).\n\nАко нисте, занемарите ову поруку: налог није мењан.`,
    });
  }
  return ACCOUNT.signupSuccess;
}

/** Follows an activation link: true when the account is now confirmed and active. */
export async function activate(ctx: AppContext, email: string, code: string, req: RequestInfo): Promise<boolean> {
  return ctx.db.transaction(async (tx) => {
    const [row] = await userByEmail(tx, email);
    if (!row || !(await consumeCode(tx, row.user.id, 'activation', code))) return false;
    await tx.update(users).set({ emailPotvrdjen: true, status: 'aktivan', updatedAt: new Date() }).where(eq(users.id, row.user.id));
    await writeLog(tx, { actor: toActor(row), ip: req.ip, url: req.url, message: `Korisnik ${row.user.email} je aktivirao nalog.` });
    return true;
  });
}

/**
 * A new activation link for a self-registered account that never used its own (from the login
 * screen). The same answer, at once, for any address; the work happens after it.
 */
export function resendActivation(ctx: AppContext, email: string, req: RequestInfo): string {
  afterReply(ctx.log, 'resend activation', async () => {
    const [row] = await userByEmail(ctx.db, email);
    if (!row || row.user.emailPotvrdjen || row.user.status === 'aktivan' || !(await awaitsActivation(ctx.db, row.user.id))) return;
    const code = await issueCode(ctx.db, row.user.id, 'activation', ACTIVATION_HOURS);
    await writeLog(ctx.db, {
      actor: toActor(row),
      ip: req.ip,
      url: req.url,
      message: `Poslat novi aktivacioni link za ${row.user.email}.`,
    });
    await mailActivation(ctx, row.user, code);
  });
  return ACCOUNT.resendActivationSent;
}

/**
 * The same answer, in the same time, whether or not the address has an account (no enumeration):
 * the answer goes first, the look-up and the mail after it.
 */
export function requestPasswordReset(ctx: AppContext, email: string, req: RequestInfo): string {
  afterReply(ctx.log, 'password reset mail', async () => {
    const [row] = await userByEmail(ctx.db, email);
    if (!row) return;
    const code = await issueCode(ctx.db, row.user.id, 'reset', RESET_HOURS);
    const link = `${ctx.config.appUrl}${PUBLIC_PATHS.resetPassword}?email=${encodeURIComponent(row.user.email)}&code=${encodeURIComponent(code)}`;
    await writeLog(ctx.db, { actor: toActor(row), ip: req.ip, url: req.url, message: `Zatražena promena lozinke za ${row.user.email}.` });
    await ctx.mailer.send({
      to: row.user.email,
      subject: 'Траса — промена лозинке',
      text: `${greeting(row.user.emailPotvrdjen ? row.user.ime : null)}\n\nза промену лозинке у апликацији Траса отворите линк:\n${link}\n\nЛинк важи ${RESET_HOURS} сат и може се употребити једном. Ако нисте тражили промену лозинке, занемарите ову поруку.`,
    });
  });
  return ACCOUNT.forgotSent;
}

/** How long the link of an imported account's first password stays valid. */
export const SETUP_HOURS = 72;

/**
 * The mail an account made by an import gets: a link (through the reset form) to choose its first
 * password; the spreadsheet never carries passwords (docs/decisions.md "Imports").
 */
export async function sendPasswordSetup(ctx: AppContext, user: { id: string; email: string; ime: string }): Promise<void> {
  const code = await issueCode(ctx.db, user.id, 'reset', SETUP_HOURS);
  const link = `${ctx.config.appUrl}${PUBLIC_PATHS.resetPassword}?email=${encodeURIComponent(user.email)}&code=${encodeURIComponent(code)}`;
  await ctx.mailer.send({
    to: user.email,
    subject: 'Траса — ваш налог',
    text: `${greeting(user.ime)}\n\nза вас је направљен налог у апликацији Траса. Лозинку постављате на линку:\n${link}\n\nЛинк важи ${SETUP_HOURS} сата и може се употребити једном. После тога лозинку можете поново поставити преко „Заборавили сте лозинку?“.`,
  });
}

/** A new password revokes every token and drops a pending e-mail change (it may be a hijacker's). */
function newPasswordSet(passwordHash: string) {
  return { passwordHash, tokenVersion: sql`${users.tokenVersion} + 1`, updatedAt: new Date() };
}
const dropEmailChange = (db: Executor, userId: string) =>
  db.delete(userCodes).where(and(eq(userCodes.userId, userId), eq(userCodes.purpose, 'email-change')));

export async function setNewPassword(ctx: AppContext, input: z.output<typeof setNewPasswordSchema>, req: RequestInfo): Promise<string> {
  const [owner] = await userByEmail(ctx.db, input.email);
  // A weak password is refused before the code is used, so the link still works for a better one.
  assertStrongPassword(input.password, owner?.user ?? { email: input.email }, 'password');
  const passwordHash = await hashPassword(input.password);
  await ctx.db.transaction(async (tx) => {
    const [row] = await userByEmail(tx, input.email);
    if (!row || !(await consumeCode(tx, row.user.id, 'reset', input.resetCode))) {
      throw new AppError(400, ACCOUNT.resetLinkInvalid);
    }
    await tx.update(users).set(newPasswordSet(passwordHash)).where(eq(users.id, row.user.id));
    await dropEmailChange(tx, row.user.id);
    await writeLog(tx, {
      actor: toActor(row),
      ip: req.ip,
      url: req.url,
      message: `Korisnik ${row.user.email} je promenio lozinku preko linka.`,
    });
  });
  await clearAccountFailures(ctx.db, input.email);
  return ACCOUNT.resetSuccess;
}

/**
 * The current password a session must give for a sensitive change: counted like a sign-in of the
 * account from this address (someone holding a session must not guess it without limit).
 */
async function assertCurrentPassword(ctx: AppContext, actor: Actor, password: string, field: string, req: RequestInfo) {
  const checked = await checkPassword(ctx, actor.email, password, actor.row.user.passwordHash, req);
  if (checked === 'throttled') throw new AppError(429, ACCOUNT.passwordThrottled);
  if (!checked.ok) throw badRequest(ACCOUNT.wrongCurrentPassword, { [field]: ACCOUNT.wrongCurrentPassword });
  await attemptSucceeded(ctx.db, checked.attempt, false);
}

export async function changePassword(
  ctx: AppContext,
  actor: Actor,
  input: z.output<typeof changePasswordSchema>,
  req: RequestInfo,
): Promise<{ message: string; token: string }> {
  await assertCurrentPassword(ctx, actor, input.password, 'password', req);
  assertStrongPassword(input.newPassword, actor, 'newPassword');
  const passwordHash = await hashPassword(input.newPassword);
  const [updated] = await ctx.db
    .update(users)
    .set(newPasswordSet(passwordHash))
    .where(eq(users.id, actor.id))
    .returning({ tokenVersion: users.tokenVersion });
  await dropEmailChange(ctx.db, actor.id);
  await writeLog(ctx.db, { actor, ip: req.ip, url: req.url, message: `Korisnik ${actor.email} je promenio lozinku.` });
  // Older tokens are revoked; the session that changed the password gets a fresh one.
  const token = await ctx.tokens.sign({
    sub: actor.id,
    tv: updated?.tokenVersion ?? actor.tokenVersion + 1,
    ep: actor.epoch ?? (await currentEpoch(ctx.db)),
  });
  return { message: ACCOUNT.passwordChanged, token };
}

const addressTaken = async (db: Executor, email: string, exceptId: string) =>
  (
    await db
      .select({ id: users.id })
      .from(users)
      .where(and(sql`lower(${users.email}) = ${email.toLowerCase()}`, ne(users.id, exceptId)))
      .limit(1)
  ).length > 0;

/**
 * Name changes take effect at once. A new e-mail needs the current password and takes effect only
 * when confirmed from the new address (a mailed single-use link, 24 h); the old address is told.
 * An address another account already has answers exactly as a free one (no address oracle): the name
 * changes, the old address gets the same notice, the audit row reads the same, but no link is issued
 * (a pending one is dropped, as a new request replaces it) and the address's owner is told someone
 * tried to use it (docs/decisions.md "Account: changing the e-mail to a taken address").
 */
export async function changeInfo(
  ctx: AppContext,
  actor: Actor,
  input: z.output<typeof changeInfoSchema>,
  req: RequestInfo,
): Promise<string> {
  const emailChanges = input.email !== actor.email.toLowerCase();
  if (emailChanges) {
    if (!input.lozinka) throw badRequest(ACCOUNT.currentPasswordForEmail, { lozinka: ACCOUNT.currentPasswordForEmail });
    await assertCurrentPassword(ctx, actor, input.lozinka, 'lozinka', req);
  }
  const outcome = await ctx.db.transaction(async (tx) => {
    await tx.update(users).set({ ime: input.ime, prezime: input.prezime, updatedAt: new Date() }).where(eq(users.id, actor.id));
    await writeLog(tx, {
      actor,
      ip: req.ip,
      url: req.url,
      message: emailChanges
        ? `Korisnik ${actor.email} je izmenio svoje podatke i zatražio promenu imejl adrese u ${input.email}.`
        : `Korisnik ${actor.email} je izmenio svoje podatke.`,
    });
    if (!emailChanges) return null;
    if (await addressTaken(tx, input.email, actor.id)) {
      await dropEmailChange(tx, actor.id);
      return { code: null };
    }
    return { code: await issueCode(tx, actor.id, 'email-change', EMAIL_CHANGE_HOURS, input.email) };
  });
  if (!outcome) return ACCOUNT.infoChanged;
  if (outcome.code) {
    await ctx.mailer.send({
      to: input.email,
      subject: 'Траса — потврда нове имејл адресе',
      text: `${greeting(null)}\n\nда бисте ову адресу потврдили као нову адресу свог налога у апликацији Траса, отворите линк:\n${ctx.config.appUrl}/api/user/confirm-email?code=${encodeURIComponent(outcome.code)}\n\nЛинк важи ${EMAIL_CHANGE_HOURS} сата и може се употребити једном. После потврде пријављујете се новом адресом. Ако нисте тражили ову промену, занемарите поруку.`,
    });
  } else {
    await ctx.mailer.send({
      to: input.email,
      subject: 'Траса — покушај употребе ваше имејл адресе',
      text: `Поштовани/а,\n\nкорисник другог налога у апликацији Траса покушао је да ову адресу постави као адресу свог налога. Ваш налог није мењан и адреса остаје ваша.\n\nАко имате питања, обратите се администратору.`,
    });
  }
  await ctx.mailer.send({
    to: actor.email,
    origin: 'email-change',
    subject: 'Траса — захтев за промену имејл адресе',
    text: `${greeting(actor.ime)}\n\nза ваш налог у апликацији Траса затражена је промена имејл адресе у ${input.email}. Промена важи тек када се потврди са нове адресе.\n\nАко то нисте били ви, одмах промените лозинку (тиме се захтев поништава) и обратите се администратору.`,
  });
  return ACCOUNT.emailChangePending;
}

/**
 * Follows the link mailed to a new address: the address becomes the account's, confirmed, and every
 * session ends (the person signs in with the new address). False for a used, expired or unknown code,
 * or when the address was taken meanwhile.
 */
export async function confirmEmail(ctx: AppContext, code: string, req: RequestInfo): Promise<boolean> {
  if (!code) return false;
  // The address taken between the check and the update (the unique index): the link fails, unused.
  return confirmEmailOnce(ctx, code, req).catch((err) => {
    if (pgCode(err) === UNIQUE_VIOLATION) return false;
    throw err;
  });
}

async function confirmEmailOnce(ctx: AppContext, code: string, req: RequestInfo): Promise<boolean> {
  return ctx.db.transaction(async (tx) => {
    const [used] = await tx
      .update(userCodes)
      .set({ usedAt: new Date() })
      .where(
        and(
          eq(userCodes.codeHash, hashCode(code)),
          eq(userCodes.purpose, 'email-change'),
          isNull(userCodes.usedAt),
          gt(userCodes.expiresAt, new Date()),
        ),
      )
      .returning({ userId: userCodes.userId, payload: userCodes.payload });
    if (!used?.payload) return false;
    const [row] = await selectUserWithRelations(tx)
      .where(and(eq(users.id, used.userId), isNull(users.deletedAt)))
      .limit(1);
    if (!row || (await addressTaken(tx, used.payload, row.user.id))) return false;
    await tx
      .update(users)
      .set({ email: used.payload, emailPotvrdjen: true, tokenVersion: sql`${users.tokenVersion} + 1`, updatedAt: new Date() })
      .where(eq(users.id, row.user.id));
    await writeLog(tx, {
      actor: toActor(row),
      ip: req.ip,
      url: req.url,
      message: `Korisnik ${row.user.email} je potvrdio novu imejl adresu ${used.payload}.`,
    });
    return true;
  });
}

/** Signs out the caller's token (until it would have expired); expired rows are dropped on the way. */
export async function logout(ctx: AppContext, actor: Actor, req: RequestInfo): Promise<string> {
  if (actor.session) {
    await ctx.db.insert(revokedTokens).values({ jti: actor.session.jti, expiresAt: actor.session.expiresAt }).onConflictDoNothing();
  }
  await ctx.db.delete(revokedTokens).where(lt(revokedTokens.expiresAt, new Date()));
  await writeLog(ctx.db, { actor, ip: req.ip, url: req.url, message: `Korisnik ${actor.email} se odjavio.` });
  return ACCOUNT.loggedOut;
}

/** Signs out every token of the caller's, this one included (the token version moves on). */
export async function logoutAll(ctx: AppContext, actor: Actor, req: RequestInfo): Promise<string> {
  await ctx.db
    .update(users)
    .set({ tokenVersion: sql`${users.tokenVersion} + 1`, updatedAt: new Date() })
    .where(eq(users.id, actor.id));
  await writeLog(ctx.db, { actor, ip: req.ip, url: req.url, message: `Korisnik ${actor.email} se odjavio sa svih uređaja.` });
  return ACCOUNT.loggedOutEverywhere;
}

const MAX_SAVED_TABLES = 100;

export async function saveColumns(ctx: AppContext, actor: Actor, input: z.output<typeof editColumnsSchema>): Promise<string> {
  const saved = (Array.isArray(actor.row.user.tables) ? actor.row.user.tables : []) as SavedTable[];
  const next = [...saved.filter((t) => t.imeTabele !== input.imeTabele), input].slice(-MAX_SAVED_TABLES);
  await ctx.db.update(users).set({ tables: next, updatedAt: new Date() }).where(eq(users.id, actor.id));
  return ACCOUNT.columnsSaved;
}

/** The script the web shows its texts in for this user (issue 13 item 10), saved like the table layouts. */
export async function saveScript(ctx: AppContext, actor: Actor, input: z.output<typeof editScriptSchema>): Promise<string> {
  await ctx.db.update(users).set({ pismo: input.pismo, updatedAt: new Date() }).where(eq(users.id, actor.id));
  return ACCOUNT.scriptSaved;
}

/**
 * Deleting one's own account anonymises the person and marks the account deleted; what they created
 * stays (their comments show 'Korisnik je obrisan'). The last Admin cannot delete their account.
 */
export async function deleteOwnAccount(ctx: AppContext, actor: Actor, req: RequestInfo): Promise<string> {
  await ctx.db.transaction(async (tx) => {
    if (actor.role === 'Admin') {
      const [others] = await tx
        .select({ n: sql<number>`count(*)::int` })
        .from(users)
        .innerJoin(roles, eq(roles.id, users.roleId))
        .where(and(eq(roles.baseRole, 'Admin'), isNull(users.deletedAt), eq(users.status, 'aktivan'), ne(users.id, actor.id)));
      if (!others || others.n === 0) throw new AppError(409, ACCOUNT.lastAdmin);
    }
    await writeLog(tx, { actor, ip: req.ip, url: req.url, message: `Korisnik ${actor.email} je obrisao svoj nalog.` });
    await tx
      .update(users)
      .set({
        ime: 'Obrisan',
        prezime: 'korisnik',
        email: `obrisan-${actor.id}@obrisan.invalid`,
        status: 'neaktivan',
        emailPotvrdjen: false,
        groupId: null,
        tables: [],
        passwordHash: '!',
        tokenVersion: sql`${users.tokenVersion} + 1`,
        deletedAt: new Date(),
        updatedAt: new Date(),
      })
      .where(eq(users.id, actor.id));
    await tx.delete(userCodes).where(eq(userCodes.userId, actor.id));
  });
  return ACCOUNT.accountDeleted;
}
