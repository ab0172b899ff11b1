import {
  asTyped,
  type createGroupSchema,
  type editGroupSchema,
  type GroupDto,
  type GroupListItem,
  type GroupsPage,
  isReservedGroupName,
  MAX_LIMIT,
  type Sorting,
  type SortKey,
  toCyrillic,
  USERS,
} from '@trasa/domain';
import { and, eq, inArray, ne, or, type SQL, sql } from 'drizzle-orm';
import { type AnyPgColumn, alias } from 'drizzle-orm/pg-core';
import type { z } from 'zod';
import type { AppContext } from '../../context.js';
import { groups, groupTypes, users } from '../../db/schema.js';
import { writeLog } from '../../platform/audit.js';
import type { Actor } from '../../platform/auth.js';
import { builtinRoleId } from '../../platform/builtinRoles.js';
import { type Executor, serbianOrder } from '../../platform/database.js';
import { badRequest, conflict, notFound } from '../../platform/errors.js';
import { jsonArrayAgg, jsonFields, jsonLiteral, jsonObject, jsonPlain, jsonValue } from '../../platform/jsonText.js';
import { sameFoldedName } from '../../platform/names.js';
import { offsetOf, type Paging } from '../../platform/paging.js';
import { FOREIGN_KEY_VIOLATION, onConstraint, UNIQUE_VIOLATION } from '../../platform/pgErrors.js';
import { orderOf, type SortMap } from '../../platform/sorting.js';
import {
  assertGroupInScope,
  assertUserInScope,
  type GroupRow,
  groupCondition,
  lockGroupTree,
  type Scope,
  scopeOf,
  subtreeIds,
} from './policy.js';
import { presentGroup, selectGroups } from './presenter.js';

export type RequestInfo = { ip: string; url: string };

export const groupOrder = [serbianOrder(groups.naziv), groups.id] as const;

/** `sort` of the groups lists (LIST_SORTS.groups); type and parent are subqueries over the group's row. */
export const GROUP_SORTS: SortMap<'groups'> = {
  naziv: { text: groups.naziv },
  kratakNaziv: { text: groups.kratakNaziv },
  tip: { text: sql`(select t.naziv from ${groupTypes} t where t.id = ${groups.typeId})` },
  nadredjenaGrupa: { text: sql`(select p.naziv from ${groups} p where p.id = ${groups.parentId})` },
  sveVideci: { value: groups.sveVideci },
};
export type GroupSorting = Sorting<SortKey<'groups'>>;

/**
 * One page of the groups matching `where` (never the reserved group), ordered by naziv or by `sort`, as
 * objects (GET /api/search/group): groupsPageJson's one statement, parsed. It was three (the page, the
 * page's children, the count).
 */
export async function pageOfGroups(db: Executor, scope: Scope, where: SQL, paging: Paging & GroupSorting): Promise<GroupsPage> {
  return JSON.parse(await groupsPageJson(db, scope, where, paging)) as GroupsPage;
}

/**
 * GET /api/group as JSON text built by PostgreSQL: the same fields as presentGroup, in the same order
 * (groupsPageJson). The screens' picker call asks for every group (limit=50000: 1,000 groups, 440 KB),
 * which cost more to turn into rows, objects and back into JSON in Node than to read.
 */
export async function listGroups(ctx: AppContext, actor: Actor, paging: Paging & GroupSorting, knownScope?: Scope): Promise<string> {
  const scope = knownScope ?? (await scopeOf(ctx.db, actor));
  return groupsPageJson(ctx.db, scope, groupCondition(scope), paging);
}

const parentGroup = alias(groups, 'parent');

/**
 * One page of groups as the JSON text of GroupsPage, built in one statement: each group as GroupListItem
 * (presentGroup's fields but the detail's — the Cyrillic name, the children, the member count: issue 15
 * item 4, docs/decisions.md "Group list rows carry what the table and the form read"), keys in its order
 * (nadredjenaGrupa only when the parent is in the scope), in the page's order, with totalResults. The text
 * is written compact (platform/jsonText.ts): json_build_object, json_agg and a children subquery per group
 * cost the whole list (1,000 groups) 13 ms of SQL and 480 KB (bench case `groups limit 50000`).
 */
