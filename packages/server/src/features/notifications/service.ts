import { type ActivityRowsPage, type DeadlineColour, IN_PROGRESS, type Sorting, type SortKey } from '@trasa/domain';
import { and, eq, type SQL, sql } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import { groups, groupTypes } from '../../db/schema.js';
import { activities, activityCatalogue } from '../../db/schema-activities.js';
import { clusters, contractClusters, contracts } from '../../db/schema-clusters.js';
import type { Actor } from '../../platform/auth.js';
import type { Executor } from '../../platform/database.js';
import { type SortMap, sortKeyOf } from '../../platform/sorting.js';
import { clusterScopeOf, visibleClusterCondition } from '../clusters/policy.js';
import { searchTerms } from '../search/service.js';
import { offsetOf, type Paging } from '../users/paging.js';
import { colourCondition, todayOf } from './colour.js';
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
  const result = await db.execute<{ code: string | null }>(sql`
    with recursive tree(id) as (
      select id from ${groups} where id = ${actor.group.id}
      union
      select g.id from ${groups} g join tree on g.parent_id = tree.id
    )
    select distinct t.code from tree join ${groups} g on g.id = tree.id join ${groupTypes} t on t.id = g.type_id
    where not g.reserved`);
  return result.rows.map((r) => r.code).filter((c): c is string => !!c);
}

/** LIKE treats %, _ and \ specially: typed ones match themselves. */
const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

function likeAny(folded: SQL, terms: string[]): SQL {
  return sql.join(
    terms.map((t) => sql`${folded} like '%' || trasa_fold(${escapeLike(t)}) || '%'`),
    sql` or `,
  );
}

/**
 * The typed text (eng) or its transliteration (srb) in the activity's name or code (the catalogue's 36
 * rows) or in its cluster's name (the trigram index on clusters.search_text).
 */
function searchCondition(input: SearchText): SQL | undefined {
  const terms = searchTerms({ eng: input.eng ?? '', srb: input.srb ?? '' });
  if (terms.length === 0) return undefined;
  const byActivity = sql`select ${activityCatalogue.code} from ${activityCatalogue}
    where ${likeAny(sql`trasa_fold(${activityCatalogue.code} || ' ' || ${activityCatalogue.naziv})`, terms)}`;
  const byCluster = sql`select ${clusters.id} from ${clusters} where ${likeAny(sql`${clusters.searchText}`, terms)}`;
  return sql`(${activities.code} in (${byActivity}) or ${activities.clusterId} in (${byCluster}))`;
}

/** Activities one of whose responsible parties is among `codes`. */
function responsibleCondition(codes: string[]): SQL {
  const list = sql`array[${sql.join(
    codes.map((c) => sql`${c}`),
    sql`, `,
  )}]::text[]`;
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
async function pageOf(
  db: Executor,
  where: SQL,
  paging: Paging & ActivitySorting,
  now: Date,
  unfiltered = false,
): Promise<ActivityRowsPage> {
  const key = sortKeyOf(ACTIVITY_SORTS, paging);
  const matches = sql`${activities.status} = ${IN_PROGRESS} and ${where}`;
  const window = sql`limit ${paging.limit} offset ${offsetOf(paging)}`;
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
  const result = await db.execute<PageRow>(sql`
    ${source}
    select t.total, a.id, a.code, a.status, a.datum_pocetka as "datumPocetka", a.datum_zavrsetka as "datumZavrsetka",
      a.rok_zavrsetka as "rokZavrsetka", a.returned, a.cluster_id as "clusterId",
      (select json_build_object('naziv', ac.naziv, 'odgovoran', ac.odgovoran, 'rok', ac.rok)
        from ${activityCatalogue} ac where ac.code = a.code) as entry,
      (select c.naziv from ${clusters} c where c.id = a.cluster_id) as "clusterNaziv",
      (select json_build_object('id', k.id, 'naziv', k.naziv) from ${contractClusters} cc join ${contracts} k on k.id = cc.contract_id
        where cc.cluster_id = a.cluster_id and cc.kind = 'contract') as contract
    from t left join (page join ${activities} a on a.id = page.id) on true
    order by ${rowOrder}`);
  const today = todayOf(now);
  const rows = result.rows.filter((r) => r.id !== null);
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
    totalResults: result.rows[0]?.total ?? 0,
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
  return pageOf(ctx.db, inProgressCondition(input, now), input, now, unfiltered);
}
