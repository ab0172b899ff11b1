import { USERS } from '@trasa/domain';
import { and, eq, inArray, isNull, or, type SQL, sql } from 'drizzle-orm';
import { groups, roles, users } from '../../db/schema.js';
import type { Actor } from '../../platform/auth.js';
import { type Executor, namedStatement, runNamed } from '../../platform/database.js';
import { badRequest, notFound } from '../../platform/errors.js';
import { selectUserWithRelations, type UserWithRelations } from '../../platform/userRows.js';

/**
 * Who sees which groups and users (server-behaviour.md "Groups, visibility and scope"), in one place
 * for the users, groups, roles and search features.
 *
 * An Admin's scope is everything; a Rukovodilac's is their own group and all its descendants; anyone
 * else's is their own group. Ids outside the scope answer 404 exactly like missing ids.
 */
export type Scope = { all: true } | { all: false; groupIds: string[] };

/**
 * The group and all its descendants (recursive; UNION stops even on a corrupted, cyclic tree). A named
 * prepared statement (platform/database.ts namedStatement): it runs on every request of a Rukovodilac's
 * users, groups and topics lists, whose planning cost as much as its execution.
 */
const subtreeStatement = namedStatement<{ id: string }>(
  'group_subtree',
  sql`with recursive tree(id) as (
      select id from ${groups} where id = ${sql.placeholder('group')}
      union
      select g.id from ${groups} g join tree on g.parent_id = tree.id
    )
    select tree.id from tree join ${groups} g on g.id = tree.id where not g.reserved`,
);

export async function subtreeIds(db: Executor, groupId: string): Promise<string[]> {
  const result = await runNamed(db, subtreeStatement, { group: groupId });
  return result.rows.map((r) => r.id);
}

export async function scopeOf(db: Executor, actor: Actor): Promise<Scope> {
  if (actor.role === 'Admin') return { all: true };
  if (!actor.group) return { all: false, groupIds: [] };
  if (actor.role === 'Rukovodilac') {
    return { all: false, groupIds: await subtreeIds(db, actor.group.id) };
  }
  return { all: false, groupIds: [actor.group.id] };
}

/**
 * What decides `actor`'s scope, as a key for a value kept under the groups' version (the whole lists of
 * platform/kept kind 'groupList'): 'all' for an Admin, the own group's id for anyone else ('' without
 * one), and `subtree:<id>` for a Rukovodilac, whose subtree is read from the groups table alone — which
 * moves the groups' version — so a value kept under that version and this key is the one their subtree
 * gives, and a hit needs no statement for the subtree.
 */
export function scopeKeyOf(actor: Actor): string {
  if (actor.role === 'Admin') return 'all';
  if (!actor.group) return '';
  return actor.role === 'Rukovodilac' ? `subtree:${actor.group.id}` : actor.group.id;
}

/** Groups a scope covers; the reserved group is never among them. */
export function groupCondition(scope: Scope): SQL {
  const notReserved = eq(groups.reserved, false);
  return scope.all ? notReserved : (and(notReserved, inArray(groups.id, scope.groupIds)) as SQL);
}

/**
 * Users who are members of a group in the scope (Admin: every user); deleted users never. Conditions
 * here are over the users table alone, so counts need no join.
 */
export function memberCondition(scope: Scope): SQL {
  const live = isNull(users.deletedAt);
  return scope.all ? live : (and(live, inArray(users.groupId, scope.groupIds)) as SQL);
}

/** Users whose role has the base Gost (a condition over users alone). */
export function isGuestCondition(): SQL {
  return sql`${users.roleId} in (select ${roles.id} from ${roles} where ${roles.baseRole} = 'Gost')`;
}

/**
 * Users a caller may open and give a role: the members of the scope and, for a Rukovodilac, every guest
 * (guests have no group; a manager recruits them). Changing a guest's account (data, password) or
 * deactivating it stays the Admin's: see manageableUserCondition.
 */
export function visibleUserCondition(scope: Scope): SQL {
  const live = isNull(users.deletedAt);
  if (scope.all) return live;
  return and(live, or(inArray(users.groupId, scope.groupIds), isGuestCondition())) as SQL;
}

/**
 * Users a caller may edit, deactivate or remove from a group: Admin every live user; a Rukovodilac only
 * the members of their subtree (server-behaviour.md: they see, create and edit users only there). A
 * guest belongs to no group yet, so no manager may change their account or take it over.
 */
export function manageableUserCondition(scope: Scope): SQL {
  return memberCondition(scope);
}

export function inScope(scope: Scope, groupId: string | null | undefined): boolean {
  return !!groupId && (scope.all || scope.groupIds.includes(groupId));
}

/**
 * The user with their role and group, if the scope reaches them (`manage`: to change their account,
 * see manageableUserCondition; otherwise to open them or give them a role); otherwise 404.
 */
export async function assertUserInScope(db: Executor, scope: Scope, userId: string, manage = false): Promise<UserWithRelations> {
  const [row] = await selectUserWithRelations(db)
    .where(and(eq(users.id, userId), manage ? manageableUserCondition(scope) : visibleUserCondition(scope)))
    .limit(1);
  if (!row) throw notFound();
  return row;
}

export type GroupRow = typeof groups.$inferSelect;

/** A group the scope reaches (never the reserved one); otherwise 404. */
export async function assertGroupInScope(db: Executor, scope: Scope, groupId: string): Promise<GroupRow> {
  const [row] = await db
    .select()
    .from(groups)
    .where(and(eq(groups.id, groupId), groupCondition(scope)))
    .limit(1);
  if (!row) throw notFound();
  return row;
}

/**
 * A group a user may be put into: given, existing, not reserved and in the scope. Otherwise the form's
 * 400 'Niste izabrali validnu opciju' on `field` (or `missing` when none was given) — the same answer
 * for a group that does not exist and one outside the scope.
 */
export async function assignableGroup(
  db: Executor,
  scope: Scope,
  groupId: string | null | undefined,
  field: string,
  missing: string = USERS.invalidOption,
): Promise<GroupRow> {
  if (!groupId) throw badRequest(missing, { [field]: missing });
  const [row] = await db
    .select()
    .from(groups)
    .where(and(eq(groups.id, groupId), groupCondition(scope)))
    .limit(1);
  if (!row) throw badRequest(USERS.invalidOption, { [field]: USERS.invalidOption });
  return row;
}

/** Serialises changes of the group tree (create, move, delete), so two moves can't make a cycle. */
export async function lockGroupTree(tx: Executor): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext('trasa:group-tree'))`);
}
