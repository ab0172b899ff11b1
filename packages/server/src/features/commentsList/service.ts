import { COMMENT_LIST, type CommentsPage, foldForSearch } from '@trasa/domain';
import { and, desc, eq, inArray, or, type SQL, sql } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import { users } from '../../db/schema.js';
import { activities, activityCatalogue, activityComments } from '../../db/schema-activities.js';
import { clusters } from '../../db/schema-clusters.js';
import { writeLog } from '../../platform/audit.js';
import type { Actor } from '../../platform/auth.js';
import type { Executor } from '../../platform/database.js';
import { notFound } from '../../platform/errors.js';
import { type ClusterScope, clusterScopeOf, visibleClusterCondition } from '../clusters/policy.js';
import { searchTerms } from '../search/service.js';
import { offsetOf, type Paging } from '../users/paging.js';
import { type CommentListRow, presentCommentRow } from './presenter.js';

export type RequestInfo = { ip: string; url: string };

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * A comment matches when the folded text (trasa_fold: both scripts, case and diacritics aside) is in
 * the comment (its trigram index), its author's name or e-mail, its cluster's name, or its activity's
 * code or name. The authors and clusters are found through their own trigram indexes first.
 */
function searchCondition(terms: string[]): SQL | undefined {
  if (terms.length === 0) return undefined;
  return or(
    ...terms.map((term) => {
      const like = `%${escapeLike(foldForSearch(term))}%`;
      return sql`(${activityComments.searchText} like ${like}
        or ${activityComments.userId} in (select ${users.id} from ${users} where ${users.searchText} like ${like})
        or ${activities.clusterId} in (select ${clusters.id} from ${clusters} where ${clusters.searchText} like ${like})
        or trasa_fold(${activityCatalogue.code} || ' ' || ${activityCatalogue.naziv}) like ${like})`;
    }),
  );
}

/** The list's condition (GET /api/comment, /api/search/comment and their export): comments of the visible clusters, searched. */
export function commentListCondition(scope: ClusterScope, input: { eng?: string; srb?: string }): SQL {
  return and(
    visibleClusterCondition(scope, activities.clusterId),
    searchCondition(searchTerms({ eng: input.eng ?? '', srb: input.srb ?? '' })),
  ) as SQL;
}

async function pageOfComments(db: Executor, where: SQL, paging: Paging): Promise<CommentsPage> {
  const rows = await db
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
    .innerJoin(activities, eq(activities.id, activityComments.activityId))
    .innerJoin(activityCatalogue, eq(activityCatalogue.code, activities.code))
    .innerJoin(clusters, eq(clusters.id, activities.clusterId))
    .leftJoin(users, eq(users.id, activityComments.userId))
    .where(where)
    .orderBy(desc(activityComments.createdAt), desc(activityComments.id))
    .limit(paging.limit)
    .offset(offsetOf(paging));
  const [total] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(activityComments)
    .innerJoin(activities, eq(activities.id, activityComments.activityId))
    .innerJoin(activityCatalogue, eq(activityCatalogue.code, activities.code))
    .where(where);
  const comments = rows.map(({ authorId, ime, prezime, email, deletedAt, ...r }) => {
    const user: CommentListRow['user'] = authorId ? { ime: ime ?? '', prezime: prezime ?? '', email: email ?? '', deletedAt } : null;
    return presentCommentRow({ ...r, user });
  });
  return { comments, totalResults: total?.n ?? 0 };
}

/** GET /api/comment: comments on the activities of the clusters the caller sees, newest first. */
export async function listComments(ctx: AppContext, actor: Actor, paging: Paging): Promise<CommentsPage> {
  const scope = await clusterScopeOf(ctx.db, actor);
  return pageOfComments(ctx.db, commentListCondition(scope, {}), paging);
}

/** GET /api/search/comment: the same list narrowed by the typed text (eng) or its transliteration (srb). */
export async function searchComments(ctx: AppContext, actor: Actor, input: Paging & { eng: string; srb: string }): Promise<CommentsPage> {
  const scope = await clusterScopeOf(ctx.db, actor);
  return pageOfComments(ctx.db, commentListCondition(scope, input), input);
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
    await writeLog(tx, { actor, ...req, message: `Korisnik ${actor.email} je obrisao ${commentsCount(deleted.length)} na aktivnostima.` });
    return COMMENT_LIST.deleted;
  });
}