export async function groupsPageJson(
  db: Executor,
  scope: Scope,
  where: SQL,
  paging: Paging & GroupSorting,
  opts: { total?: boolean } = {},
): Promise<string> {
  const orderBy = orderOf(GROUP_SORTS, paging, groupOrder, groups.id);
  const parentVisible = scope.all
    ? sql`true`
    : scope.groupIds.length
      ? sql`${parentGroup.id} in (${sql.join(
          scope.groupIds.map((id) => sql`${id}::uuid`),
          sql`, `,
        )})`
      : sql`false`;
  const page = sql`select row_number() over (order by ${sql.join(orderBy, sql`, `)}) as k, ${groups.id} as id, ${groups.naziv} as naziv,
      ${groups.kratakNaziv} as kratak, coalesce(${groupTypes.naziv}, '') as tip, ${groupTypes.code} as tip_kod, ${groups.typeId} as tip_id,
      ${groups.sveVideci} as sve,
      case when ${parentVisible} then ${parentGroup.id} end as parent_id, coalesce(${parentGroup.naziv}, '') as parent_naziv
    from ${groups}
    left join ${groupTypes} on ${groupTypes.id} = ${groups.typeId}
    left join ${groups} "parent" on ${parentGroup.id} = ${groups.parentId}
    where ${where}
    order by ${sql.join(orderBy, sql`, `)}
    limit ${paging.limit} offset ${offsetOf(paging)}`;
  const nameRef = (id: SQL, naziv: SQL) =>
    jsonObject([
      ['_id', jsonPlain(id)],
      ['naziv', jsonValue(naziv)],
    ]);
  const group = jsonFields<GroupListItem>({
    _id: jsonPlain(sql`p.id`),
    naziv: jsonValue(sql`p.naziv`),
    kratakNaziv: jsonValue(sql`p.kratak`),
    tip: jsonValue(sql`p.tip`),
    tipKod: jsonValue(sql`p.tip_kod`),
    tipId: jsonPlain(sql`p.tip_id`),
    sveVideci: jsonLiteral(sql`p.sve`),
    nadredjenaGrupa: sql`(case when p.parent_id is null then 'null' else ${nameRef(sql`p.parent_id`, sql`p.parent_naziv`)} end)`,
  });
  const total = opts.total === false ? sql`''` : sql`',"totalResults":' || (select count(*) from ${groups} where ${where})`;
  const result = await db.execute<{ body: string }>(sql`with page as (${page})
    select '{"groups":' || ${jsonArrayAgg(group, sql`p.k`)} || ${total} || '}' as body
    from page p`);
  return result.rows[0]?.body ?? (opts.total === false ? '{"groups":[]}' : '{"groups":[],"totalResults":0}');
}

export async function getGroup(ctx: AppContext, actor: Actor, id: string): Promise<GroupDto> {
  const scope = await scopeOf(ctx.db, actor);
  await assertGroupInScope(ctx.db, scope, id);
  const [row] = await selectGroups(ctx.db, eq(groups.id, id), { limit: 1 });
  if (!row) throw notFound();
  return presentGroup(row, scope);
}

/** GET /api/group/sve-videci/{true,false}: the groups that do (not) see every cluster, all of them. */
export async function groupsBySveVideci(ctx: AppContext, scope: Scope, sveVideci: boolean): Promise<string> {
  // Every such group of the scope, as the whole list's rows (GroupListItem: the choices read what the
  // groups list's rows carry; the detail carries the rest), in the list's order and up to its bound (the
  // screens' limit=50000 call), without the total.
  const where = and(groupCondition(scope), eq(groups.sveVideci, sveVideci)) as SQL;
  return groupsPageJson(ctx.db, scope, where, { page: 1, limit: MAX_LIMIT }, { total: false });
}

const reservedName = (naziv: string, cirilica: string | undefined) => isReservedGroupName(naziv) || isReservedGroupName(cirilica);
const nameTaken = () => conflict(USERS.groupNameTaken, { naziv: USERS.groupNameTaken });

async function assertNameFree(tx: Executor, naziv: string, exceptId?: string): Promise<void> {
  const [taken] = await tx
    .select({ id: groups.id })
    .from(groups)
    .where(and(sql`lower(${groups.naziv}) = ${naziv.toLowerCase()}`, exceptId ? ne(groups.id, exceptId) : undefined))
    .limit(1);
  if (taken) throw nameTaken();
}

/**
 * Among the groups of one parent (or among the roots) a name is unique with case and script folded:
 * neither the new naziv nor its Cyrillic form may fold to a sibling's naziv or Cyrillic form ('Tim Niš'
 * = 'ТИМ НИШ'). People pick groups by name. The caller holds the group-tree lock, so the check holds
 * until the commit; the index on lower(naziv) keeps exact names unique across the whole tree as before.
 */
