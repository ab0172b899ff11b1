import {
  foldForSearch,
  type GroupBrief,
  isReservedGroupName,
  type Sorting,
  type SortKey,
  TOPICS,
  type topicCommentSchema,
  type topicCreateSchema,
  USERS,
} from '@trasa/domain';
import { and, count, desc, eq, or, type SQL, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { AppContext } from '../../context.js';
import { groups, groupTypes } from '../../db/schema.js';
import { clusters, topicComments, topics } from '../../db/schema-clusters.js';
import { writeLog } from '../../platform/audit.js';
import type { Actor } from '../../platform/auth.js';
import { type Executor, serbianOrder } from '../../platform/database.js';
import { badRequest, conflict, forbidden, notFound } from '../../platform/errors.js';
import { EXACT_COUNT_LIMIT, tableEstimateSql } from '../../platform/paging.js';
import { listVersionSql, searchCountKey, searchCountOf } from '../../platform/searchCounts.js';
import { orderOf, type SortMap } from '../../platform/sorting.js';
import { sqlDirection } from '../../platform/sqlText.js';
import {
  headOfScopePage,
  keptScopeTotal,
  keptTotal,
  pageByKeptClusters,
  type TotalColumns,
  totalColumns,
  totalOf,
} from '../clusters/keptCounts.js';
import {
  clusterScopeOf,
  groupsSeeingClusterCondition,
  inVisibleClusters,
  isClusterVisible,
  visibleClusterIds,
} from '../clusters/policy.js';
import { authorGroupOf, permissionsOn, type TopicRights, topicRightsOf } from './permissions.js';
import { canCommentOn, type TopicRow, visibleTopic } from './policy.js';
import { presentTopic, presentTopicById, type TopicDto, topicRowsOf } from './presenter.js';

export type RequestInfo = { ip: string; url: string };
export type TopicCreateInput = z.output<typeof topicCreateSchema>;
export type TopicEditInput = { odgovoran: string; opis?: string; rok?: string | null; prioritet?: 'nizak' | 'srednji' | 'visok' };
export type TopicCommentInput = z.output<typeof topicCommentSchema>;
export type TopicListQuery = {
  page: number;
  limit: number;
  q: string;
  qAlt: string;
  status: '' | 'otvoren' | 'zatvoren';
  prioritet: '' | 'nizak' | 'srednji' | 'visok';
} & Sorting<SortKey<'topics'>>;

const invalidGroup = (field: string) => badRequest(USERS.invalidOption, { [field]: USERS.invalidOption });
const closedRefusal = () => conflict(TOPICS.closedLocked);
const commentedRefusal = () => conflict(TOPICS.commentedLocked);

/**
 * A group that can answer a topic of the cluster: it sees the cluster itself (groupsSeeingCluster), and
 * is not named Admin/'Админ'; otherwise 400 on `field` (a missing group reads the same).
 */
async function assertAnsweringGroup(db: Executor, clusterId: string, groupId: string, field: string): Promise<void> {
  if (!UUID.test(groupId)) throw invalidGroup(field);
  const [g] = await db
    .select({ naziv: groups.naziv, cirilica: groups.cirilica })
    .from(groups)
    .where(and(eq(groups.id, groupId), groupsSeeingClusterCondition(clusterId)))
    .limit(1);
  if (!g || isReservedGroupName(g.naziv) || isReservedGroupName(g.cirilica)) {
    throw badRequest(TOPICS.groupCannotSee, { [field]: TOPICS.groupCannotSee });
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** GET /api/topic/grupe?locationId: the groups a topic of a visible cluster can be given to, by name. */
export async function answeringGroups(ctx: AppContext, actor: Actor, clusterId: string): Promise<{ groups: GroupBrief[] }> {
  if (!(await isClusterVisible(ctx.db, actor, clusterId))) throw notFound(TOPICS.notFound);
  const rows = await ctx.db
    .select({ id: groups.id, naziv: groups.naziv, cirilica: groups.cirilica, tip: groupTypes.naziv, tipKod: groupTypes.code })
    .from(groups)
    .leftJoin(groupTypes, eq(groupTypes.id, groups.typeId))
    .where(groupsSeeingClusterCondition(clusterId))
    .orderBy(serbianOrder(groups.naziv));
  return {
    groups: rows
      .filter((g) => !isReservedGroupName(g.naziv) && !isReservedGroupName(g.cirilica))
      .map((g) => ({ _id: g.id, naziv: g.naziv, tip: g.tip ?? '', tipKod: g.tipKod ?? null })),
  };
}

/**
 * '' or null clears the deadline; a date or date-time sets it; undefined leaves it. The calendar day
 * typed must exist (no 30 February) and the year lie in 1..9999, which PostgreSQL stores.
 */
function parseRok(rok: string | null | undefined): Date | null | undefined {
  if (rok === undefined) return undefined;
  if (rok === null || rok === '') return null;
  const invalid = () => badRequest(USERS.invalidOption, { rok: USERS.invalidOption });
  const day = /^(\d{4})-(\d{2})-(\d{2})/.exec(rok);
  if (!day || Number(day[1]) < 1) throw invalid();
  const dayText = day[0];
  if (!new Date(`${dayText}T00:00:00Z`).toISOString().startsWith(dayText)) throw invalid();
  const date = new Date(rok.length === 10 ? `${dayText}T00:00:00Z` : rok);
  if (Number.isNaN(date.getTime()) || date.getUTCFullYear() < 1 || date.getUTCFullYear() > 9999) throw invalid();
  return date;
}

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

const commentCountOf = async (db: Executor, topicId: string) =>
  (await db.select({ n: count() }).from(topicComments).where(eq(topicComments.topicId, topicId)))[0]?.n ?? 0;

const presented = async (db: Executor, id: string, rights: TopicRights): Promise<TopicDto> => {
  const dto = await presentTopicById(db, id, rights);
  if (!dto) throw notFound(TOPICS.notFound);
  return dto;
};

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
  // A limited scope's sum kept under the topics' and the clusters' versions (keptScopeTotal, drizzle/0034).
  const inScope = !scope.all && unfiltered ? keptScopeTotal(ctx.db, 'topics', scope) : null;
  // Every cluster's topics, filtered or searched: the count kept under the topics' version (which moves with
  // any change of what the filters read: drizzle/0030's trigger on cluster, status, priority and both
  // search columns), keyed by the folded terms and the filters. The Admin's 'kabl' rechecked 3,333 rows
  // (2.5 of 2.6 ms) for each page asked while nothing had changed.
  const version = listVersionSql(['topics']);
  const count =
    scope.all && !unfiltered
      ? searchCountOf(
          ctx.db,
          searchCountKey('topics', scope, [foldForSearch(query.q.trim()), foldForSearch(query.qAlt.trim()), query.status, query.prioritet]),
          version,
        )
      : null;
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
            ? inScope
              ? { kept: sql`select ${inScope.n}`, exact: true, version: inScope.version }
              : { kept: keptTotal('topics', scope), estimate: tableEstimateSql(topics) }
            : { table: topics, where, keptCount: count ? { count, version } : undefined },
        )}) t`,
  );
  const [row, rights] = await Promise.all([listed.then((r) => r.rows[0]), topicRightsOf(ctx.db, actor)]);
  const [rows, total] = await Promise.all([topicRowsOf(ctx.db, row?.ids ?? []), totalOf(ctx.db, row, topics, where)]);
  inScope?.keep(row?.version ?? null, total);
  count?.keep(row?.version ?? null, total);
  return { data: rows.map((r) => presentTopic(r, rights)), total };
}

/** GET /api/topic/:id: the topic with its comments and whether the caller may comment. */
export async function getTopic(ctx: AppContext, actor: Actor, id: string): Promise<{ data: TopicDto; canComment: boolean }> {
  const topic = await visibleTopic(ctx.db, actor, id);
  const rights = await topicRightsOf(ctx.db, actor);
  return { data: await presented(ctx.db, id, rights), canComment: await canCommentOn(ctx.db, actor, topic) };
}

export async function createTopic(ctx: AppContext, actor: Actor, input: TopicCreateInput, req: RequestInfo): Promise<TopicDto> {
  return ctx.db.transaction(async (tx) => {
    if (!(await isClusterVisible(tx, actor, input.locationId))) throw notFound(TOPICS.notFound);
    await assertAnsweringGroup(tx, input.locationId, input.odgovoran, 'odgovoran');
    const [row] = await tx
      .insert(topics)
      .values({
        clusterId: input.locationId,
        opis: input.opis ?? '',
        groupId: input.odgovoran,
        rok: parseRok(input.rok) ?? null,
        prioritet: input.prioritet ?? 'srednji',
        status: 'otvoren',
        createdBy: actor.id,
      })
      .returning();
    if (!row) throw new Error('topic not created');
    const dto = await presented(tx, row.id, await topicRightsOf(tx, actor));
    await writeLog(tx, { actor, ...req, message: `Korisnik ${actor.email} je otvorio temu na klasteru ${dto.nazivKlastera}.` });
    return dto;
  });
}

/** PATCH /api/topic/:id with status zatvoren: closes an open topic (comments allowed). */
export async function closeTopic(ctx: AppContext, actor: Actor, id: string, req: RequestInfo): Promise<TopicDto> {
  return ctx.db.transaction(async (tx) => {
    const topic = await visibleTopic(tx, actor, id, true);
    const rights = await allowed(tx, actor, topic, 'zatvaranje');
    if (topic.status === 'zatvoren') throw closedRefusal();
    await tx.update(topics).set({ status: 'zatvoren', updatedAt: new Date() }).where(eq(topics.id, id));
    const dto = await presented(tx, id, rights);
    await writeLog(tx, { actor, ...req, message: `Korisnik ${actor.email} je zatvorio temu na klasteru ${dto.nazivKlastera}.` });
    return dto;
  });
}

const REFUSALS = { izmena: TOPICS.onlyAuthorGroup, brisanje: TOPICS.onlyAuthorGroup, zatvaranje: TOPICS.onlyCloser } as const;

/** The caller's rights when they may do `what` to the (visible) topic; 403 otherwise (permissions.ts). */
async function allowed(tx: Executor, actor: Actor, topic: TopicRow, what: keyof typeof REFUSALS): Promise<TopicRights> {
  const rights = await topicRightsOf(tx, actor);
  if (!permissionsOn(rights, { authorGroupId: await authorGroupOf(tx, topic), groupId: topic.groupId })[what]) {
    throw forbidden(REFUSALS[what]);
  }
  return rights;
}

/** An open topic without comments; otherwise the spec's 409s. */
async function assertChangeable(tx: Executor, topic: TopicRow): Promise<void> {
  if (topic.status === 'zatvoren') throw closedRefusal();
  if ((await commentCountOf(tx, topic.id)) > 0) throw commentedRefusal();
}

/** PATCH /api/topic/:id with opis, odgovoran, rok, prioritet (omitted ones stay). */
export async function editTopic(ctx: AppContext, actor: Actor, id: string, input: TopicEditInput, req: RequestInfo): Promise<TopicDto> {
  return ctx.db.transaction(async (tx) => {
    const topic = await visibleTopic(tx, actor, id, true);
    const rights = await allowed(tx, actor, topic, 'izmena');
    await assertChangeable(tx, topic);
    await assertAnsweringGroup(tx, topic.clusterId, input.odgovoran, 'odgovoran');
    const rok = parseRok(input.rok);
    await tx
      .update(topics)
      .set({
        groupId: input.odgovoran,
        ...(input.opis !== undefined && { opis: input.opis }),
        ...(rok !== undefined && { rok }),
        ...(input.prioritet !== undefined && { prioritet: input.prioritet }),
        updatedAt: new Date(),
      })
      .where(eq(topics.id, id));
    const dto = await presented(tx, id, rights);
    await writeLog(tx, { actor, ...req, message: `Korisnik ${actor.email} je izmenio temu na klasteru ${dto.nazivKlastera}.` });
    return dto;
  });
}

export async function deleteTopic(ctx: AppContext, actor: Actor, id: string, req: RequestInfo): Promise<string> {
  return ctx.db.transaction(async (tx) => {
    const topic = await visibleTopic(tx, actor, id, true);
    const rights = await allowed(tx, actor, topic, 'brisanje');
    await assertChangeable(tx, topic);
    const dto = await presented(tx, id, rights);
    await tx.delete(topics).where(eq(topics.id, id));
    await writeLog(tx, { actor, ...req, message: `Korisnik ${actor.email} je obrisao temu na klasteru ${dto.nazivKlastera}.` });
    return TOPICS.deleted;
  });
}

/**
 * POST /api/topic/:id/komentar: only the responsible group of an open topic answers. noviOdgovoran
 * hands the topic over; the comment records who is to answer next.
 */
export async function commentTopic(
  ctx: AppContext,
  actor: Actor,
  id: string,
  input: TopicCommentInput,
  req: RequestInfo,
): Promise<TopicDto> {
  return ctx.db.transaction(async (tx) => {
    const topic = await visibleTopic(tx, actor, id, true);
    if (!(await canCommentOn(tx, actor, topic))) throw forbidden(TOPICS.onlyResponsible);
    const handOver = input.noviOdgovoran ? input.noviOdgovoran : null;
    if (handOver) await assertAnsweringGroup(tx, topic.clusterId, handOver, 'noviOdgovoran');
    const next = handOver ?? topic.groupId;
    await tx.insert(topicComments).values({ topicId: id, tekst: input.tekst, createdBy: actor.id, groupId: next });
    await tx.update(topics).set({ groupId: next, updatedAt: new Date() }).where(eq(topics.id, id));
    const dto = await presented(tx, id, await topicRightsOf(tx, actor));
    const note = handOver ? ` i predao je grupi ${dto.odgovoran.naziv}` : '';
    await writeLog(tx, { actor, ...req, message: `Korisnik ${actor.email} je komentarisao temu na klasteru ${dto.nazivKlastera}${note}.` });
    return dto;
  });
}
