import { asTyped, COMMENT_LIST, type CommentsPage, foldForSearch, type Sorting, type SortKey } from '@trasa/domain';
import { and, desc, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import { users } from '../../db/schema.js';
import { activities, activityCatalogue, activityComments } from '../../db/schema-activities.js';
import { clusters } from '../../db/schema-clusters.js';
import { writeLog } from '../../platform/audit.js';
import type { Actor } from '../../platform/auth.js';
import { type Executor, preparedOn } from '../../platform/database.js';
import { notFound } from '../../platform/errors.js';
import { keptCountOf, searchCountKey } from '../../platform/kept/counts.js';
import { offsetOf, type Paging } from '../../platform/paging.js';
import { orderOf, type SortMap } from '../../platform/sorting.js';
import { sqlDirection, sqlIdent } from '../../platform/sqlText.js';
import { searchTerms } from '../../platform/textSearch.js';
import { headOfScopePage, keptScopeTotal, pageByKeptClusters, type TotalColumns, totalColumns, totalOf } from '../clusters/keptCounts.js';
import { type ClusterScope, clusterScopeOf, inVisibleClusters, visibleClusterIds } from '../clusters/policy.js';
import { type CommentListRow, presentCommentRow } from './presenter.js';

export type RequestInfo = { ip: string; url: string };

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** The context columns a comment's search reads besides its own text. */
const SEARCH_COLUMNS = ['author_search', 'cluster_search', 'activity_search'] as const;

/**
 * A comment matches when the folded text (trasa_fold: both scripts, case and diacritics aside) is in
 * the comment (search_text), its author's name or e-mail, its cluster's name, or its activity's code or
 * name. The last three are kept on the comment, folded as the search folds them (`author_search` ≙
 * users.search_text, `cluster_search` ≙ clusters.search_text, `activity_search` ≙ trasa_fold(code || ' '
 * || naziv) of the catalogue; drizzle/0024, kept by triggers, not in the schema files), so every arm is a
 * trigram index condition on the comment's own row (activity_comments_search_idx and _context_search_idx,
 * whose bitmaps PostgreSQL ORs) and the planner estimates each from its statistics. Before, the authors,
 * clusters and activities were found first and handed over as arrays of ids: 'kabl' names one catalogue
 * entry, whose 3,000 activities every rechecked comment was compared with one by one (the count 18 ms;
 * capped lower, a sequential scan doing it for every comment: docs/decisions.md).
 */
function searchCondition(terms: string[]): SQL | undefined {
  if (terms.length === 0) return undefined;
  const likes = terms.map((term) => `%${escapeLike(foldForSearch(term))}%`);
  const columns = [
    sql`${activityComments.searchText}`,
    ...SEARCH_COLUMNS.map((c) => sql`${activityComments}.${sqlIdent(c, SEARCH_COLUMNS)}`),
  ];
  return sql`(${sql.join(
    likes.flatMap((like) => columns.map((column) => sql`${column} like ${like}`)),
    sql` or `,
  )})`;
}

/**
 * The comment's cluster, kept from its activity by triggers like `activity_position` (drizzle/0013; not
 * in the schema files, which describe what queries read).
 */
const commentCluster = sql`${activityComments}."cluster_id"`;

/**
 * The list's condition over `activity_comments` (GET /api/comment, /api/search/comment and their
 * export): comments on the visible clusters (the comment's cluster_id, activity_comments_cluster_idx:
 * one index range per cluster, so a limited scope's count stops after 10,001 index entries instead of
 * going through every visible activity), searched.
 */
export function commentListCondition(scope: ClusterScope, input: { eng?: string; srb?: string }): SQL {
  const visible = scope.all ? undefined : inVisibleClusters(scope, commentCluster);
  return and(sql`true`, visible, searchCondition(searchTerms({ eng: input.eng ?? '', srb: input.srb ?? '' }))) as SQL;
}

/**
 * The comment's first 600 characters, a column PostgreSQL generates (drizzle/0019), indexed in trasa_sr
 * order (activity_comments_text_idx): the sort by text walks it instead of sorting every comment's text.
 */
const commentKey = sql`${activityComments}."komentar_key"`;

/**
 * `sort` of the comments list (LIST_SORTS.comments): the author as the list shows them (ime prezime),
 * the cluster's name, the activity in the catalogue's order; subqueries over the comment's row, so the
 * deferred join's inner query still reads activity_comments alone.
 */
export const COMMENT_SORTS: SortMap<'comments'> = {
  ime: { text: sql`(select u.ime || ' ' || u.prezime from ${users} u where u.id = ${activityComments.userId})` },
  komentar: { text: commentKey },
  email: { text: sql`(select u.email from ${users} u where u.id = ${activityComments.userId})` },
  klaster: {
    text: sql`(select c.naziv from ${activities} a join ${clusters} c on c.id = a.cluster_id where a.id = ${activityComments.activityId})`,
  },
  aktivnost: { value: sql`(select a.position from ${activities} a where a.id = ${activityComments.activityId})` },
  createdAt: { value: activityComments.createdAt },
};
type CommentSorting = Sorting<SortKey<'comments'>>;

/**
 * The page's ids for the sorts by a joined column (the order of COMMENT_SORTS, the same rows): the
 * smaller sorted table walked in its order index and each of its rows' comments read in id order from
 * an index, so a deep page sorts only within each cluster instead of looking up and comparing
 * the joined name of every comment (by cluster ≈1.4 s at page 2,500). By cluster: clusters_order_idx,
 * then activity_comments_cluster_idx. By author (ime prezime, or e-mail): the comment's copies of its
 * author's name and e-mail (drizzle/0014, kept by triggers; null without an author: last going up,
 * first going down, as the SortMap's subquery orders), activity_comments_author_name_idx or
 * _author_email_idx walked. By activity: the comment's copy of its activity's catalogue position
 * (activity_comments_position_idx). Null for the comment's own columns (text, time), which the default
 * query orders.
 */
function walkedPageIds(
  where: SQL,
  paging: Paging & CommentSorting,
  narrowed?: { clusters: SQL; search: SQL },
  unsearched?: ClusterScope,
  page: SQL = sql`limit ${paging.limit} offset ${offsetOf(paging)}`,
): SQL | null {
  const dir = sqlDirection(paging.order === 'desc' ? 'desc' : 'asc');
  const id = activityComments.id;
  switch (paging.sort) {
    case 'klaster':
      // Without a search: the clusters before the page skipped whole by their kept numbers of comments
      // (cluster_list_counts, drizzle/0025), only the clusters the page falls in read.
      if (unsearched) {
        return pageByKeptClusters('comments', {
          scope: unsearched,
          dir: paging.order === 'desc' ? 'desc' : 'asc',
          limit: paging.limit,
          offset: offsetOf(paging),
          rowsOf: (cluster) => sql`select ${id} as id from ${activityComments} where ${commentCluster} = ${cluster}`,
        });
      }
      // A limited scope: only its clusters, sorted by name (300 of 3,000 for an employee), each one's
      // comments in id order through a LATERAL subquery PostgreSQL cannot flatten (offset 0), so the page
      // is an incremental sort that stops after the offset. As a join PostgreSQL read all the scope's
      // comments (10,151), hashed them with their clusters and compared names in ICU for a top-N sort even
      // for page 1 (an employee's page 1 sorted by cluster: 4.6 ms against 0.9 ms this way; page 1,001 13
      // against 6 ms). `in (…)`, not `= any(array(…))`: estimated
      // at 10 clusters, PostgreSQL sorted all 10,151 for a deep page instead.
      if (narrowed) {
        return sql`select ac.id from (select c.id, c.naziv from ${clusters} c where c.id in (${narrowed.clusters})
            order by c.naziv collate trasa_sr ${dir} offset 0) c
          cross join lateral (select ${id} as id from ${activityComments} where ${commentCluster} = c.id and ${narrowed.search} offset 0) ac
          order by c.naziv collate trasa_sr ${dir}, ac.id ${dir} ${page}`;
      }
      return sql`select ${id} from ${activityComments} join ${clusters} c on c.id = ${commentCluster}
        where ${where} order by c.naziv collate trasa_sr ${dir}, ${id} ${dir} ${page}`;
    case 'ime':
      return sql`select ${id} from ${activityComments} where ${where}
        order by ${activityComments}."author_name" collate trasa_sr ${dir}, ${id} ${dir} ${page}`;
    case 'email':
      return sql`select ${id} from ${activityComments} where ${where}
        order by ${activityComments}."author_email" collate trasa_sr ${dir}, ${id} ${dir} ${page}`;
    case 'aktivnost':
      return sql`select ${id} from ${activityComments} where ${where}
        order by ${activityComments}."activity_position" ${dir}, ${id} ${dir} ${page}`;
    default:
      return null;
  }
}

/** The list's direction: a chosen sort's `order` (ascending unless 'desc'), newest first without a sort. */
const directionOf = (paging: CommentSorting): 'asc' | 'desc' => (!paging.sort || paging.order === 'desc' ? 'desc' : 'asc');

/**
 * A deep page of a limited scope without a search (past headOfScope's 500 rows; by cluster the kept
 * numbers already skip to it), when it lies in the second half of the scope's `total` (an SQL expression:
 * the kept total, exact and read in the same statement): read from the other end in the reversed order
 * (every key's direction turned, the id's too, so the order is exactly reversed), `total − offset` rows in,
 * and turned round in Node (`reversed`). A manager's page 965 of 9,655 comments walked the newest-first
 * order past 9,640 of the scope's rows (and every other scope's between them); from the end it reads 15.
 * `when`: whether the page is read from the end; `ids`: that read.
 */
function pageFromEnd(
  where: SQL,
  paging: Paging & CommentSorting,
  narrowed: { clusters: SQL; search: SQL } | undefined,
  total: SQL,
): { when: SQL; ids: SQL } | null {
  const offset = offsetOf(paging);
  if (offset + paging.limit <= 500 || paging.sort === 'klaster') return null;
  // The list's order reversed: without a sort, by time (the default order, newest first) from the oldest.
  const flipped = {
    ...paging,
    sort: paging.sort ?? ('createdAt' as const),
    order: directionOf(paging) === 'desc' ? ('asc' as const) : ('desc' as const),
  };
  const page = sql`limit least(${paging.limit}::bigint, greatest(0, ${total} - ${offset}::bigint))
    offset greatest(0, ${total} - ${offset}::bigint - ${paging.limit}::bigint)`;
  const order = orderOf(COMMENT_SORTS, flipped, [], activityComments.id);
  const ids =
    walkedPageIds(where, flipped, narrowed, undefined, page) ??
    sql`select ${activityComments.id} from ${activityComments} where ${where} order by ${sql.join(order, sql`, `)} ${page}`;
  return { when: sql`(2 * ${offset}::bigint >= ${total})`, ids };
}

/**
 * The comment's own column a sort orders by (its order index walked), and whether it is text (ordered in
 * trasa_sr): the default order and `createdAt` by time, `aktivnost` by the kept catalogue position, `ime`
 * and `email` by the kept author's name and e-mail (drizzle/0014), `komentar` by the text's key (0019).
 * Null by cluster (pageByKeptClusters and the scope's clusters walked).
 */
function ownKeyOf(sort: CommentSorting['sort']): { key: SQL; text: boolean } | null {
  const c = activityComments;
  switch (sort) {
    case undefined:
    case 'createdAt':
      return { key: sql`${c.createdAt}`, text: false };
    case 'aktivnost':
      return { key: sql`${c}."activity_position"`, text: false };
    case 'ime':
      return { key: sql`${c}."author_name"`, text: true };
    case 'email':
      return { key: sql`${c}."author_email"`, text: true };
    case 'komentar':
      return { key: commentKey, text: true };
    default:
      return null;
  }
}

/**
 * A shallow page (up to row 500) of a limited scope in an order of the comment's own columns (ownKeyOf;
 * newest first by default), from everybody's first comments in that order (headOfScopePage): by activity
 * 4.8 → ≈0.3 ms for an employee's page 1. Null otherwise (by cluster, a deeper page).
 */
function headOfScope(where: SQL, narrowed: { clusters: SQL; search: SQL }, paging: Paging & CommentSorting): SQL | null {
  const own = ownKeyOf(paging.sort);
  if (offsetOf(paging) + paging.limit > 500 || !own) return null;
  const dir = sqlDirection(directionOf(paging));
  return headOfScopePage({
    table: activityComments,
    id: sql`${activityComments.id}`,
    key: own.key,
    cluster: commentCluster,
    search: narrowed.search,
    where,
    clusters: narrowed.clusters,
    by: (key, id) => sql`${key}${own.text ? sql` collate trasa_sr` : sql``} ${dir}, ${id} ${dir}`,
    limit: paging.limit,
    offset: offsetOf(paging),
  });
}

/**
 * The page's rows, joined with their activity, cluster and author, in the order of `ids` (the page's ids
 * in list order): one prepared statement (`comment_list_rows`), the same for every page, role, sort and
 * search. Written once, PostgreSQL keeps its generic plan after five runs (a primary-key lookup per id,
 * the custom plan's); as a part of the page's statement its joins were parsed and planned on every
 * request: a Rukovodilac's page 1 cost a warm backend 1.7 ms of CPU for the page and 0.5 ms for the count,
 * now 1.0 ms for the ids with the total and 0.07 ms for these rows (bench/statement-cpu.mjs). The rows
 * are mapped by drizzle as the plain select mapped them (the same columns).
 */
function commentRowsStatement(db: Executor) {
  const page = sql`unnest(${sql.placeholder('ids')}::uuid[]) with ordinality as page(id, n)`;
  return db
    .select({
      id: activityComments.id,
      komentar: activityComments.komentar,
      createdAt: activityComments.createdAt,
      activityId: activities.id,
      code: activities.code,
      activityNaziv: activityCatalogue.naziv,
      clusterId: clusters.id,
      clusterNaziv: clusters.naziv,
      authorId: users.id,
      ime: users.ime,
      prezime: users.prezime,
      email: users.email,
      deletedAt: users.deletedAt,
    })
    .from(activityComments)
    .innerJoin(page, sql`page.id = ${activityComments.id}`)
    .innerJoin(activities, eq(activities.id, activityComments.activityId))
    .innerJoin(activityCatalogue, eq(activityCatalogue.code, activities.code))
    .innerJoin(clusters, eq(clusters.id, activities.clusterId))
    .leftJoin(users, eq(users.id, activityComments.userId))
    .orderBy(sql`page.n`)
    .prepare('comment_list_rows');
}
let commentRows: ReturnType<typeof commentRowsStatement> | undefined;

async function commentRowsOf(db: Executor, ids: string[]) {
  if (ids.length === 0) return [];
  commentRows ??= commentRowsStatement(db);
  return preparedOn(commentRows, db).execute({ ids });
}

/**
 * One page, newest first (or by `sort`): the page's ids from activity_comments alone (the order index walked to the
 * offset, or the search's bitmap sorted) with the total in one statement, then the 10 rows joined with their
 * activity, cluster and author by a prepared statement (commentRowsOf; a deferred join: page 2,500 joined
 * 25,010 rows before). totalResults counts up to EXACT_COUNT_LIMIT,
 * then the planner's estimate, like the other long lists; a limited scope without a search answers the
 * exact sum of its clusters' kept numbers at any size. Not less for a search: capped at 1,001 the count
 * of a common word ran as a sequential scan comparing every comment's activity with an array of 3,000 ids
 * (75–111 ms against 22–32 ms for the bitmap scan of the 10,001 cap; docs/decisions.md).
 */
async function pageOfComments(
  db: Executor,
  scope: ClusterScope,
  input: { eng?: string; srb?: string },
  paging: Paging & CommentSorting,
): Promise<CommentsPage> {
  const terms = searchTerms({ eng: input.eng ?? '', srb: input.srb ?? '' });
  const where = commentListCondition(scope, input);
  const search = searchCondition(terms);
  const narrowed = scope.all ? undefined : { clusters: visibleClusterIds(scope), search: search ?? sql`true` };
  const order = orderOf(COMMENT_SORTS, paging, [desc(activityComments.createdAt), desc(activityComments.id)], activityComments.id);
  const pageIds =
    (narrowed ? headOfScope(where, narrowed, paging) : null) ??
    walkedPageIds(where, paging, narrowed, search ? undefined : scope) ??
    sql`${db
      .select({ id: activityComments.id })
      .from(activityComments)
      .where(where)
      .orderBy(...order)
      .limit(paging.limit)
      .offset(offsetOf(paging))}`;
  const wholeTable = scope.all && !search;
  // A search's count kept under the version of what it reads (drizzle/0030; a limited scope's visible
  // clusters: 0020's 'locations' and 0033's 'visibility', which a contract's groups move): counted again
  // only when one moved (platform/kept kinds 'commentCount', 'commentCountInScope').
  const count = search
    ? keptCountOf(db, scope.all ? 'commentCount' : 'commentCountInScope', searchCountKey('comments', scope, terms))
    : null;
  // A limited scope without a search: its total is the sum of its clusters' kept numbers of comments
  // (drizzle/0025), the same answer as counting its comments, read once (kept_total) by the statement.
  const inScope = !scope.all && !search ? keptScopeTotal(db, 'comments', scope) : null;
  const fromEnd = inScope ? pageFromEnd(where, paging, narrowed, sql`(select n from kept_total)`) : null;
  // One statement for the page's ids and its total (before: the page and the count on two connections at
  // once), then the page's rows from a prepared statement (commentRowsOf).
  const listed = await db.execute<{ ids: string[] | null; reversed: boolean | null } & TotalColumns>(
    sql`${inScope ? sql`with kept_total as materialized (select ${inScope.n} as n, ${inScope.version} as version) ` : sql``}select
      ${fromEnd ? sql`case when ${fromEnd.when} then array(${fromEnd.ids}) else array(${pageIds}) end` : sql`array(${pageIds})`} as ids,
      ${fromEnd ? fromEnd.when : sql`false`} as reversed, t.* from (${totalColumns(
        // The Admin's whole list: the table's estimate first (countOf's estimateFirst: past 20,000 it is the
        // answer the capped count would be replaced by anyway).
        inScope
          ? { kept: sql`select n from kept_total`, exact: true, version: sql`(select version from kept_total)` }
          : { table: activityComments, where, estimateFirst: wholeTable, keptCount: count ?? undefined },
      )}) t`,
  );
  const row = listed.rows[0];
  const ids = row?.reversed ? [...(row.ids ?? [])].reverse() : (row?.ids ?? []);
  const [rows, totalResults] = await Promise.all([
    commentRowsOf(db, ids),
    totalOf(db, row, activityComments, where, { estimateFirst: wholeTable }),
  ]);
  await count?.keep(row?.version ?? null, totalResults);
  await inScope?.keep(row?.version ?? null, totalResults);
  const comments = rows.map(({ authorId, ime, prezime, email, deletedAt, ...r }) => {
    const user: CommentListRow['user'] = authorId ? { ime: ime ?? '', prezime: prezime ?? '', email: email ?? '', deletedAt } : null;
    return presentCommentRow({ ...r, user });
  });
  return { comments, totalResults };
}

/** GET /api/comment: comments on the activities of the clusters the caller sees, newest first. */
export async function listComments(ctx: AppContext, actor: Actor, paging: Paging & CommentSorting): Promise<CommentsPage> {
  const scope = await clusterScopeOf(ctx.db, actor);
  return pageOfComments(ctx.db, scope, {}, paging);
}

/** GET /api/search/comment: the same list narrowed by the typed text (eng) or its transliteration (srb). */
export async function searchComments(
  ctx: AppContext,
  actor: Actor,
  input: Paging & CommentSorting & { eng: string; srb: string },
): Promise<CommentsPage> {
  const scope = await clusterScopeOf(ctx.db, actor);
  return pageOfComments(ctx.db, scope, input, input);
}

/** 1 komentar, 2 komentara, 5 komentara (21 komentar, 11 komentara). */
function commentsCount(n: number): string {
  return n % 10 === 1 && n % 100 !== 11 ? `${n} komentar` : `${n} komentara`;
}

/** DELETE /api/comment/ (Admin): the chosen comments go; none of the ids found: 404. */
export async function deleteComments(ctx: AppContext, actor: Actor, ids: string[], req: RequestInfo): Promise<string> {
  return ctx.db.transaction(async (tx) => {
    const deleted = await tx.delete(activityComments).where(inArray(activityComments.id, ids)).returning({ id: activityComments.id });
    if (deleted.length === 0) throw notFound();
    await writeLog(tx, {
      actor,
      ...req,
      message: `Korisnik ${asTyped(actor.email)} je obrisao ${commentsCount(deleted.length)} na aktivnostima.`,
    });
    return COMMENT_LIST.deleted;
  });
}
