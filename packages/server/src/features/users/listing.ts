import type { GroupRef, Sorting, SortKey, UserDto } from '@trasa/domain';
import { and, eq, inArray, isNull, type SQL, sql } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import { groups, groupTypes, roles, users } from '../../db/schema.js';
import type { Actor } from '../../platform/auth.js';
import { type Executor, namedStatement, runNamed } from '../../platform/database.js';
import { notFound } from '../../platform/errors.js';
import { jsonFields, jsonLiteral, jsonPlain, jsonValue } from '../../platform/jsonText.js';
import { keptCountOf, searchCountKey } from '../../platform/kept/counts.js';
import { versionSql } from '../../platform/kept/store.js';
import { cappedCountSql, EXACT_COUNT_LIMIT, estimatedRows, offsetOf, type Paging } from '../../platform/paging.js';
import { orderOf, type SortMap } from '../../platform/sorting.js';
import { inScope, memberCondition, type Scope, scopeOf, visibleUserCondition } from '../groups/policy.js';
import { userOrder } from './presenter.js';

/**
 * The users lists (GET /api/user, users-per-role, guests) and the users search's page: their sorts, the page
 * as JSON built by PostgreSQL, the kept counts and estimates.
 */

/**
 * The role's and the group's name kept on each user for sorting (drizzle/0016: triggers set them when a
 * user moves and follow a rename), not declared in the schema: only ORDER BY reads them. Users without a
 * group have none (last going up, first going down).
 */
const sortRole = sql`${users}.sort_role`;
const sortGroup = sql`${users}.sort_group`;

/**
 * `sort` of the users lists (LIST_SORTS.users). Every key is a column of the users row with its own order
 * index (drizzle/0013, 0016), so the deferred join's inner query is an index walk of the users table alone.
 */
export const USER_SORTS: SortMap<'users'> = {
  ime: { text: users.ime },
  prezime: { text: users.prezime },
  imePrezime: { text: sql`(${users.ime} || ' ' || ${users.prezime})` },
  email: { text: users.email },
  rola: { text: sortRole },
  grupa: { text: sortGroup },
  status: { value: users.status },
  emailPotvrdjen: { value: users.emailPotvrdjen },
};
export type UserSorting = Sorting<SortKey<'users'>>;

/**
 * USER_SORTS for a list narrowed to some groups (a Rukovodilac's subtree, one group): the same order by
 * the kept names, written so that their order indexes are not used. A subtree's groups usually sit
 * together in name order (one firm's teams), which the planner cannot know: walking
 * users_group_name_order_idx for a Rukovodilac's page 1 passed 35,000 other users (106 ms), while the
 * members of the groups (users_group_order_idx, a few hundred) sorted by name take about a millisecond.
 * NULL || '' stays NULL, so users without a group still sort last going up.
 */
const NARROW_USER_SORTS: SortMap<'users'> = {
  ...USER_SORTS,
  rola: { text: sql`(${sortRole} || '')` },
  grupa: { text: sql`(${sortGroup} || '')` },
};

/**
 * A user as presentUser writes it, as JSON text built by PostgreSQL (platform/jsonText.ts): the same keys
 * in the same order, `status` and `pismo` narrowed the same way, `grupa` as presentGroupRef (the type's
 * name or '', its code or null), `tabela` the saved array (jsonb's text: a space after ':' and ',', the
 * same JSON) or [] for anything else (no `vidiSve`: my-profile's alone). Over users joined to roles, groups
 * and group_types.
 */
const USER_JSON = jsonFields<Omit<UserDto, 'vidiSve'>>({
  _id: jsonPlain(sql`${users.id}`),
  ime: jsonValue(sql`${users.ime}`),
  prezime: jsonValue(sql`${users.prezime}`),
  email: jsonValue(sql`${users.email}`),
  emailPotvrdjen: jsonLiteral(sql`${users.emailPotvrdjen}`),
  rola: jsonValue(sql`${roles.baseRole}`),
  rolaId: jsonPlain(sql`${roles.id}`),
  rolaNaziv: jsonValue(sql`${roles.imeRole}`),
  status: sql`(case when ${users.status} = 'aktivan' then '"aktivan"' else '"neaktivan"' end)`,
  grupa: sql`(case when ${groups.id} is null then 'null' else ${jsonFields<GroupRef>({
    _id: jsonPlain(sql`${groups.id}`),
    naziv: jsonValue(sql`${groups.naziv}`),
    kratakNaziv: jsonValue(sql`${groups.kratakNaziv}`),
    tip: jsonValue(sql`coalesce(${groupTypes.naziv}, '')`),
    tipKod: jsonValue(sql`${groupTypes.code}`),
    cirilica: jsonValue(sql`${groups.cirilica}`),
    sveVideci: jsonLiteral(sql`${groups.sveVideci}`),
  })} end)`,
  tabela: sql`(case when jsonb_typeof(${users.tables}) = 'array' then ${users.tables}::text else '[]' end)`,
  pismo: sql`(case when ${users.pismo} = 'lat' then '"lat"' else '"cyr"' end)`,
});

