import type { Sorting, SortKey } from '@trasa/domain';
import { and, sql } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import { groups, groupTypes } from '../../db/schema.js';
import { clusterGroups, clusters, contractClusters, contracts } from '../../db/schema-clusters.js';
import type { Actor } from '../../platform/auth.js';
import { namedStatement, runNamed } from '../../platform/database.js';
import { offsetOf, type Paging } from '../../platform/paging.js';
import { orderOf, type SortMap } from '../../platform/sorting.js';
import { searchTerms } from '../../platform/textSearch.js';
import { appToday } from '../../platform/time.js';
import { type ClusterScope, clusterScopeOf, visibleClusterCondition, visibleClusterIds } from './policy.js';
import { clusterInProgressSql, clusterOrder, clusterStatusSql, type LocationListItem, locationListJsonSql } from './presenter.js';
import { clusterMatchCondition } from './search.js';
import type { LocationsPage } from './service.js';

/**
 * The clusters list (GET /api/location and its search): its sorts and its page as JSON built by PostgreSQL.
 */
/**
 * `sort` of the clusters list (LIST_SORTS.clusters): the responsible contractors as the list shows them
 * (the names of the groups of type Izvođač joined in Serbian order), the status in the order of progress
 * (not started, in progress, finished), the general contract's name.
 */
/**
 * `sort` of the clusters list (LIST_SORTS.clusters) as plain expressions over the cluster's row: the
 * definition of each key's value. The list reads the same values kept on the cluster (CLUSTER_SORTS).
 */
export const CLUSTER_SORT_DEFINITIONS: SortMap<'clusters'> = {
  naziv: { text: clusters.naziv },
  odgovoran: {
    // The responsible contractors (type Izvođač): what the column shows (migration 0032).
    text: sql`(select string_agg(g.naziv, ', ' order by g.naziv collate trasa_sr) from ${clusterGroups} cg
      join ${groups} g on g.id = cg.group_id join ${groupTypes} t on t.id = g.type_id and t.code = 'IZVODJAC'
      where cg.cluster_id = ${clusters.id})`,
  },
  status: { value: sql`(case ${clusterStatusSql} when 'Nije započet' then 0 when 'U toku' then 1 else 2 end)` },
  ugovor: {
    text: sql`(select min(c.naziv collate trasa_sr) from ${contractClusters} cc join ${contracts} c on c.id = cc.contract_id
      where cc.cluster_id = ${clusters.id} and cc.kind = 'contract')`,
  },
};

/**
 * The list's sort keys: groups and contract read from the keys kept on the cluster (migration 0021:
 * exactly CLUSTER_SORT_DEFINITIONS' values, kept by triggers on the links and the names; test:
 * clusters/sortKeys.test.ts), each with its index in trasa_sr order.
 */
export const CLUSTER_SORTS: SortMap<'clusters'> = {
  naziv: { text: clusters.naziv },
  odgovoran: { text: sql`${clusters}.sort_groups` },
  status: CLUSTER_SORT_DEFINITIONS.status,
  ugovor: { text: sql`${clusters}.sort_contract` },
};
export type ClusterSorting = Sorting<SortKey<'clusters'>>;

/** The list's answer with `locations` as JSON text (locationListJsonSql): GET /api/location sends it as it is. */
export type LocationsPageJson = { locations: string; aktivne: number; totalResults: number };

/**
 * The list's rows as JSON text (locationListJsonSql) of the clusters whose ids `ids` names, in that order,
 * coloured as of `today`: one named statement, the same for every page, role, sort and search. Written
 * once, PostgreSQL keeps its generic plan after five runs (index lookups of ≤ limit ids); as a part of
 * the page's statement it was parsed and planned on every request: ≈1.5 of the statement's 2.3 ms of
 * backend CPU for a Rukovodilac's page (docs/decisions.md "… helper lists").
 */
const locationListStatement = namedStatement<{ locations: string }>(
  'cluster_list_json',
  sql`with page as (select u.id, u.n from unnest(${sql.placeholder('ids')}::uuid[]) with ordinality as u(id, n))
    select (${locationListJsonSql(sql`page`, sql.placeholder('today'))}) as locations`,
);

