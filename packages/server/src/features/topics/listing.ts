import { foldForSearch, type Sorting, type SortKey } from '@trasa/domain';
import { and, desc, eq, or, type SQL, sql } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import { clusters, topics } from '../../db/schema-clusters.js';
import type { Actor } from '../../platform/auth.js';
import { EXACT_COUNT_LIMIT, tableEstimateSql } from '../../platform/paging.js';
import { orderOf, type SortMap } from '../../platform/sorting.js';
import { sqlDirection } from '../../platform/sqlText.js';
import { headOfScopePage, keptTotal, pageByKeptClusters, type TotalColumns, totalColumns, totalOf } from '../clusters/keptCounts.js';
import { clusterScopeOf, inVisibleClusters, visibleClusterIds } from '../clusters/policy.js';
import { topicRightsOf } from './permissions.js';
import { presentTopic, type TopicDto, topicRowsOf } from './presenter.js';

/** GET /api/topic: the topics list, its search condition and sorts (the export reads them too). */

export type TopicListQuery = {
  page: number;
  limit: number;
  q: string;
  qAlt: string;
  status: '' | 'otvoren' | 'zatvoren';
  prioritet: '' | 'nizak' | 'srednji' | 'visok';
} & Sorting<SortKey<'topics'>>;

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * q and its transliteration qAlt, folded (trasa_fold ≙ foldForSearch), over opis and the cluster's name:
 * the topic's stored folded opis (topics.search_text, drizzle/0010, trigram index) or its cluster's
 * folded name, kept on the topic (`cluster_search` ≙ clusters.search_text; drizzle/0024, kept by
 * triggers, not in the schema files; topics_cluster_search_idx), a condition over the topics table alone
 * whose arms the planner estimates from their statistics. Folding every row's text on each search cost a
 * second at 20,000 topics (issue 15); `cluster_id in (the matching clusters)` was estimated at half the
 * topics and read all 20,000 for a page. The list and its export (features/exports/lists.ts) both use
 * this one condition.
 */
export function topicSearchCondition(q: string, qAlt: string): SQL | undefined {
  const byFold = new Map<string, string>();
  for (const text of [q.trim(), qAlt.trim()]) if (text) byFold.set(foldForSearch(text), text);
  const terms = [...byFold.values()];
  if (terms.length === 0) return undefined;
  return or(
    ...terms.map((t) => {
      const pattern = sql`'%' || trasa_fold(${escapeLike(t)}) || '%'`;
      return sql`(${topics}.search_text like ${pattern} or ${topics}.cluster_search like ${pattern})`;
    }),
  );
}

/**
 * `sort` of GET /api/topic (LIST_SORTS.topics): the cluster's name (a subquery over the topic's row, so
 * the deferred join's inner query still reads topics alone), the priority from low to high, the deadline.
 */
export const TOPIC_SORTS: SortMap<'topics'> = {
  nazivKlastera: { text: sql`(select c.naziv from ${clusters} c where c.id = ${topics.clusterId})` },
  opis: { text: topics.opis },
  prioritet: { value: sql`array_position(array['nizak','srednji','visok'], ${topics.prioritet})` },
  status: { value: topics.status },
  rok: { value: topics.rok },
};

/**
 * The deepest row a limited scope's newest topics are read to from everybody's newest (headOfScopePage):
 * past it (1,000 topics read) the scope's own ranges cost less (bench case `topics`, employee: through the
 * head, page 1 costs PostgreSQL 1.73 ms per request against 2.01 from the ranges, but page 20 reads 4,000
 * topics and costs 2.25 against 2.08).
 */
const HEAD_MAX = 50;