async function assertSiblingNameFree(
  tx: Executor,
  parentId: string | null,
  names: { naziv: string; cirilica: string },
  exceptId?: string,
): Promise<void> {
  const folded = (column: AnyPgColumn) => or(sameFoldedName(column, names.naziv), sameFoldedName(column, names.cirilica || names.naziv));
  const [taken] = await tx
    .select({ id: groups.id })
    .from(groups)
    .where(
      and(
        sql`${groups.parentId} is not distinct from ${parentId}`,
        or(folded(groups.naziv), folded(groups.cirilica)),
        exceptId ? ne(groups.id, exceptId) : undefined,
      ),
    )
    .limit(1);
  if (taken) throw conflict(USERS.groupNameTakenInParent, { naziv: USERS.groupNameTakenInParent });
}

/** A parent named in a form: existing and not reserved, else 'Niste izabrali validnu opciju'. */
async function formParent(tx: Executor, id: string, field: string): Promise<GroupRow> {
  const [parent] = await tx.select().from(groups).where(eq(groups.id, id)).limit(1);
  if (!parent || parent.reserved) throw badRequest(USERS.invalidOption, { [field]: USERS.invalidOption });
  return parent;
}

async function formType(tx: Executor, id: string | null | undefined): Promise<string> {
  if (!id) throw badRequest(USERS.groupTipRequired, { tip: USERS.groupTipRequired });
  const [type] = await tx.select({ id: groupTypes.id }).from(groupTypes).where(eq(groupTypes.id, id)).limit(1);
  if (!type) throw badRequest(USERS.invalidOption, { tip: USERS.invalidOption });
  return type.id;
}

/**
 * Adds a group inside the caller's transaction, by the rules of the create form: under a parent, the
 * type and sveVideci are the parent's (spec 1 §4: disabled and inherited); without one, the type is
 * required; names are checked. The form (createGroup) and the demo seed both go through here, so no
 * group is ever written around the inheritance.
 */
export async function addGroup(tx: Executor, input: z.output<typeof createGroupSchema>): Promise<{ id: string; parent: GroupRow | null }> {
  if (reservedName(input.naziv, input.cirilica)) throw badRequest(USERS.groupReserved, { naziv: USERS.groupReserved });
  await lockGroupTree(tx);
  const parent = input.nadredjenaId ? await formParent(tx, input.nadredjenaId, 'nadredjenaId') : null;
  const typeId = parent ? parent.typeId : await formType(tx, input.tip);
  await assertNameFree(tx, input.naziv);
  const cirilica = input.cirilica || toCyrillic(input.naziv);
  await assertSiblingNameFree(tx, parent?.id ?? null, { naziv: input.naziv, cirilica });
  const [inserted] = await onConstraint(
    () =>
      tx
        .insert(groups)
        .values({
          naziv: input.naziv,
          kratakNaziv: input.kratakNaziv,
          cirilica,
          typeId,
          parentId: parent?.id ?? null,
          sveVideci: parent ? parent.sveVideci : input.sveVideci,
        })
        .onConflictDoNothing()
        .returning({ id: groups.id }),
    { [FOREIGN_KEY_VIOLATION]: () => badRequest(USERS.invalidOption, { tip: USERS.invalidOption }) },
  );
  if (!inserted) throw nameTaken();
  return { id: inserted.id, parent };
}

/** POST /api/group/create (addGroup's rules). */
export async function createGroup(
  ctx: AppContext,
  actor: Actor,
  input: z.output<typeof createGroupSchema>,
  req: RequestInfo,
): Promise<string> {
  return ctx.db.transaction(async (tx) => {
    const { parent } = await addGroup(tx, input);
    await writeLog(tx, {
      actor,
      ...req,
      message: `Korisnik ${asTyped(actor.email)} je kreirao grupu ${asTyped(input.naziv)}${parent ? ` (nadređena grupa ${asTyped(parent.naziv)})` : ''}.`,
    });
    return USERS.groupCreated;
  });
}

/**
 * PATCH /api/group/{id}. `nadredjenaGrupa` left out keeps the parent, '' or null makes the group a root.
 * The type and sveVideci come from the parent when there is one, and pass down to every descendant.
 */