/**
 * The version of what the users' lists count (drizzle/0029: it moves at the commit of any change of a
 * user's liveness, group, role or search text, and of any user inserted or deleted, through whichever
 * instance): a search's count (platform/kept kind 'userCount') is kept under it.
 */
const USERS_VERSION = versionSql('userCount');

/** The key of a users search's kept count: what the caller sees and the typed terms. */
export const keptCountKey = (scope: Scope, terms: string[]) => searchCountKey('users', scope, terms);

/**
 * The page's rows as JSON text (USER_JSON joined with role, group and type, comma-separated, in the order of
 * `ids`): one named prepared statement for every users list, sort and search. Written once, PostgreSQL
 * keeps its generic plan (a primary-key lookup per id); as a part of the page's statement its joins and
 * JSON were parsed and planned on every request (≈0.85 ms of a users page's ≈1.1 ms of backend time).
 */
const userRowsStatement = namedStatement<{ list: string | null }>(
  'user_list_json',
  sql`select string_agg(${USER_JSON}, ',' order by page.n) as list
    from unnest(${sql.placeholder('ids')}::uuid[]) with ordinality as page(id, n)
    join ${users} on ${users.id} = page.id
    join ${roles} on ${roles.id} = ${users.roleId}
    left join ${groups} on ${groups.id} = ${users.groupId}
    left join ${groupTypes} on ${groupTypes.id} = ${groups.typeId}`,
);

/**
 * One page of users matching `where` (a condition over the users table alone), ordered by prezime, ime,
 * as the JSON text of UsersPage (`{"users":[…],"totalResults":n}`; `listKey` 'guests' for GuestsPage).
 * `estimateFirst`: a whole-table list whose total is likely past the exact count's limit: the planner's
 * estimate is asked first and, past twice the limit, is the total without counting (as countOf).
 * A deferred join: the page's ids come from the users table alone (on users_list_order_idx, in trasa_sr
 * order, an index-only walk even at page 2,500) with the count in the same statement, and only those ten
 * rows are joined to their role and group by a prepared statement (userRowsStatement; docs/performance.md).
 * Each `sort` has its own order index (drizzle/0013; by group or role the kept names of 0016). `byGroups`:
 * `where` keeps only the members of some groups (NARROW_USER_SORTS). The rows are written by PostgreSQL
 * (USER_JSON) and sent as they come: building them in Node (drizzle's row mapping, presentUser,
 * JSON.stringify) cost about as much as the SQL of a search's page.
 */
export async function usersPageJson(
  db: Executor,
  where: SQL,
  paging: Paging & UserSorting,
  opts: { byGroups?: boolean; estimateFirst?: boolean; listKey?: 'users' | 'guests'; keptCount?: string } = {},
): Promise<string> {
  const sorts = opts.byGroups ? NARROW_USER_SORTS : USER_SORTS;
  const order = orderOf(sorts, paging, userOrder, users.id);
  const offset = offsetOf(paging);
  const idsOf = (by: SQL[], limit: number, skip: number) =>
    db
      .select({ id: users.id })
      .from(users)
      .where(where)
      .orderBy(...by)
      .limit(limit)
      .offset(skip);
  const pageIds = idsOf(order, paging.limit, offset);
  const early = opts.estimateFirst ? await estimatedRows(db, users, where) : null;
  // A search's count kept by the data's version: the page statement reads the version and counts only
  // when what is kept for this search was counted under another (keptCountOf).
  const kept = opts.keptCount === undefined ? null : keptCountOf(db, 'userCount', opts.keptCount);
  const counted = early === null || early <= 2 * EXACT_COUNT_LIMIT;
  const count = cappedCountSql(users, where);
  // A page in the second half of a search whose exact total is kept: read from the other end (the order
  // index walked backwards, `total − offset` rows in, then turned round) while the kept total is the
  // statement's own (its version unmoved); otherwise as always. The last page of 'djordj' (3,828 matches)
  // walked 50,000 index entries comparing each with the search, or sorted all matches in ICU order.
  const known = kept?.known;
  const fromEnd = known && known.total <= EXACT_COUNT_LIMIT && offset < known.total && 2 * offset >= known.total ? known : null;
  const ids = fromEnd
    ? sql`case when ${fromEnd.current} then array(${idsOf(
        paging.sort
          ? orderOf(sorts, { ...paging, order: paging.order === 'desc' ? 'asc' : 'desc' }, userOrder, users.id)
          : userOrder.map((e) => sql`${e} desc`),
        Math.min(paging.limit, fromEnd.total - offset),
        Math.max(0, fromEnd.total - offset - paging.limit),
      )}) else array(${pageIds}) end`
    : sql`array(${pageIds})`;
  const result = await db.execute<{
    ids: string[] | null;
    reversed: boolean;
    capped: number | null;
    estimate: number | null;
    version: string | null;
  }>(sql`select
    ${ids} as ids, ${fromEnd ? fromEnd.current : sql`false`} as reversed,
    ${counted ? (kept ? kept.n(count) : count) : sql`null::int`} as capped,
    ${kept ? kept.estimate : sql`null::float8`} as estimate,
    ${kept ? USERS_VERSION : sql`null::text`} as version`);
  const row = result.rows[0];
  const pageOfIds = row?.reversed ? [...(row.ids ?? [])].reverse() : (row?.ids ?? []);
  const rows = pageOfIds.length > 0 ? runNamed(db, userRowsStatement, { ids: pageOfIds }) : null;
  const capped = row?.capped ?? 0;
  const total =
    early !== null && early > 2 * EXACT_COUNT_LIMIT
      ? early
      : capped <= EXACT_COUNT_LIMIT
        ? capped
        : Math.max(EXACT_COUNT_LIMIT + 1, early ?? row?.estimate ?? (await estimatedRows(db, users, where)));
  if (kept && counted) await kept.keep(row?.version ?? null, total);
  const list = (await rows)?.rows[0]?.list ?? '';
  return `{"${opts.listKey ?? 'users'}":[${list}],"totalResults":${total}}`;
}

