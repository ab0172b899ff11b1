import {
  asTyped,
  type createUserSchema,
  type editUserSchema,
  GROUPLESS_ROLES,
  type GroupDto,
  type RoleKey,
  USERS,
  type UserDto,
} from '@trasa/domain';
import { and, eq, ne, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { AppContext } from '../../context.js';
import { groups, users } from '../../db/schema.js';
import { writeLog } from '../../platform/audit.js';
import type { Actor } from '../../platform/auth.js';
import type { Executor } from '../../platform/database.js';
import { badRequest, conflict } from '../../platform/errors.js';
import { assertStrongPassword, hashPassword } from '../../platform/passwords.js';
import { FOREIGN_KEY_VIOLATION, onConstraint, UNIQUE_VIOLATION } from '../../platform/pgErrors.js';
import { assertUserInScope, assignableGroup, type Scope, scopeOf } from '../groups/policy.js';
import { presentGroup, selectGroups } from '../groups/presenter.js';
import { assertAdminRemains, assertAssignable, findRole } from '../roles/policy.js';
import { presentUser } from './presenter.js';

export { keptCountKey, listGuests, listUsers, pageOfUsers, USER_SORTS, type UserSorting, usersPageJson, usersPerRole } from './listing.js';

export type RequestInfo = { ip: string; url: string };

export async function groupDto(db: Executor, scope: Scope, groupId: string | null): Promise<GroupDto | null> {
  if (!groupId) return null;
  const [row] = await selectGroups(db, eq(groups.id, groupId), { limit: 1 });
  return row ? presentGroup(row, scope) : null;
}

export async function getUser(ctx: AppContext, actor: Actor, id: string): Promise<{ user: UserDto; group: GroupDto | null }> {
  const scope = await scopeOf(ctx.db, actor);
  const row = await assertUserInScope(ctx.db, scope, id);
  return { user: presentUser(row), group: await groupDto(ctx.db, scope, row.user.groupId) };
}

/** The role of a form: it must exist (400) and be one the caller may hand out (403). */
async function formRole(db: Executor, actor: Actor, roleId: string) {
  const role = await findRole(db, roleId);
  if (!role) throw badRequest(USERS.invalidOption, { rola: USERS.invalidOption });
  assertAssignable(actor, role.baseRole);
  return role;
}

/** emailPotvrdjen=false forces 'neaktivan' (spec 1 §4). */
const statusOf = (input: { emailPotvrdjen: boolean; status: 'aktivan' | 'neaktivan' }) =>
  input.emailPotvrdjen ? input.status : 'neaktivan';

const groupGone = () => badRequest(USERS.invalidOption, { grupa: USERS.invalidOption });

export async function createUser(
  ctx: AppContext,
  actor: Actor,
  input: z.output<typeof createUserSchema>,
  req: RequestInfo,
): Promise<string> {
  return ctx.db.transaction(async (tx) => {
    const role = await formRole(tx, actor, input.rola);
    const scope = await scopeOf(tx, actor);
    const group = GROUPLESS_ROLES.includes(role.baseRole as RoleKey) ? null : await assignableGroup(tx, scope, input.grupa, 'grupa');
    const taken = () => conflict(USERS.emailTakenCreate, { email: USERS.emailTakenCreate });
    const [existing] = await tx.select({ id: users.id }).from(users).where(sql`lower(${users.email}) = ${input.email}`).limit(1);
    if (existing) throw taken();
    assertStrongPassword(input.lozinka, input, 'lozinka');
    const passwordHash = await hashPassword(input.lozinka);
    const inserted = await onConstraint(
      () =>
        tx
          .insert(users)
          .values({
            ime: input.ime,
            prezime: input.prezime,
            email: input.email,
            emailPotvrdjen: input.emailPotvrdjen,
            status: statusOf(input),
            roleId: role.id,
            groupId: group?.id ?? null,
            passwordHash,
          })
          .onConflictDoNothing()
          .returning({ id: users.id }),
      { [FOREIGN_KEY_VIOLATION]: groupGone },
    );
    if (inserted.length === 0) throw taken();
    await writeLog(tx, {
      actor,
      ...req,
      message: `Korisnik ${asTyped(actor.email)} je napravio nalog ${asTyped(input.email)} (rola ${asTyped(role.imeRole)}${group ? `, grupa ${asTyped(group.naziv)}` : ''}).`,
    });
    return USERS.created;
  });
}

export async function editUser(
  ctx: AppContext,
  actor: Actor,
  id: string,
  input: z.output<typeof editUserSchema>,
  req: RequestInfo,
): Promise<string> {
  return ctx.db.transaction(async (tx) => {
    const scope = await scopeOf(tx, actor);
    const target = await assertUserInScope(tx, scope, id, true);
    const role = await formRole(tx, actor, input.rola);
    const group = GROUPLESS_ROLES.includes(role.baseRole as RoleKey) ? null : await assignableGroup(tx, scope, input.groupId, 'groupId');
    const taken = () => conflict(USERS.emailTakenEdit, { email: USERS.emailTakenEdit });
    const [other] = await tx
      .select({ id: users.id })
      .from(users)
      .where(and(sql`lower(${users.email}) = ${input.email}`, ne(users.id, id)))
      .limit(1);
    if (other) throw taken();
    const status = statusOf(input);
    await assertAdminRemains(tx, { id, base: target.role.baseRole, status: target.user.status }, { base: role.baseRole, status });
    if (input.lozinka) assertStrongPassword(input.lozinka, input, 'lozinka');
    const passwordHash = input.lozinka ? await hashPassword(input.lozinka) : undefined;
    await onConstraint(
      () =>
        tx
          .update(users)
          .set({
            ime: input.ime,
            prezime: input.prezime,
            email: input.email,
            emailPotvrdjen: input.emailPotvrdjen,
            status,
            roleId: role.id,
            groupId: group?.id ?? null,
            // A new password revokes every token issued before it.
            ...(passwordHash && { passwordHash, tokenVersion: sql`${users.tokenVersion} + 1` }),
            updatedAt: new Date(),
          })
          .where(eq(users.id, id)),
      { [UNIQUE_VIOLATION]: taken, [FOREIGN_KEY_VIOLATION]: () => badRequest(USERS.invalidOption, { groupId: USERS.invalidOption }) },
    );
    await writeLog(tx, {
      actor,
      ...req,
      message: `Korisnik ${asTyped(actor.email)} je izmenio nalog ${asTyped(target.user.email)}${passwordHash ? ' (nova lozinka)' : ''}.`,
    });
    return USERS.edited;
  });
}

/** Deleting a user sets the status 'neaktivan' (spec 1 §4), reversible by editing; their tokens stop working. */
export async function deleteUser(ctx: AppContext, actor: Actor, id: string, req: RequestInfo): Promise<string> {
  if (id === actor.id) throw badRequest(USERS.cannotDeleteSelf);
  return ctx.db.transaction(async (tx) => {
    const scope = await scopeOf(tx, actor);
    const target = await assertUserInScope(tx, scope, id, true);
    await assertAdminRemains(
      tx,
      { id, base: target.role.baseRole, status: target.user.status },
      { base: target.role.baseRole, status: 'neaktivan' },
    );
    await tx
      .update(users)
      .set({ status: 'neaktivan', tokenVersion: sql`${users.tokenVersion} + 1`, updatedAt: new Date() })
      .where(eq(users.id, id));
    await writeLog(tx, { actor, ...req, message: `Korisnik ${asTyped(actor.email)} je deaktivirao nalog ${asTyped(target.user.email)}.` });
    return USERS.deleted;
  });
}