/** GET /api/topic: topics of visible clusters, filtered, newest change first (or by `sort`). */
export async function listTopics(ctx: AppContext, actor: Actor, query: TopicListQuery): Promise<{ data: TopicDto[]; total: number }> {
  const scope = await clusterScopeOf(ctx.db, actor);
  // A limited scope as `cluster_id = any(the visible clusters)`: an index range per cluster
  // (topics_cluster_list_idx, drizzle/0024: its topics in time order, with what the list filters by), so
  // the count and the page read the visible topics only (an employee's 300 clusters: 2,000 of 20,000),
  // and a search's bitmap is ANDed with them; visibleClusterCondition's two hashed subqueries made
  // PostgreSQL read and filter every topic. The same rows (the union of the two subqueries).
  const visible = scope.all ? undefined : inVisibleClusters(scope, topics.clusterId);
  const filters = and(
    query.status ? eq(topics.status, query.status) : undefined,
    query.prioritet ? eq(topics.prioritet, query.prioritet) : undefined,
    topicSearchCondition(query.q, query.qAlt),
  );
  const where = and(visible, filters);
  // A deferred join: the page's ids from topics alone (topics_list_order_idx), then only those rows
  // joined and presented (their comment counts), not every row skipped on the way to a deep page.
  const order = orderOf(TOPIC_SORTS, query, [desc(topics.updatedAt), desc(topics.id)], topics.id);
  const offset = (query.page - 1) * query.limit;
  const dir = sqlDirection(query.order === 'desc' ? 'desc' : 'asc');
  // By cluster name: the (visible) clusters walked in name order (clusters_order_idx) and each one's
  // topics read in id order (topics_cluster_order_idx, drizzle/0013), the order of
  // TOPIC_SORTS.nazivKlastera without looking up the name of every topic. A LATERAL subquery PostgreSQL
  // cannot flatten (offset 0): with a join it hashed every topic with its cluster and sorted them all by
  // name near the last page. A limited scope: only its clusters, sorted by name (300 of 3,000 for an
  // employee), not a filter on each topic read.
  const walked = scope.all
    ? sql`${clusters}`
    : sql`(select c.id, c.naziv from ${clusters} c where c.id in (${visibleClusterIds(scope)})
        order by c.naziv collate trasa_sr ${dir} offset 0)`;
  const unfiltered = filters === undefined;
  const pageIds =
    query.sort === 'nazivKlastera' && unfiltered
      ? // Without a filter: the clusters before the page skipped whole by their kept numbers of topics
        // (cluster_list_counts, drizzle/0025): the Admin's page 2,000 read the 20,000 topics before it.
        pageByKeptClusters('topics', {
          scope,
          dir: query.order === 'desc' ? 'desc' : 'asc',
          limit: query.limit,
          offset,
          rowsOf: (cluster) => sql`select ${topics.id} as id from ${topics} where ${topics.clusterId} = ${cluster}`,
        })
      : !scope.all && unfiltered && !query.sort && visible && offset + query.limit <= HEAD_MAX
        ? headOfScopePage({
            table: topics,
            id: sql`${topics.id}`,
            key: sql`${topics.updatedAt}`,
            cluster: sql`${topics.clusterId}`,
            search: sql`true`,
            where: visible,
            clusters: visibleClusterIds(scope),
            by: (key, id) => sql`${key} desc, ${id} desc`,
            limit: query.limit,
            offset,
          })
        : query.sort === 'nazivKlastera'
          ? sql`select t.id from ${walked} c
          cross join lateral (select ${topics.id} as id from ${topics} where ${topics.clusterId} = c.id and ${and(sql`true`, filters)} offset 0) t
          order by c.naziv collate trasa_sr ${dir}, t.id ${dir} limit ${query.limit} offset ${offset}`
          : sql`${ctx.db
              .select({ id: topics.id })
              .from(topics)
              .where(where)
              .orderBy(...order)
              .limit(query.limit)
              .offset(offset)}`;
  // One statement for the page's ids and the total, then the page's rows from a prepared statement
  // (topicRowsOf). Without a filter the total is the sum of the (visible) clusters' kept numbers of
  // topics (drizzle/0025), the same answer as counting them; the Admin's 20,000 are past the exact limit,
  // so the table's estimate comes with it (EXPLAIN's answer for the whole table, one statement less).
  // A limited scope, filtered, newest first: its matching topics found once (`m`: the scope's index ranges
  // ANDed with the search's bitmap, up to the count's cap), the total counted from them and, when they are
  // all of them (within the cap), the page sorted from them; the page and the count each found them before
  // (an employee's 'kabl' 2.9 ms, half of it twice the same bitmap and scope). Past the cap (a large scope,
  // a broad filter) the page is read as before: PostgreSQL evaluates that branch only then.
  const matchedOnce = !scope.all && !unfiltered && !query.sort;
  const listed = ctx.db.execute<{ ids: string[] | null } & TotalColumns>(
    matchedOnce
      ? sql`with m as materialized (select ${topics.id} as id, ${topics.updatedAt} as updated_at from ${topics} where ${where}
          limit ${EXACT_COUNT_LIMIT + 1}), n as materialized (select count(*)::int as n from m)
        select case when (select n from n) <= ${EXACT_COUNT_LIMIT}
            then array(select id from m order by updated_at desc, id desc limit ${query.limit} offset ${offset})
            else array(${pageIds}) end as ids,
          (select n from n) as n, null::float8 as estimate, null::text as version`
      : sql`select array(${pageIds}) as ids, t.* from (${totalColumns(
          unfiltered
            ? scope.all
              ? { kept: keptTotal('topics', scope), estimate: tableEstimateSql(topics) }
              : { kept: keptTotal('topics', scope), exact: true }
            : { table: topics, where },
        )}) t`,
  );
  const [row, rights] = await Promise.all([listed.then((r) => r.rows[0]), topicRightsOf(ctx.db, actor)]);
  const [rows, total] = await Promise.all([topicRowsOf(ctx.db, row?.ids ?? []), totalOf(ctx.db, row, topics, where)]);
  return { data: rows.map((r) => presentTopic(r, rights)), total };
}