/** usersPageJson as an object (the callers that add to it or test it). */
export async function pageOfUsers(
  db: Executor,
  where: SQL,
  paging: Paging & UserSorting,
  opts: { byGroups?: boolean; estimateFirst?: boolean } = {},
): Promise<{ users: UserDto[]; totalResults: number }> {
  return JSON.parse(await usersPageJson(db, where, paging, opts));
}

/** GET /api/user: Admin every user, Rukovodilac the members of their subtree; `groupId` narrows to one group. JSON text of UsersPage. */
export async function listUsers(ctx: AppContext, actor: Actor, q: Paging & UserSorting & { groupId?: string }): Promise<string> {
  const scope = await scopeOf(ctx.db, actor);
  let where = memberCondition(scope);
  if (q.groupId) {
    // A group outside the scope answers 404 like any id outside it (server-behaviour.md).
    if (!scope.all && !inScope(scope, q.groupId)) throw notFound();
    where = and(where, eq(users.groupId, q.groupId)) as SQL;
  }
  const narrowed = !scope.all || Boolean(q.groupId);
  return usersPageJson(ctx.db, where, q, { byGroups: narrowed, estimateFirst: !narrowed });
}

/** GET /api/user/users-per-role: the users of one role the caller may see (a Rukovodilac: members and guests). JSON text of UsersPage. */
export async function usersPerRole(ctx: AppContext, actor: Actor, q: Paging & UserSorting & { roleId: string }): Promise<string> {
  const scope = await scopeOf(ctx.db, actor);
  let visible = visibleUserCondition(scope);
  if (!scope.all) {
    // visibleUserCondition for one role: every live user of a guest role, only the members of any other.
    // The planner answered "members or guests" with a scan of all users (issue 15); one key lookup of
    // the role leaves an index condition.
    const [role] = await ctx.db.select({ baseRole: roles.baseRole }).from(roles).where(eq(roles.id, q.roleId)).limit(1);
    visible = role?.baseRole === 'Gost' ? isNull(users.deletedAt) : memberCondition(scope);
  }
  return usersPageJson(ctx.db, and(visible, eq(users.roleId, q.roleId)) as SQL, q, { byGroups: !scope.all, estimateFirst: scope.all });
}

/** GET /api/user/guests: every guest (base role Gost); guests have no group, Admin and Rukovodilac see them all. JSON text of GuestsPage. */
export async function listGuests(ctx: AppContext, q: Paging & UserSorting): Promise<string> {
  // The guest roles' ids read first, so the page's condition names them: the planner then knows from
  // role_id's statistics how few guests there are (the bench: 50 of 50,053) and reads them from
  // users_role_order_idx and sorts them, instead of walking every user in name order to find ten guests
  // among them (10,376 index entries, 4.3 ms) as it did for `role_id in (select … where base_role = 'Gost')`,
  // which it expected to hold a quarter of the users (one of four roles).
  const guestRoles = await ctx.db.select({ id: roles.id }).from(roles).where(eq(roles.baseRole, 'Gost'));
  const where =
    guestRoles.length === 0
      ? sql`false`
      : (and(
          isNull(users.deletedAt),
          inArray(
            users.roleId,
            guestRoles.map((r) => r.id),
          ),
        ) as SQL);
  return usersPageJson(ctx.db, where, q, { listKey: 'guests' });
}
