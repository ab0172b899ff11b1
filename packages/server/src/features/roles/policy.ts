import { assignableRoles, type RoleKey, USERS } from '@trasa/domain';
import { and, eq, isNull, ne, type SQL, sql } from 'drizzle-orm';
import { roles, users } from '../../db/schema.js';
import type { Actor } from '../../platform/auth.js';
import type { Executor } from '../../platform/database.js';
import { AppError, forbidden } from '../../platform/errors.js';

/** Ours (docs/decisions.md): an edit may not leave the installation without an active Admin. */
export const LAST_ADMIN = USERS.lastAdmin;

export type RoleRow = typeof roles.$inferSelect;

/** Roles a caller may see: a Rukovodilac never sees roles whose base is Admin (spec 1 §6). */
export function visibleRoleCondition(actor: Actor): SQL | undefined {
  return actor.role === 'Admin' ? undefined : ne(roles.baseRole, 'Admin');
}

export async function findRole(db: Executor, id: string): Promise<RoleRow | undefined> {
  const [row] = await db.select().from(roles).where(eq(roles.id, id)).limit(1);
  return row;
}

/** The role, if the caller may see it (visibleRoleCondition), locked for the change that follows. */
export async function findVisibleRoleForUpdate(db: Executor, actor: Actor, id: string): Promise<RoleRow | undefined> {
  const [row] = await db
    .select()
    .from(roles)
    .where(and(eq(roles.id, id), visibleRoleCondition(actor)))
    .limit(1)
    .for('update');
  return row;
}

/** The caller may hand out only the roles assignableRoles allows, judged by the role's base. */
export function assertAssignable(actor: Actor, base: string): asserts base is RoleKey {
  if (!(assignableRoles(actor.role) as readonly string[]).includes(base)) throw forbidden(USERS.roleNotAllowed);
}

/**
 * Refuses a change that would take the last active Admin's role or activity away. `target` is the user
 * before the change; `after` what the change makes of them. Call it inside the transaction that changes them.
 */
export async function assertAdminRemains(
  db: Executor,
  target: { id: string; base: string; status: string },
  after: { base: string; status: string },
): Promise<void> {
  const wasActiveAdmin = target.base === 'Admin' && target.status === 'aktivan';
  const staysActiveAdmin = after.base === 'Admin' && after.status === 'aktivan';
  if (!wasActiveAdmin || staysActiveAdmin) return;
  // Two Admins demoting each other at once must not both pass the count.
  await db.execute(sql`select pg_advisory_xact_lock(hashtext('trasa:admins'))`);
  const [others] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(users)
    .innerJoin(roles, eq(roles.id, users.roleId))
    .where(and(eq(roles.baseRole, 'Admin'), eq(users.status, 'aktivan'), isNull(users.deletedAt), ne(users.id, target.id)));
  if (!others || others.n === 0) throw new AppError(409, LAST_ADMIN);
}