/**
 * GET /api/location, GET /api/search/location: visible clusters by name (or `sort`); `aktivne` counts all
 * visible ones in progress. Two statements (after the scope's groups, for a limited scope): the page's ids
 * in list order with both counts over the stored status, then the page built as JSON in SQL
 * (locationListStatement, prepared).
 *
 * A limited scope's search reads its clusters once (`scoped`: each visible cluster with whether it matches
 * and whether it is in progress, the match's semi-joins run once) and takes the page and both counts from
 * them. Written as for the Admin, the scope's condition and the match would be planned and run twice (page
 * and counts) and the counts would scan every cluster against the scope's hashed ids: an employee's search
 * of 300 clusters costs 1.8 ms of PostgreSQL per request this way against 3.5 ms (a word no cluster has: 1.5
 * against 4.4; a single letter every cluster has: 9.2 against 7.7; bench case `clusters search cacak`,
 * employee). The Admin's (and a plain list's) form measures faster for them as it is.
 */
export async function listClustersJson(
  ctx: AppContext,
  actor: Actor,
  input: Paging & ClusterSorting & { eng?: string; srb?: string },
  knownScope?: ClusterScope,
): Promise<LocationsPageJson> {
  const scope = knownScope ?? (await clusterScopeOf(ctx.db, actor));
  const visible = visibleClusterCondition(scope);
  const match = clusterMatchCondition(searchTerms({ eng: input.eng ?? '', srb: input.srb ?? '' }));
  const order = orderOf(CLUSTER_SORTS, input, clusterOrder, clusters.id);
  const scopedSearch = match !== undefined && !scope.all;
  const page = ctx.db
    .select({ id: clusters.id, n: sql<number>`row_number() over (order by ${sql.join(order, sql`, `)})`.as('n') })
    .from(clusters)
    .where(scopedSearch ? sql`${clusters.id} in (select id from scoped where matched)` : and(visible, match))
    .orderBy(...order)
    .limit(input.limit)
    .offset(offsetOf(input));
  const result = await ctx.db.execute<{ ids: string[] | null; total: number; aktivne: number }>(
    scopedSearch
      ? sql`
    with scoped as materialized (
      select ${clusters.id} as id, (${match}) as matched, (${clusterInProgressSql}) as active
      from ${clusters} where ${clusters.id} in (${visibleClusterIds(scope)})
    ),
    page as (${page}),
    counts as (select (count(*) filter (where matched))::int as total, (count(*) filter (where active))::int as aktivne from scoped)
    select (select array_agg(page.id::text order by page.n) from page) as ids, counts.total, counts.aktivne from counts`
      : sql`
    with page as (${page}),
    counts as (
      select (count(*) filter (where ${match ?? sql`true`}))::int as total, (count(*) filter (where ${clusterInProgressSql}))::int as aktivne
      from ${clusters} where ${visible}
    )
    select (select array_agg(page.id::text order by page.n) from page) as ids, counts.total, counts.aktivne from counts`,
  );
  const row = result.rows[0];
  const ids = row?.ids ?? [];
  const locations = ids.length
    ? ((await runNamed(ctx.db, locationListStatement, { ids, today: appToday() })).rows[0]?.locations ?? '[]')
    : '[]';
  return { locations, aktivne: row?.aktivne ?? 0, totalResults: row?.total ?? 0 };
}

/** listClustersJson's answer as objects (the search route's; tests). */
export async function listClusters(
  ctx: AppContext,
  actor: Actor,
  input: Paging & ClusterSorting & { eng?: string; srb?: string },
): Promise<LocationsPage> {
  const page = await listClustersJson(ctx, actor, input);
  return { locations: JSON.parse(page.locations) as LocationListItem[], aktivne: page.aktivne, totalResults: page.totalResults };
}

/** The JSON text of a LocationsPage, from listClustersJson's parts (keys in LocationsPage's order). */
export function locationsPageText(page: LocationsPageJson): string {
  return `{"locations":${page.locations},"aktivne":${page.aktivne},"totalResults":${page.totalResults}}`;
}
