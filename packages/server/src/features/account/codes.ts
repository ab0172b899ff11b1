import type { Script } from '@trasa/domain';
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import { userCodes, users } from '../../db/schema.js';
import type { Executor } from '../../platform/database.js';
import { greeting } from '../../platform/mail.js';
import { hashCode, newCode } from '../../platform/secrets.js';
import { selectUserWithRelations } from '../users/presenter.js';

/**
 * The one-time codes of the account's links (activation, password reset, e-mail change): issued, used once,
 * and the activation mail.
 */
export const ACTIVATION_HOURS = 24;
export const RESET_HOURS = 1;
export const EMAIL_CHANGE_HOURS = 24;

type CodePurpose = 'activation' | 'reset' | 'email-change';

export function userByEmail(db: Executor, email: string) {
  return selectUserWithRelations(db)
    .where(and(sql`lower(${users.email}) = ${email.toLowerCase()}`, isNull(users.deletedAt)))
    .limit(1);
}

export async function issueCode(db: Executor, userId: string, purpose: CodePurpose, hours: number, payload?: string): Promise<string> {
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
export async function consumeCode(db: Executor, userId: string, purpose: CodePurpose, code: string): Promise<boolean> {
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
export async function awaitsActivation(db: Executor, userId: string): Promise<boolean> {
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
export async function mailActivation(ctx: AppContext, user: { email: string }, code: string, script: Script): Promise<void> {
  await ctx.mailer.send({
    to: user.email,
    script,
    subject: 'Траса — активација налога',
    text: `${greeting(null)}\n\nда бисте активирали налог у апликацији Траса, отворите линк:\n${activationLink(ctx, user.email, code)}\n\nЛинк важи ${ACTIVATION_HOURS} сата. Ако се нисте регистровали, занемарите ову поруку.`,
  });
}
