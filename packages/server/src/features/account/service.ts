import {
  ACCOUNT,
  asTyped,
  type changeInfoSchema,
  type changePasswordSchema,
  type editColumnsSchema,
  type editScriptSchema,
  type SavedTable,
  type Script,
} from '@trasa/domain';
import { and, eq, gt, isNull, lt, ne, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { AppContext } from '../../context.js';
import { revokedTokens, roles, userCodes, users } from '../../db/schema.js';
import { writeLog } from '../../platform/audit.js';
import { type Actor, toActor } from '../../platform/auth.js';
import type { Executor } from '../../platform/database.js';
import { currentEpoch } from '../../platform/epoch.js';
import { AppError, badRequest } from '../../platform/errors.js';
import { greeting } from '../../platform/mail.js';
import { assertStrongPassword, hashPassword } from '../../platform/passwords.js';
import { pgCode, UNIQUE_VIOLATION } from '../../platform/pgErrors.js';
import { scriptOfUser } from '../../platform/script.js';
import { hashCode } from '../../platform/secrets.js';
import { attemptSucceeded } from '../../platform/throttle.js';
import { selectUserWithRelations } from '../users/presenter.js';
import { EMAIL_CHANGE_HOURS, issueCode } from './codes.js';
import { dropEmailChange, newPasswordSet } from './registration.js';
import { checkPassword } from './signIn.js';

export {
  activate,
  requestPasswordReset,
  resendActivation,
  SETUP_HOURS,
  sendPasswordSetup,
  setNewPassword,
  signup,
} from './registration.js';
export { login } from './signIn.js';

/** Where a request came from, and the script it is answered in (platform/script.ts): its mails follow it where no user's choice applies. */
export type RequestInfo = { ip: string; url: string; script: Script };

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
  await writeLog(ctx.db, { actor, ip: req.ip, url: req.url, message: `Korisnik ${asTyped(actor.email)} je promenio lozinku.` });
  // Older tokens are revoked; the session that changed the password gets a fresh one.
  const token = await ctx.tokens.sign({
    sub: actor.id,
    tv: updated?.tokenVersion ?? actor.tokenVersion + 1,
    ep: actor.epoch ?? (await currentEpoch(ctx.db)),
  });
  return { message: ACCOUNT.passwordChanged, token };
}

/** Another account holding the address, with its owner's script (the mail telling them goes in it). */
const takenBy = async (db: Executor, email: string, exceptId: string) =>
  (
    await db
      .select({ pismo: users.pismo })
      .from(users)
      .where(and(sql`lower(${users.email}) = ${email.toLowerCase()}`, ne(users.id, exceptId)))
      .limit(1)
  )[0];
const addressTaken = async (db: Executor, email: string, exceptId: string) => (await takenBy(db, email, exceptId)) !== undefined;

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
        ? `Korisnik ${asTyped(actor.email)} je izmenio svoje podatke i zatražio promenu imejl adrese u ${asTyped(input.email)}.`
        : `Korisnik ${asTyped(actor.email)} je izmenio svoje podatke.`,
    });
    if (!emailChanges) return null;
    const owner = await takenBy(tx, input.email, actor.id);
    if (owner) {
      await dropEmailChange(tx, actor.id);
      return { code: null, owner: scriptOfUser(owner.pismo) };
    }
    return { code: await issueCode(tx, actor.id, 'email-change', EMAIL_CHANGE_HOURS, input.email) };
  });
  if (!outcome) return ACCOUNT.infoChanged;
  const own = scriptOfUser(actor.row.user.pismo);
  if (outcome.code) {
    await ctx.mailer.send({
      to: input.email,
      script: own,
      subject: 'Траса — потврда нове имејл адресе',
      text: `${greeting(null)}\n\nда бисте ову адресу потврдили као нову адресу свог налога у апликацији Траса, отворите линк:\n${ctx.config.appUrl}/api/user/confirm-email?code=${encodeURIComponent(outcome.code)}\n\nЛинк важи ${EMAIL_CHANGE_HOURS} сата и може се употребити једном. После потврде пријављујете се новом адресом. Ако нисте тражили ову промену, занемарите поруку.`,
    });
  } else {
    await ctx.mailer.send({
      to: input.email,
      script: outcome.owner ?? own,
      subject: 'Траса — покушај употребе ваше имејл адресе',
      text: `Поштовани/а,\n\nкорисник другог налога у апликацији Траса покушао је да ову адресу постави као адресу свог налога. Ваш налог није мењан и адреса остаје ваша.\n\nАко имате питања, обратите се администратору.`,
    });
  }
  await ctx.mailer.send({
    to: actor.email,
    script: own,
    origin: 'email-change',
    subject: 'Траса — захтев за промену имејл адресе',
    text: `${greeting(actor.ime)}\n\nза ваш налог у апликацији Траса затражена је промена имејл адресе у ${asTyped(input.email)}. Промена важи тек када се потврди са нове адресе.\n\nАко то нисте били ви, одмах промените лозинку (тиме се захтев поништава) и обратите се администратору.`,
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
      message: `Korisnik ${asTyped(row.user.email)} je potvrdio novu imejl adresu ${asTyped(used.payload)}.`,
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
  await writeLog(ctx.db, { actor, ip: req.ip, url: req.url, message: `Korisnik ${asTyped(actor.email)} se odjavio.` });
  return ACCOUNT.loggedOut;
}

/** Signs out every token of the caller's, this one included (the token version moves on). */
export async function logoutAll(ctx: AppContext, actor: Actor, req: RequestInfo): Promise<string> {
  await ctx.db
    .update(users)
    .set({ tokenVersion: sql`${users.tokenVersion} + 1`, updatedAt: new Date() })
    .where(eq(users.id, actor.id));
  await writeLog(ctx.db, { actor, ip: req.ip, url: req.url, message: `Korisnik ${asTyped(actor.email)} se odjavio sa svih uređaja.` });
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
    await writeLog(tx, { actor, ip: req.ip, url: req.url, message: `Korisnik ${asTyped(actor.email)} je obrisao svoj nalog.` });
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
