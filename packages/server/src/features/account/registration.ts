import { ACCOUNT, asTyped, PUBLIC_PATHS, type setNewPasswordSchema, type signupSchema } from '@trasa/domain';
import { and, eq, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { AppContext } from '../../context.js';
import { userCodes, users } from '../../db/schema.js';
import { writeLog } from '../../platform/audit.js';
import { toActor } from '../../platform/auth.js';
import { afterReply } from '../../platform/background.js';
import { builtinRoleId } from '../../platform/builtinRoles.js';
import type { Executor } from '../../platform/database.js';
import { AppError } from '../../platform/errors.js';
import { greeting } from '../../platform/mail.js';
import { assertStrongPassword, hashPassword } from '../../platform/passwords.js';
import { scriptOfUser } from '../../platform/script.js';
import { clearAccountFailures } from '../../platform/throttle.js';
import { ACTIVATION_HOURS, awaitsActivation, consumeCode, issueCode, mailActivation, RESET_HOURS, userByEmail } from './codes.js';
import type { RequestInfo } from './service.js';

/**
 * Getting into an account: sign-up and its activation link, a password reset or an imported account's first
 * password, and setting the new password.
 */
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
    if (taken) return { taken: scriptOfUser(taken.user.pismo) };
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
        // The script the person signed up in is their first choice (their mails come in it).
        pismo: req.script,
      })
      .onConflictDoNothing()
      .returning({ id: users.id });
    const user = inserted[0];
    if (!user) return { taken: req.script };
    const code = await issueCode(tx, user.id, 'activation', ACTIVATION_HOURS);
    await writeLog(tx, {
      actor: null,
      userLabel: input.email,
      ip: req.ip,
      url: req.url,
      message: `Registrovan novi korisnik ${asTyped(input.email)}.`,
    });
    return { code };
  });
  if (created.code !== undefined) {
    await mailActivation(ctx, input, created.code, req.script);
  } else {
    await writeLog(ctx.db, {
      actor: null,
      userLabel: input.email,
      ip: req.ip,
      url: req.url,
      message: `Pokušaj registracije sa zauzetom adresom ${asTyped(input.email)}.`,
    });
    await ctx.mailer.send({
      to: input.email,
      script: created.taken ?? req.script,
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
    await writeLog(tx, {
      actor: toActor(row),
      ip: req.ip,
      url: req.url,
      message: `Korisnik ${asTyped(row.user.email)} je aktivirao nalog.`,
    });
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
      message: `Poslat novi aktivacioni link za ${asTyped(row.user.email)}.`,
    });
    await mailActivation(ctx, row.user, code, scriptOfUser(row.user.pismo));
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
    await writeLog(ctx.db, {
      actor: toActor(row),
      ip: req.ip,
      url: req.url,
      message: `Zatražena promena lozinke za ${asTyped(row.user.email)}.`,
    });
    await ctx.mailer.send({
      to: row.user.email,
      script: scriptOfUser(row.user.pismo),
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
export async function sendPasswordSetup(ctx: AppContext, user: { id: string; email: string; ime: string; pismo: string }): Promise<void> {
  const code = await issueCode(ctx.db, user.id, 'reset', SETUP_HOURS);
  const link = `${ctx.config.appUrl}${PUBLIC_PATHS.resetPassword}?email=${encodeURIComponent(user.email)}&code=${encodeURIComponent(code)}`;
  await ctx.mailer.send({
    to: user.email,
    script: scriptOfUser(user.pismo),
    subject: 'Траса — ваш налог',
    text: `${greeting(user.ime)}\n\nза вас је направљен налог у апликацији Траса. Лозинку постављате на линку:\n${link}\n\nЛинк важи ${SETUP_HOURS} сата и може се употребити једном. После тога лозинку можете поново поставити преко „Заборавили сте лозинку?“.`,
  });
}

/** A new password revokes every token and drops a pending e-mail change (it may be a hijacker's). */
export function newPasswordSet(passwordHash: string) {
  return { passwordHash, tokenVersion: sql`${users.tokenVersion} + 1`, updatedAt: new Date() };
}
export const dropEmailChange = (db: Executor, userId: string) =>
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
      message: `Korisnik ${asTyped(row.user.email)} je promenio lozinku preko linka.`,
    });
  });
  await clearAccountFailures(ctx.db, input.email);
  return ACCOUNT.resetSuccess;
}
