import { type ActivityRowsPage, type DeadlineColour, IN_PROGRESS, type Sorting, type SortKey } from '@trasa/domain';
import { and, eq, type Placeholder, type SQL, sql } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import { groups, groupTypes } from '../../db/schema.js';
import { activities, activityCatalogue } from '../../db/schema-activities.js';
import { clusters, contractClusters, contracts } from '../../db/schema-clusters.js';
import type { Actor } from '../../platform/auth.js';
import { type Executor, type NamedStatement, namedStatement, runNamed } from '../../platform/database.js';
import { offsetOf, type Paging } from '../../platform/paging.js';
import { type SortMap, sortKeyOf } from '../../platform/sorting.js';
import { sqlLiteral } from '../../platform/sqlText.js';
import { searchTerms } from '../../platform/textSearch.js';
import { colourCondition, todayOf } from '../../shared/activityColour.js';
import { clusterScopeOf, visibleClusterCondition, visibleToGroupsCondition } from '../clusters/policy.js';
import { type ActivityRow, presentActivityRow } from './presenter.js';

/**
 * The notifications of spec 3 §2.2 and the Admin's in-progress list of §2.4 (server-behaviour.md
 * "Notifications"; docs/api/notifications.md). Both list activities 'U toku', nearest deadline first
 * (klizno last), coloured by the domain's rule.
 *
 * Every condition is over `activities` alone (uncorrelated subqueries for the catalogue, the clusters'
 * visibility, search and contract), so PostgreSQL walks the partial index activities_in_progress_idx
 * (rok_zavrsetka, id) in the order of the list and stops at the page; the joins that build the rows run
 * for the page only.
 */

export type SearchText = { eng?: string; srb?: string };
export type InProgressFilters = SearchText & {
  contract?: string;
  cluster?: string;
  odgovoran?: string;
  boja?: DeadlineColour;
};

/** The responsible-party codes the actor answers for: their group's type; a manager's subtree's types. */
export async function responsibleTypesOf(db: Executor, actor: Actor): Promise<string[]> {
  if (!actor.group || (actor.role !== 'Zaposleni' && actor.role !== 'Rukovodilac')) return [];
  if (actor.role === 'Zaposleni') return actor.group.typeCode ? [actor.group.typeCode] : [];
  // A subtree's groups share the root's type by inheritance; the set is computed all the same, in one
  // statement with the subtree (the reserved group aside, as subtreeIds does).
  const result = await runNamed(db, subtreeTypes, { group: actor.group.id });
  return result.rows.map((r) => r.code).filter((c): c is string => !!c);
}

const subtreeTypes = namedStatement<{ code: string | null }>(
  'notices_subtree_types',
  sql`
    with recursive tree(id) as (
      select id from ${groups} where id = ${sql.placeholder('group')}
      union
      select g.id from ${groups} g join tree on g.parent_id = tree.id
    )
    select distinct t.code from tree join ${groups} g on g.id = tree.id join ${groupTypes} t on t.id = g.type_id
    where not g.reserved`,
);

/** LIKE treats %, _ and \ specially: typed ones match themselves. */
const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** `folded` contains one of the terms (LIKE-escaped already: values, or placeholders of a named statement). */
function likeAny(folded: SQL, escaped: (string | Placeholder)[]): SQL {
  return sql.join(
    escaped.map((t) => sql`${folded} like '%' || trasa_fold(${t}) || '%'`),
    sql` or `,
  );
}

/**
 * The escaped terms (values or placeholders) in the activity's name or code (the catalogue's 36 rows) or
 * in its cluster's name (the trigram index on clusters.search_text).
 */
function searchConditionOf(escaped: (string | Placeholder)[]): SQL {
  const byActivity = sql`select ${activityCatalogue.code} from ${activityCatalogue}
    where ${likeAny(sql`trasa_fold(${activityCatalogue.code} || ' ' || ${activityCatalogue.naziv})`, escaped)}`;
  const byCluster = sql`select ${clusters.id} from ${clusters} where ${likeAny(sql`${clusters.searchText}`, escaped)}`;
  return sql`(${activities.code} in (${byActivity}) or ${activities.clusterId} in (${byCluster}))`;
}

/** The typed text (eng) and its transliteration (srb) LIKE-escaped: one or two terms, none when both are blank. */
const escapedTerms = (input: SearchText) => searchTerms({ eng: input.eng ?? '', srb: input.srb ?? '' }).map(escapeLike);

