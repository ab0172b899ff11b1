import {
  type createUserSchema,
  type editUserSchema,
  GROUPLESS_ROLES,
  type GroupDto,
  type GuestsPage,
  type RoleKey,
  type Sorting,
  type SortKey,
  USERS,
  type UserDto,
  type UsersPage,
} from '@trasa/domain';
import { and, eq, inArray, isNull, ne, type SQL, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { AppContext } from '../../context.js';
import { groups, roles, users } from '../../db/schema.js';
import { writeLog } from '../../platform/audit.js';
import type { Actor } from '../../platform/auth.js';
import type { Executor } from '../../platform/database.js';
import { badRequest, conflict, notFound } from '../../platform/errors.js';
import { assertStrongPassword, hashPassword } from '../../platform/passwords.js';
import { FOREIGN_KEY_VIOLATION, onConstraint, UNIQUE_VIOLATION } from '../../platform/pgErrors.js';
import { orderOf, type SortMap } from '../../platform/sorting.js';
import {
  assertUserInScope,
  assignableGroup,
  inScope,
  isGuestCondition,
  memberCondition,
  type Scope,
  scopeOf,
  visibleUserCondition,
} from '../groups/policy.js';
import { presentGroup, selectGroups } from '../groups/presenter.js';
import { assertAdminRemains, assertAssignable, findRole } from '../roles/policy.js';
import { countOf, offsetOf, type Paging } from './paging.js';
import { presentUser, selectUserWithRelations, userOrder } from './presenter.js';

export type RequestInfo = { ip: string; url: string };

/**
 * `sort` of the users lists (LIST_SORTS.users). Role and group are subqueries over the users row, so
 * the deferred join's inner query still reads the users table alone.
 */
export const USER_SORTS: SortMap<'users'> = {
  ime: { text: users.ime },
  prezime: { text: users.prezime },
  imePrezime: { text: sql`(${users.ime} || ' ' || ${users.prezime})` },
  email: { text: users.email },
  rola: { text: sql`(select r.ime_role from ${roles} r where r.id = ${users.roleId})` },
  grupa: { text: sql`(select g.naziv from ${groups} g where g.id = ${users.groupId})` },
  status: { value: users.status },
  emailPotvrdjen: { value: users.emailPotvrdjen },
};
export type UserSorting = Sorting<SortKey<'users'>>;

/**
 * One page of users matching `where` (a condition over the users table alone), ordered by prezime, ime.
 * A deferred join: the page's ids come from the users table alone (on users_list_order_idx, in trasa_sr
 * order, an index-only walk even at page 2,500), and only those ten rows are joined to their role and
 * group (docs/performance.md). Each `sort` has its own order index (drizzle/0013); by group or role the
 * ids come from pageIdsByGroup / pageIdsByRole.
 */
export async function pageOfUsers(
  db: Executor,
  where: SQL,
  paging: Paging & UserSorting,
): Promise<{ users: UserDto[]; totalResults: number }> {
  const order = orderOf(USER_SORTS, paging, userOrder, users.id);
  const pageIds =
    paging.sort === 'grupa'
      ? pageIdsByGroup(where, paging)
      : paging.sort === 'rola'
        ? await pageIdsByRole(db, where, paging)
        : sql`${db
            .select({ id: users.id })
            .from(users)
            .where(where)
            .orderBy(...order)
            .limit(paging.limit)
            .offset(offsetOf(paging))}`;
  const rows = await selectUserWithRelations(db)
    .where(sql`${users.id} in (${pageIds})`)
    .orderBy(...order);
  return { users: rows.map(presentUser), totalResults: await countOf(db, users, where) };
}

const directionOf = (paging: UserSorting) => sql.raw(paging.order === 'desc' ? 'desc' : 'asc');

/**
 * The page's ids sorted by group name (USER_SORTS.grupa: the group's naziv in trasa_sr, then the id;
 * users without a group last going up, first going down). The groups are ranked once in name order
 * (groups_name_idx, 1,000 entries; names are unique, so the rank orders as the name does) and each
 * group's users are read by users_group_order_idx; the page is then sorted by (rank, id) — integers —
 * instead of comparing the group's name in the ICU collation for every user (trasa_bench, 50,000 users:
 * page 1 55 → 22 ms, page 2,500 120 → 36 ms). The group-less users are the second branch, rank null.
 */
function pageIdsByGroup(where: SQL, paging: Paging & UserSorting): SQL {
  const dir = directionOf(paging);
  return sql`select x.id from (
    (select ${users.id} as id, g.rk from (select id, row_number() over (order by naziv collate trasa_sr, id) as rk from ${groups}) g
      join ${users} on ${users.groupId} = g.id where ${where})
    union all
    (select ${users.id} as id, null::bigint as rk from ${users} where ${where} and ${users.groupId} is null)
  ) x order by x.rk ${dir}, x.id ${dir} limit ${paging.limit} offset ${offsetOf(paging)}`;
}

/**
 * The page's ids sorted by role name (USER_SORTS.rola). Roles are few and most users share one, so the
 * roles are ranked by name (equal names share a rank) and counted (the list's users per role, an
 * index-only walk of users_role_order_idx); the page then lies in one or two ranks, whose users are read
 * in id order from that index at the right offset, instead of sorting 50,000 users by their role's name
 * (or merging one branch per role, which PostgreSQL answered with a sort of every user).
 */
async function pageIdsByRole(db: Executor, where: SQL, paging: Paging & UserSorting): Promise<SQL> {
  const dir = directionOf(paging);
  const ranked = await db.execute<{ id: string; k: number; n: number }>(
    sql`select r.id, (dense_rank() over (order by r.ime_role collate trasa_sr))::int as k, coalesce(c.n, 0)::int as n
      from ${roles} r left join (select ${users.roleId} as role_id, count(*) as n from ${users} where ${where} group by ${users.roleId}) c
      on c.role_id = r.id`,
  );
  const ranks = new Map<number, { ids: string[]; n: number }>();
  for (const r of ranked.rows) {
    const rank = ranks.get(r.k) ?? { ids: [], n: 0 };
    rank.ids.push(r.id);
    rank.n += r.n;
    ranks.set(r.k, rank);
  }
  const ordered = [...ranks.entries()].sort(([a], [b]) => (paging.order === 'desc' ? b - a : a - b)).map(([, rank]) => rank);
  let skip = offsetOf(paging);
  let need = paging.limit;
  const parts: SQL[] = [];
  for (const rank of ordered) {
    if (need <= 0) break;
    if (skip >= rank.n) {
      skip -= rank.n;
      continue;
    }
    const take = Math.min(need, rank.n - skip);
    parts.push(
      sql`(select ${users.id} from ${users} where ${where} and ${inArray(users.roleId, rank.ids)} order by ${users.id} ${dir} limit ${take} offset ${skip})`,
    );
    need -= take;
    skip = 0;
  }
  return parts.length ? sql.join(parts, sql` union all `) : sql`select null::uuid where false`;
}

/** GET /api/user: Admin every user, Rukovodilac the members of their subtree; `groupId` narrows to one group. */
export async function listUsers(ctx: AppContext, actor: Actor, q: Paging & UserSorting & { groupId?: string }): Promise<UsersPage> {
  const scope = await scopeOf(ctx.db, actor);
  let where = memberCondition(scope);
  if (q.groupId) {
    // A group outside the scope answers 404 like any id outside it (server-behaviour.md).
    if (!scope.all && !inScope(scope, q.groupId)) throw notFound();
    where = and(where, eq(users.groupId, q.groupId)) as SQL;
  }
  return pageOfUsers(ctx.db, where, q);
}

/** GET /api/user/users-per-role: the users of one role the caller may see (a Rukovodilac: members and guests). */
export async function usersPerRole(ctx: AppContext, actor: Actor, q: Paging & UserSorting & { roleId: string }): Promise<UsersPage> {
  const scope = await scopeOf(ctx.db, actor);
  let visible = visibleUserCondition(scope);
  if (!scope.all) {
    // visibleUserCondition for one role: every live user of a guest role, only the members of any other.
    // The planner answered "members or guests" with a scan of all users (issue 15); one key lookup of
    // the role leaves an index condition.
    const [role] = await ctx.db.select({ baseRole: roles.baseRole }).from(roles).where(eq(roles.id, q.roleId)).limit(1);
    visible = role?.baseRole === 'Gost' ? isNull(users.deletedAt) : memberCondition(scope);
  }
  return pageOfUsers(ctx.db, and(visible, eq(users.roleId, q.roleId)) as SQL, q);
}

/** GET /api/user/guests: every guest (base role Gost); guests have no group, Admin and Rukovodilac see them all. */
export async function listGuests(ctx: AppContext, q: Paging & UserSorting): Promise<GuestsPage> {
  const page = await pageOfUsers(ctx.db, and(sql`${users.deletedAt} is null`, isGuestCondition()) as SQL, q);
  return { guests: page.users, totalResults: page.totalResults };
}

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
      message: `Korisnik ${actor.email} je napravio nalog ${input.email} (rola ${role.imeRole}${group ? `, grupa ${group.naziv}` : ''}).`,
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
      message: `Korisnik ${actor.email} je izmenio nalog ${target.user.email}${passwordHash ? ' (nova lozinka)' : ''}.`,
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
    await writeLog(tx, { actor, ...req, message: `Korisnik ${actor.email} je deaktivirao nalog ${target.user.email}.` });
    return USERS.deleted;
  });
}
