import {
  ACCOUNT,
  type changeInfoSchema,
  type changePasswordSchema,
  type editColumnsSchema,
  type LoginResponse,
  type loginSchema,
  PUBLIC_PATHS,
  type SavedTable,
  type setNewPasswordSchema,
  type signupSchema,
} from '@trasa/domain';
import { and, eq, gt, isNull, ne, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { builtinRoleId } from '../../bootstrap.js';
import type { AppContext } from '../../context.js';
import { roles, userCodes, users } from '../../db/schema.js';
import { writeLog } from '../../platform/audit.js';
import { type Actor, toActor } from '../../platform/auth.js';
import type { Executor } from '../../platform/database.js';
import { AppError, conflict } from '../../platform/errors.js';
import { dummyHash, hashPassword, verifyPassword } from '../../platform/passwords.js';
import { hashCode, newCode } from '../../platform/secrets.js';
import { clearAccountFailures, isThrottled, recordFailure } from '../../platform/throttle.js';
import { presentUser, selectUserWithRelations } from '../users/presenter.js';

export type RequestInfo = { ip: string; url: string };

const ACTIVATION_HOURS = 24;
const RESET_HOURS = 1;

function userByEmail(db: Executor, email: string) {
  return selectUserWithRelations(db)
    .where(and(sql`lower(${users.email}) = ${email.toLowerCase()}`, isNull(users.deletedAt)))
    .limit(1);
}

async function issueCode(db: Executor, userId: string, purpose: 'activation' | 'reset', hours: number): Promise<string> {
  const { code, hash } = newCode();
  await db.delete(userCodes).where(and(eq(userCodes.userId, userId), eq(userCodes.purpose, purpose)));
  await db.insert(userCodes).values({
    userId,
    purpose,
    codeHash: hash,
    expiresAt: new Date(Date.now() + hours * 3600_000),
  });
  return code;
}

/** Uses a code once: true if it was valid, unused and unexpired for this user. */
async function consumeCode(db: Executor, userId: string, purpose: 'activation' | 'reset', code: string): Promise<boolean> {
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

export async function login(ctx: AppContext, input: z.output<typeof loginSchema>, req: RequestInfo): Promise<LoginResponse> {
  if (await isThrottled(ctx.db, input.email, req.ip)) throw new AppError(429, ACCOUNT.throttled);
  const [row] = await userByEmail(ctx.db, input.email);
  const fail = async (message: string, status: number) => {
    await recordFailure(ctx.db, input.email, req.ip);
    await writeLog(ctx.db, {
      actor: null,
      userLabel: input.email,
      ip: req.ip,
      url: req.url,
      message: `Neuspešna prijava: ${input.email}.`,
    });
    return new AppError(status, message);
  };
  if (!row) {
    await verifyPassword(input.lozinka, await dummyHash());
    throw await fail(ACCOUNT.unknownUser, 401);
  }
  const ok = await verifyPassword(input.lozinka, row.user.passwordHash);
  if (!ok) throw await fail(ACCOUNT.wrongPassword, 401);
  if (row.user.status !== 'aktivan') throw await fail(ACCOUNT.inactiveUser, 403);
  await clearAccountFailures(ctx.db, input.email);
  const actor = toActor(row);
  await writeLog(ctx.db, { actor, ip: req.ip, url: req.url, message: `Korisnik ${actor.email} se prijavio.` });
  const token = await ctx.tokens.sign({ sub: row.user.id, tv: row.user.tokenVersion });
  return { token, user: presentUser(row) };
}

export async function signup(ctx: AppContext, input: z.output<typeof signupSchema>, req: RequestInfo): Promise<string> {
  const passwordHash = await hashPassword(input.lozinka);
  const { userId, code } = await ctx.db.transaction(async (tx) => {
    const [taken] = await userByEmail(tx, input.email);
    if (taken) throw conflict(ACCOUNT.signupEmailTaken, { email: ACCOUNT.signupEmailTaken });
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
    const created = inserted[0];
    if (!created) throw conflict(ACCOUNT.signupEmailTaken, { email: ACCOUNT.signupEmailTaken });
    const code = await issueCode(tx, created.id, 'activation', ACTIVATION_HOURS);
    await writeLog(tx, {
      actor: null,
      userLabel: input.email,
      ip: req.ip,
      url: req.url,
      message: `Registrovan novi korisnik ${input.email}.`,
    });
    return { userId: created.id, code };
  });
  const link = `${ctx.config.appUrl}/api/user/activate?email=${encodeURIComponent(input.email)}&code=${encodeURIComponent(code)}`;
  await ctx.mailer.send({
    to: input.email,
    subject: 'Траса — активација налога',
    text: `Поштовани/а ${input.ime},\n\nда бисте активирали налог у апликацији Траса, отворите линк:\n${link}\n\nЛинк важи ${ACTIVATION_HOURS} сата. Ако се нисте регистровали, занемарите ову поруку.`,
  });
  ctx.log.debug({ userId }, 'signup');
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

/** The same answer whether or not the address has an account (no enumeration). */
export async function requestPasswordReset(ctx: AppContext, email: string, req: RequestInfo): Promise<string> {
  const [row] = await userByEmail(ctx.db, email);
  if (row) {
    const code = await issueCode(ctx.db, row.user.id, 'reset', RESET_HOURS);
    const link = `${ctx.config.appUrl}${PUBLIC_PATHS.resetPassword}?email=${encodeURIComponent(row.user.email)}&code=${encodeURIComponent(code)}`;
    await writeLog(ctx.db, { actor: toActor(row), ip: req.ip, url: req.url, message: `Zatražena promena lozinke za ${row.user.email}.` });
    await ctx.mailer.send({
      to: row.user.email,
      subject: 'Траса — промена лозинке',
      text: `Поштовани/а ${row.user.ime},\n\nза промену лозинке у апликацији Траса отворите линк:\n${link}\n\nЛинк важи ${RESET_HOURS} сат и може се употребити једном. Ако нисте тражили промену лозинке, занемарите ову поруку.`,
    });
  }
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
    text: `Поштовани/а ${user.ime},\n\nза вас је направљен налог у апликацији Траса. Лозинку постављате на линку:\n${link}\n\nЛинк важи ${SETUP_HOURS} сата и може се употребити једном. После тога лозинку можете поново поставити преко „Заборавили сте лозинку?“.`,
  });
}

export async function setNewPassword(ctx: AppContext, input: z.output<typeof setNewPasswordSchema>, req: RequestInfo): Promise<string> {
  const passwordHash = await hashPassword(input.password);
  await ctx.db.transaction(async (tx) => {
    const [row] = await userByEmail(tx, input.email);
    if (!row || !(await consumeCode(tx, row.user.id, 'reset', input.resetCode))) {
      throw new AppError(400, ACCOUNT.resetLinkInvalid);
    }
    await tx
      .update(users)
      .set({ passwordHash, tokenVersion: sql`${users.tokenVersion} + 1`, updatedAt: new Date() })
      .where(eq(users.id, row.user.id));
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

export async function changePassword(
  ctx: AppContext,
  actor: Actor,
  input: z.output<typeof changePasswordSchema>,
  req: RequestInfo,
): Promise<{ message: string; token: string }> {
  // Guessing the current password with a stolen session counts like failed sign-ins (and blocks them).
  if (await isThrottled(ctx.db, actor.email, req.ip)) throw new AppError(429, ACCOUNT.passwordThrottled);
  if (!(await verifyPassword(input.password, actor.row.user.passwordHash))) {
    await recordFailure(ctx.db, actor.email, req.ip);
    throw new AppError(400, ACCOUNT.wrongCurrentPassword, { password: ACCOUNT.wrongCurrentPassword });
  }
  await clearAccountFailures(ctx.db, actor.email);
  const passwordHash = await hashPassword(input.newPassword);
  const [updated] = await ctx.db
    .update(users)
    .set({ passwordHash, tokenVersion: sql`${users.tokenVersion} + 1`, updatedAt: new Date() })
    .where(eq(users.id, actor.id))
    .returning({ tokenVersion: users.tokenVersion });
  await writeLog(ctx.db, { actor, ip: req.ip, url: req.url, message: `Korisnik ${actor.email} je promenio lozinku.` });
  // Older tokens are revoked; the session that changed the password gets a fresh one.
  const token = await ctx.tokens.sign({ sub: actor.id, tv: updated?.tokenVersion ?? actor.tokenVersion + 1 });
  return { message: ACCOUNT.passwordChanged, token };
}

export async function changeInfo(
  ctx: AppContext,
  actor: Actor,
  input: z.output<typeof changeInfoSchema>,
  req: RequestInfo,
): Promise<string> {
  await ctx.db.transaction(async (tx) => {
    const [taken] = await tx
      .select({ id: users.id })
      .from(users)
      .where(and(sql`lower(${users.email}) = ${input.email}`, ne(users.id, actor.id)))
      .limit(1);
    if (taken) throw conflict(ACCOUNT.infoEmailTaken, { email: ACCOUNT.infoEmailTaken });
    await tx
      .update(users)
      .set({ ime: input.ime, prezime: input.prezime, email: input.email, updatedAt: new Date() })
      .where(eq(users.id, actor.id));
    await writeLog(tx, { actor, ip: req.ip, url: req.url, message: `Korisnik ${actor.email} je izmenio svoje podatke.` });
  });
  return ACCOUNT.infoChanged;
}

const MAX_SAVED_TABLES = 100;

export async function saveColumns(ctx: AppContext, actor: Actor, input: z.output<typeof editColumnsSchema>): Promise<string> {
  const saved = (Array.isArray(actor.row.user.tables) ? actor.row.user.tables : []) as SavedTable[];
  const next = [...saved.filter((t) => t.imeTabele !== input.imeTabele), input].slice(-MAX_SAVED_TABLES);
  await ctx.db.update(users).set({ tables: next, updatedAt: new Date() }).where(eq(users.id, actor.id));
  return ACCOUNT.columnsSaved;
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