/** The typed text (eng) or its transliteration (srb) in the activity's name or code or in its cluster's name. */
function searchCondition(input: SearchText): SQL | undefined {
  const escaped = escapedTerms(input);
  return escaped.length === 0 ? undefined : searchConditionOf(escaped);
}

/** Activities one of whose responsible parties is among `codes` (a list, or a text[] parameter). */
function responsibleCondition(codes: string[] | Placeholder): SQL {
  const list = Array.isArray(codes)
    ? sql`array[${sql.join(
        codes.map((c) => sql`${c}`),
        sql`, `,
      )}]::text[]`
    : sql`${codes}::text[]`;
  return sql`${activities.code} in (select ${activityCatalogue.code} from ${activityCatalogue} where ${activityCatalogue.odgovoran} && ${list})`;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

type PageRow = Omit<ActivityRow, 'naziv' | 'odgovoran' | 'rok' | 'contractId' | 'contractNaziv'> & {
  total: number;
  entry: { naziv: string; odgovoran: string[]; rok: number | null } | null;
  contract: { id: string; naziv: string } | null;
};

/**
 * `sort` of the activity lists (LIST_SORTS.activities): kratakNaziv in the catalogue's order (A1, A2 …
 * A10, not by letters), the catalogue's name, the cluster's and general contract's names, the dates;
 * brojDanaDoRoka is the deadline's order.
 */
const ACTIVITY_SORTS: SortMap<'activities'> = {
  kratakNaziv: { value: activities.position },
  naziv: { text: sql`(select ac.naziv from ${activityCatalogue} ac where ac.code = ${activities.code})` },
  lokacija: { text: sql`(select c.naziv from ${clusters} c where c.id = ${activities.clusterId})` },
  datumPocetka: { value: activities.datumPocetka },
  rokZavrsetka: { value: activities.rokZavrsetka },
  brojDanaDoRoka: { value: activities.rokZavrsetka },
  ugovor: {
    text: sql`(select k.naziv from ${contractClusters} cc join ${contracts} k on k.id = cc.contract_id
      where cc.cluster_id = ${activities.clusterId} and cc.kind = 'contract')`,
  },
};
export type ActivitySorting = Sorting<SortKey<'activities'>>;

/**
 * One page of in-progress activities matching `where` (conditions over `activities`) and their total, in
 * one statement; the page's rows get their catalogue entry, cluster and general contract by key lookups
 * (scalar subqueries keep the planner's work small: a join of six tables cost more to plan than to run).
 * Past the last page the answer still carries the total (the left join from the count keeps one row).
 *
 * The matching ids (with their deadline or the chosen sort's key) are read once, materialised, counted
 * and sorted for the page. Only every activity in progress in the deadline order (`unfiltered`: the
 * Admin's list as it opens) walks the in-progress index (rok_zavrsetka, id) in its order and stops at
 * the page, and counts the same index's entries apart (index-only): sorting 3,300 materialised rows for
 * page 1 cost more than both (issue 9). A filtered list keeps the single read: its conditions (colour,
 * search, visibility) would run twice.
 */
/** 'U toku' written into the text, so a generic plan of a prepared page still matches the partial in-progress index. */
const inProgressStatus = sqlLiteral(IN_PROGRESS);

/** The page statement (see pageOf) for `where`, the sort `key` and the window (values or placeholders). */
function pageSql(
  where: SQL,
  key: ReturnType<typeof sortKeyOf>,
  limit: number | Placeholder,
  offset: number | Placeholder,
  unfiltered: boolean,
): SQL {
  const matches = sql`${activities.status} = ${inProgressStatus} and ${where}`;
  const window = sql`limit ${limit} offset ${offset}`;
  const keyColumn = key ? key.expression : activities.rokZavrsetka;
  const pageOrder = key ? sql`sort_key ${key.direction}, id ${key.direction}` : sql`sort_key asc nulls last, id`;
  const source =
    key || !unfiltered
      ? sql`with matching as materialized (
        select ${activities.id} as id, ${keyColumn} as sort_key from ${activities} where ${matches}
      ), page as (
        select id, sort_key from matching order by ${pageOrder} ${window}
      ), t as (select count(*)::int as total from matching)`
      : sql`with page as (
        select ${activities.id} as id, ${activities.rokZavrsetka} as sort_key from ${activities} where ${matches}
        order by ${activities.rokZavrsetka} asc nulls last, ${activities.id} ${window}
      ), t as (select count(*)::int as total from ${activities} where ${matches})`;
  const rowOrder = key ? sql`page.sort_key ${key.direction}, page.id ${key.direction}` : sql`page.sort_key asc nulls last, page.id`;
  return sql`
    ${source}
    select t.total, a.id, a.code, a.status, a.datum_pocetka as "datumPocetka", a.datum_zavrsetka as "datumZavrsetka",
      a.rok_zavrsetka as "rokZavrsetka", a.returned, a.cluster_id as "clusterId",
      (select json_build_object('naziv', ac.naziv, 'odgovoran', ac.odgovoran, 'rok', ac.rok)
        from ${activityCatalogue} ac where ac.code = a.code) as entry,
      (select c.naziv from ${clusters} c where c.id = a.cluster_id) as "clusterNaziv",
      (select json_build_object('id', k.id, 'naziv', k.naziv) from ${contractClusters} cc join ${contracts} k on k.id = cc.contract_id
        where cc.cluster_id = a.cluster_id and cc.kind = 'contract') as contract
    from t left join (page join ${activities} a on a.id = page.id) on true
    order by ${rowOrder}`;
}

/** The search's two terms as parameters of the named statements (openingPages). */
const searchPlaceholders = [sql.placeholder('term1'), sql.placeholder('term2')];

/**
 * The lists in the deadline order, without a filter, as named statements written once
 * (issue 9: building the page with drizzle and planning it were most of its cost): the Admin's whole
 * in-progress list; the notifications of a caller who sees everything, and of one with a limited scope
 * (the scope's groups and the responsible types as array parameters); and the same two searched.
 */
const openingPages = {
  inProgress: namedStatement<PageRow>(
    'in_progress_page',
    pageSql(sql`true`, null, sql.placeholder('limit'), sql.placeholder('offset'), true),
  ),
  noticesAll: namedStatement<PageRow>(
    'notices_page_all',
    pageSql(responsibleCondition(sql.placeholder('types')), null, sql.placeholder('limit'), sql.placeholder('offset'), false),
  ),
  noticesScoped: namedStatement<PageRow>(
    'notices_page_scoped',
    pageSql(
      and(visibleToGroupsCondition(sql.placeholder('groups'), activities.clusterId), responsibleCondition(sql.placeholder('types'))) as SQL,
      null,
      sql.placeholder('limit'),
      sql.placeholder('offset'),
      false,
    ),
  ),
  // Searched (GET /api/search/notification), the two terms as parameters (one typed: the same twice).
  // Planning the unnamed statement cost more than running it (an employee's 'cacak': 1.9–2.7 ms against 1.5).
  noticesSearchAll: namedStatement<PageRow>(
    'notices_search_all',
    pageSql(
      and(responsibleCondition(sql.placeholder('types')), searchConditionOf(searchPlaceholders)) as SQL,
      null,
      sql.placeholder('limit'),
      sql.placeholder('offset'),
      false,
    ),
  ),
  noticesSearchScoped: namedStatement<PageRow>(
    'notices_search_scoped',
    pageSql(
      and(
        visibleToGroupsCondition(sql.placeholder('groups'), activities.clusterId),
        responsibleCondition(sql.placeholder('types')),
        searchConditionOf(searchPlaceholders),
      ) as SQL,
      null,
      sql.placeholder('limit'),
      sql.placeholder('offset'),
      false,
    ),
  ),
};

/**
 * One page of in-progress activities matching `where` (conditions over `activities`) and their total, in
 * one statement; the page's rows get their catalogue entry, cluster and general contract by key lookups
 * (scalar subqueries keep the planner's work small: a join of six tables cost more to plan than to run).
 * Past the last page the answer still carries the total (the left join from the count keeps one row).
 *
 * The matching ids (with their deadline or the chosen sort's key) are read once, materialised, counted
 * and sorted for the page. Only every activity in progress in the deadline order (`unfiltered`: the
 * Admin's list as it opens) walks the in-progress index (rok_zavrsetka, id) in its order and stops at
 * the page, and counts the same index's entries apart (index-only): sorting 3,300 materialised rows for
 * page 1 cost more than both (issue 9). A filtered list keeps the single read: its conditions (colour,
 * search, visibility) would run twice.
 *
 * `where` is either a condition, or one of openingPages with its values (the lists as they open).
 */
async function pageOf(
  db: Executor,
  where: SQL | { statement: NamedStatement<PageRow>; values: Record<string, unknown> },
  paging: Paging & ActivitySorting,
  now: Date,
  unfiltered = false,
): Promise<ActivityRowsPage> {
  const found =
    'statement' in where
      ? await runNamed(db, where.statement, { ...where.values, limit: paging.limit, offset: offsetOf(paging) })
      : await db.execute<PageRow>(pageSql(where, sortKeyOf(ACTIVITY_SORTS, paging), paging.limit, offsetOf(paging), unfiltered));
  const today = todayOf(now);
  const rows = found.rows.filter((r) => r.id !== null);
  return {
    activities: rows.map((r) =>
      presentActivityRow(
        {
          ...r,
          naziv: r.entry?.naziv ?? r.code,
          odgovoran: r.entry?.odgovoran ?? [],
          rok: r.entry?.rok ?? null,
          contractId: r.contract?.id ?? null,
          contractNaziv: r.contract?.naziv ?? null,
        },
        today,
        now,
      ),
    ),
    totalResults: found.rows[0]?.total ?? 0,
  };
}

/**
 * The notifications' condition (over `activities`; the list and its export, features/exports): the
 * activities of the visible clusters whose responsible parties include the caller's types, searched;
 * null when the caller answers for none (a guest, a group without a built-in type).
 */
export async function notificationsCondition(db: Executor, actor: Actor, input: SearchText): Promise<SQL | null> {
  const types = await responsibleTypesOf(db, actor);
  if (types.length === 0) return null;
  const scope = await clusterScopeOf(db, actor);
  return and(visibleClusterCondition(scope, activities.clusterId), responsibleCondition(types), searchCondition(input)) as SQL;
}

/**
 * GET /api/activity/notifications, GET /api/search/notification: in-progress activities of the clusters
 * the caller sees whose responsible parties include the caller's group type (a manager: the types of
 * their subtree). A guest, or a group without a built-in type, has none.
 */
export async function notifications(
  ctx: AppContext,
  actor: Actor,
  input: Paging & ActivitySorting & SearchText,
  now = new Date(),
): Promise<ActivityRowsPage> {
  if (!input.sort) {
    // In the deadline order: one of the statements written once (openingPages), the same conditions.
    const types = await responsibleTypesOf(ctx.db, actor);
    if (types.length === 0) return { activities: [], totalResults: 0 };
    const scope = await clusterScopeOf(ctx.db, actor);
    const [term1, term2 = term1] = escapedTerms(input);
    const statement =
      term1 === undefined
        ? scope.all
          ? openingPages.noticesAll
          : openingPages.noticesScoped
        : scope.all
          ? openingPages.noticesSearchAll
          : openingPages.noticesSearchScoped;
    const values = { types, ...(!scope.all && { groups: scope.groupIds }), ...(term1 !== undefined && { term1, term2 }) };
    return pageOf(ctx.db, { statement, values }, input, now);
  }
  const where = await notificationsCondition(ctx.db, actor, input);
  if (!where) return { activities: [], totalResults: 0 };
  return pageOf(ctx.db, where, input, now);
}

/**
 * The Admin's in-progress filters as a condition over `activities` (the list and its export): the general
 * contract, the cluster, a responsible party, the colour (as of `now`) and the search. A malformed id
 * matches nothing.
 */
export function inProgressCondition(input: InProgressFilters, now = new Date()): SQL {
  const none = sql`false`;
  const idOrNone = (id: string | undefined, cond: (id: string) => SQL) => (id === undefined ? undefined : UUID.test(id) ? cond(id) : none);
  return and(
    sql`true`,
    idOrNone(
      input.contract,
      (id) => sql`${activities.clusterId} in (select ${contractClusters.clusterId} from ${contractClusters}
      where ${contractClusters.contractId} = ${id} and ${contractClusters.kind} = 'contract')`,
    ),
    idOrNone(input.cluster, (id) => eq(activities.clusterId, id)),
    input.odgovoran ? responsibleCondition([input.odgovoran]) : undefined,
    input.boja ? colourCondition(input.boja, todayOf(now)) : undefined,
    searchCondition(input),
  ) as SQL;
}

/**
 * GET /api/activity/in-progress (Admin): every activity in progress, filtered by the general contract,
 * the cluster, a responsible party and the colour, and searched.
 */
export async function inProgress(
  ctx: AppContext,
  input: Paging & ActivitySorting & InProgressFilters,
  now = new Date(),
): Promise<ActivityRowsPage> {
  const unfiltered = !input.contract && !input.cluster && !input.odgovoran && !input.boja && !searchCondition(input);
  if (unfiltered && !input.sort) return pageOf(ctx.db, { statement: openingPages.inProgress, values: {} }, input, now);
  return pageOf(ctx.db, inProgressCondition(input, now), input, now, unfiltered);
}
