import {
  type addRoleSchema,
  asTyped,
  GROUPLESS_ROLES,
  type RoleDto,
  type RoleKey,
  type roleSchema,
  type Sorting,
  type SortKey,
  USERS,
} from '@trasa/domain';
import { and, eq, getTableColumns, ne, or, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { AppContext } from '../../context.js';
import { roles, users } from '../../db/schema.js';
import { writeLog } from '../../platform/audit.js';
import type { Actor } from '../../platform/auth.js';
import { type Executor, serbianOrder } from '../../platform/database.js';
import { badRequest, conflict, forbidden, notFound } from '../../platform/errors.js';
import { lockNames, sameFoldedName } from '../../platform/names.js';
import { offsetOf, type Paging } from '../../platform/paging.js';
import { orderOf, type SortMap } from '../../platform/sorting.js';
import { assertUserInScope, assignableGroup, scopeOf } from '../groups/policy.js';
import {
  assertAdminRemains,
  assertAssignable,
  editableRoleIds,
  findRole,
  findVisibleRoleForUpdate,
  visibleRoleCondition,
} from './policy.js';
import { presentRole } from './presenter.js';

export type RequestInfo = { ip: string; url: string };

/** Built-in roles first, in the order of the spec (Admin, Rukovodilac, Zaposleni, Gost), then by name. */
const roleOrder = [
  sql`${roles.builtin} desc`,
  sql`array_position(array['Admin','Rukovodilac','Zaposleni','Gost'], ${roles.baseRole})`,
  serbianOrder(roles.imeRole),
  roles.id,
];

/** `sort` of GET /api/role (LIST_SORTS.roles); the base role in the spec's order, like the default. */
const ROLE_SORTS: SortMap<'roles'> = {
  imeRole: { text: roles.imeRole },
  kratakNaziv: { text: roles.kratakNaziv },
  osnovnaRola: { value: sql`array_position(array['Admin','Rukovodilac','Zaposleni','Gost'], ${roles.baseRole})` },
  ugradjena: { value: roles.builtin },
};

/**
 * GET /api/role: a page of the roles the caller sees and their number, in one statement (the count is a
 * window over the matching rows, taken before the LIMIT); only a page past the end counts again.
 */
export async function listRoles(
  ctx: AppContext,
  actor: Actor,
  paging: Paging & Sorting<SortKey<'roles'>>,
): Promise<{ roles: RoleDto[]; totalResults: number }> {
  const where = visibleRoleCondition(actor);
  const rows = await ctx.db
    .select({ ...getTableColumns(roles), total: sql<number>`(count(*) over ())::int` })
    .from(roles)
    .where(where)
    .orderBy(...orderOf(ROLE_SORTS, paging, roleOrder, roles.id))
    .limit(paging.limit)
    .offset(offsetOf(paging));
  const total = rows[0]?.total ?? (await ctx.db.select({ n: sql<number>`count(*)::int` }).from(roles).where(where))[0]?.n ?? 0;
  const editable = await editableRoleIds(
    ctx.db,
    actor,
    rows.map((r) => r.id),
  );
  return { roles: rows.map((r) => presentRole(r, editable.has(r.id))), totalResults: total };
}

export async function getRole(ctx: AppContext, actor: Actor, id: string): Promise<RoleDto> {
  const [row] = await ctx.db
    .select()
    .from(roles)
    .where(and(eq(roles.id, id), visibleRoleCondition(actor)))
    .limit(1);
  if (!row) throw notFound();
  const editable = await editableRoleIds(ctx.db, actor, [row.id]);
  return presentRole(row, editable.has(row.id));
}

/**
 * A role's name is unique with case and script folded ('Inženjer' = 'ИНЖЕЊЕР'), and is never a built-in
 * role's key (the key names the built-in role, in imports too): people pick roles by name, and a role
 * can't be deleted, so a duplicate would stay. Writers of roles serialise on one lock while they check.
 */
async function assertNameFree(tx: Executor, imeRole: string, exceptId?: string): Promise<void> {
  await lockNames(tx, 'roles');
  const [taken] = await tx
    .select({ id: roles.id })
    .from(roles)
    .where(
      and(
        or(sameFoldedName(roles.imeRole, imeRole), and(eq(roles.builtin, true), sameFoldedName(roles.baseRole, imeRole))),
        exceptId ? ne(roles.id, exceptId) : undefined,
      ),
    )
    .limit(1);
  if (taken) throw conflict(USERS.roleNameTaken, { imeRole: USERS.roleNameTaken });
}

/** An extra role carries the permissions of its base role (server-behaviour.md), Zaposleni by default. */
export async function createRole(ctx: AppContext, actor: Actor, input: z.output<typeof roleSchema>, req: RequestInfo): Promise<RoleDto> {
  return ctx.db.transaction(async (tx) => {
    await assertNameFree(tx, input.imeRole);
    const [row] = await tx
      .insert(roles)
      .values({ imeRole: input.imeRole, kratakNaziv: input.kratakNaziv, baseRole: input.osnovnaRola ?? 'Zaposleni', builtin: false })
      .returning();
    if (!row) throw new Error('role not created');
    await writeLog(tx, {
      actor,
      ...req,
      message: `Korisnik ${asTyped(actor.email)} je napravio rolu ${asTyped(row.imeRole)} (osnovna rola ${row.baseRole}).`,
    });
    return presentRole(row, true);
  });
}

/**
 * Renames a role (Admin, Rukovodilac). A role the caller can't see (an Admin-based one, for a
 * Rukovodilac) answers 404 like a missing id; one they see but may not edit (editableRoleIds: a
 * built-in role, or an extra role nobody holds or someone outside their subtree holds) 403. The base of a built-in role never changes; an extra role's
 * base decides the permissions of everyone holding it, in every group, so only an Admin changes it.
 */
export async function editRole(
  ctx: AppContext,
  actor: Actor,
  id: string,
  input: z.output<typeof roleSchema>,
  req: RequestInfo,
): Promise<RoleDto> {
  return ctx.db.transaction(async (tx) => {
    const existing = await findVisibleRoleForUpdate(tx, actor, id);
    if (!existing) throw notFound();
    if (!(await editableRoleIds(tx, actor, [id])).has(id)) throw forbidden(USERS.roleEditNotAllowed);
    await assertNameFree(tx, input.imeRole, id);
    // roleSchema offers no Admin base, so no extra role can become (or stop being) an Admin role.
    const keepsBase = existing.builtin || actor.role !== 'Admin';
    const baseRole = keepsBase ? existing.baseRole : (input.osnovnaRola ?? existing.baseRole);
    const [row] = await tx
      .update(roles)
      .set({ imeRole: input.imeRole, kratakNaziv: input.kratakNaziv, baseRole })
      .where(eq(roles.id, id))
      .returning();
    if (!row) throw notFound();
    await writeLog(tx, {
      actor,
      ...req,
      message: `Korisnik ${asTyped(actor.email)} je izmenio rolu ${asTyped(existing.imeRole)}${existing.imeRole === row.imeRole ? '' : ` (novo ime ${asTyped(row.imeRole)})`}.`,
    });
    return presentRole(row, true);
  });
}

/**
 * POST /api/role/add-role: gives a user a role, in a group unless the role's base is Gost or Admin.
 * Puts a guest into a group, changes a member's role, or (base Gost) makes a member a guest again.
 */
export async function addRole(ctx: AppContext, actor: Actor, input: z.output<typeof addRoleSchema>, req: RequestInfo): Promise<string> {
  return ctx.db.transaction(async (tx) => {
    const role = await findRole(tx, input.newRole);
    if (!role) throw badRequest(USERS.invalidOption, { newRole: USERS.invalidOption });
    assertAssignable(actor, role.baseRole);
    const scope = await scopeOf(tx, actor);
    const target = await assertUserInScope(tx, scope, input.guestId);
    const grouped = !GROUPLESS_ROLES.includes(role.baseRole as RoleKey);
    const group = grouped ? await assignableGroup(tx, scope, input.groupId, 'groupId', USERS.roleAndGroupRequired) : null;
    await assertAdminRemains(
      tx,
      { id: target.user.id, base: target.role.baseRole, status: target.user.status },
      { base: role.baseRole, status: target.user.status },
    );
    await tx
      .update(users)
      .set({ roleId: role.id, groupId: group?.id ?? null, updatedAt: new Date() })
      .where(eq(users.id, target.user.id));
    const wasGuest = target.role.baseRole === 'Gost';
    await writeLog(tx, {
      actor,
      ...req,
      message: `Korisnik ${asTyped(actor.email)} je korisniku ${asTyped(target.user.email)} dodelio rolu ${asTyped(role.imeRole)}${group ? ` u grupi ${asTyped(group.naziv)}` : ''}.`,
    });
    return wasGuest && group ? USERS.guestAdded : USERS.roleChanged;
  });
}