export async function editGroup(
  ctx: AppContext,
  actor: Actor,
  id: string,
  input: z.output<typeof editGroupSchema>,
  req: RequestInfo,
): Promise<string> {
  return ctx.db.transaction(async (tx) => {
    await lockGroupTree(tx);
    const [group] = await tx.select().from(groups).where(eq(groups.id, id)).limit(1);
    if (!group) throw notFound();
    if (group.reserved || reservedName(input.naziv, input.cirilica)) throw badRequest(USERS.groupReserved, { naziv: USERS.groupReserved });
    const parentId = input.nadredjenaGrupa === undefined ? group.parentId : input.nadredjenaGrupa || null;
    const subtree = await subtreeIds(tx, id);
    if (parentId && subtree.includes(parentId)) throw badRequest(USERS.groupCycle, { nadredjenaGrupa: USERS.groupCycle });
    const parent = parentId ? await formParent(tx, parentId, 'nadredjenaGrupa') : null;
    let typeId: string | null;
    if (parent) typeId = parent.typeId;
    else if (input.tip) typeId = await formType(tx, input.tip);
    else if (group.typeId) typeId = group.typeId;
    else typeId = await formType(tx, null);
    const sveVideci = parent ? parent.sveVideci : input.sveVideci;
    await assertNameFree(tx, input.naziv, id);
    const cirilica = input.cirilica || (input.naziv === group.naziv ? group.cirilica : toCyrillic(input.naziv));
    await assertSiblingNameFree(tx, parent?.id ?? null, { naziv: input.naziv, cirilica }, id);
    await onConstraint(
      () =>
        tx
          .update(groups)
          .set({
            naziv: input.naziv,
            kratakNaziv: input.kratakNaziv,
            cirilica,
            parentId: parent?.id ?? null,
            typeId,
            sveVideci,
            updatedAt: new Date(),
          })
          .where(eq(groups.id, id)),
      { [UNIQUE_VIOLATION]: nameTaken, [FOREIGN_KEY_VIOLATION]: () => badRequest(USERS.invalidOption, { tip: USERS.invalidOption }) },
    );
    // Descendants inherit the type and sveVideci.
    const descendants = subtree.filter((g) => g !== id);
    if (descendants.length > 0) {
      await tx
        .update(groups)
        .set({ typeId, sveVideci, updatedAt: new Date() })
        .where(and(inArray(groups.id, descendants), or(sql`${groups.typeId} is distinct from ${typeId}`, ne(groups.sveVideci, sveVideci))));
    }
    await writeLog(tx, {
      actor,
      ...req,
      message: `Korisnik ${asTyped(actor.email)} je izmenio grupu ${asTyped(group.naziv)}${group.naziv === input.naziv ? '' : ` (novi naziv ${asTyped(input.naziv)})`}.`,
    });
    return USERS.groupEdited;
  });
}

export async function deleteGroup(ctx: AppContext, actor: Actor, id: string, req: RequestInfo): Promise<string> {
  return ctx.db.transaction(async (tx) => {
    await lockGroupTree(tx);
    const [group] = await tx.select().from(groups).where(eq(groups.id, id)).for('update');
    if (!group) throw notFound();
    if (group.reserved) throw badRequest(USERS.groupReserved);
    const [child] = await tx.select({ id: groups.id }).from(groups).where(eq(groups.parentId, id)).limit(1);
    if (child) throw conflict(USERS.groupHasChildren);
    const [member] = await tx
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.groupId, id), sql`${users.deletedAt} is null`))
      .limit(1);
    if (member) throw conflict(USERS.groupHasMembers);
    await onConstraint(() => tx.delete(groups).where(eq(groups.id, id)), {
      // Clusters, contracts and topics refer to groups (ON DELETE RESTRICT).
      [FOREIGN_KEY_VIOLATION]: () => conflict(USERS.groupInUse),
    });
    await writeLog(tx, { actor, ...req, message: `Korisnik ${asTyped(actor.email)} je obrisao grupu ${asTyped(group.naziv)}.` });
    return USERS.groupDeleted;
  });
}

/** PATCH /api/group/remove-user: the member becomes a guest (built-in Gost, no group). */
export async function removeUser(ctx: AppContext, actor: Actor, userId: string, req: RequestInfo): Promise<string> {
  return ctx.db.transaction(async (tx) => {
    const scope = await scopeOf(tx, actor);
    const target = await assertUserInScope(tx, scope, userId, true);
    if (!target.group) throw badRequest(USERS.invalidOption);
    // Removing oneself would end one's own access by a slip of the hand.
    if (target.user.id === actor.id) throw badRequest(USERS.removeFromGroupFailed);
    const gost = await builtinRoleId(tx, 'Gost');
    await tx.update(users).set({ roleId: gost, groupId: null, updatedAt: new Date() }).where(eq(users.id, userId));
    await writeLog(tx, {
      actor,
      ...req,
      message: `Korisnik ${asTyped(actor.email)} je izbacio korisnika ${asTyped(target.user.email)} iz grupe ${asTyped(target.group.naziv)}.`,
    });
    return USERS.removedFromGroup;
  });
}
