import { assignableRoles, type RoleKey, USERS } from '@trasa/domain';
import { and, eq, exists, inArray, isNull, ne, not, notInArray, or, type SQL, sql } from 'drizzle-orm';
import { roles, users } from '../../db/schema.js';
import type { Actor } from '../../platform/auth.js';
import type { Executor } from '../../platform/database.js';
import { AppError, forbidden } from '../../platform/errors.js';
import { scopeOf } from '../groups/policy.js';

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

/**
 * The roles among `ids` the caller may edit. An Admin edits every role. A Rukovodilac edits only an
 * extra role that someone holds and that nobody outside their subtree holds (live users; a guest, who
 * has no group, is outside): a role's name is what every holder and everyone who sees them reads, so
 * built-in roles, roles nobody holds yet and roles held elsewhere are the Admin's (docs/decisions.md).
 * Run inside the edit's transaction after locking the role `for update`: a user write that sets the
 * role then waits on the role row (its foreign key takes `for key share`), so the holders read here
 * stay the holders until the edit commits.
 */
export async function editableRoleIds(db: Executor, actor: Actor, ids: readonly string[]): Promise<Set<string>> {
  if (actor.role === 'Admin') return new Set(ids);
  if (actor.role !== 'Rukovodilac' || ids.length === 0) return new Set();
  const scope = await scopeOf(db, actor);
  if (scope.all) return new Set(ids);
  const inside = scope.groupIds;
  // A manager without a group has no subtree: every holder is outside it.
  if (inside.length === 0) return new Set();
  const holders = (extra?: SQL) =>
    db
      .select({ one: sql`1` })
      .from(users)
      .where(and(eq(users.roleId, roles.id), isNull(users.deletedAt), extra));
  const outside = or(isNull(users.groupId), notInArray(users.groupId, inside));
  const rows = await db
    .select({ id: roles.id })
    .from(roles)
    .where(
      and(
        inArray(roles.id, [...ids]),
        eq(roles.builtin, false),
        ne(roles.baseRole, 'Admin'),
        exists(holders()),
        not(exists(holders(outside))),
      ),
    );
  return new Set(rows.map((r) => r.id));
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
