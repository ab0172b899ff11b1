import { ACCOUNT, type TopicCommentDto, type TopicDto, type TopicPriority, type TopicStatus } from '@trasa/domain';
import { asc, eq, sql } from 'drizzle-orm';
import { groups, users } from '../../db/schema.js';
import { clusters, topicComments, topics } from '../../db/schema-clusters.js';
import { type Executor, preparedOn } from '../../platform/database.js';
import { permissionsOn, type TopicRights } from './permissions.js';

/** Shapes of spec 2 §3 "Topic" and "Topic comment", built field by field. */

export type { TopicCommentDto, TopicDto };

const commentCount = sql<number>`(select count(*)::int from ${topicComments} where ${topicComments.topicId} = ${topics.id})`;
/** The group the author belongs to now (permissions.ts); null for a deleted author. */
const authorGroup = sql<string | null>`(select ${users.groupId} from ${users} where ${users.id} = ${topics.createdBy})`;

/** The columns a topic is presented from (topic, its cluster's name, its group, its comment count). */
export const topicColumns = {
  topic: topics,
  nazivKlastera: clusters.naziv,
  groupNaziv: groups.naziv,
  brojKomentara: commentCount,
  authorGroupId: authorGroup,
};

/** A select of topics joined for presenting; add where/order/limit. */
export function selectTopics(db: Executor) {
  return db
    .select(topicColumns)
    .from(topics)
    .innerJoin(clusters, eq(clusters.id, topics.clusterId))
    .innerJoin(groups, eq(groups.id, topics.groupId));
}

/**
 * The list's rows of the topics `ids` names (the page's ids in list order), in that order: one prepared
 * statement (`topic_list_rows`), the same for every page, role, sort, filter and search, whose generic
 * plan PostgreSQL keeps after five runs (a primary-key lookup per id and the topic's comment count);
 * as a part of the page's statement its joins were parsed and planned on every request. drizzle maps
 * the rows as selectTopics' plain select did (the same columns).
 */
function topicRowsStatement(db: Executor) {
  return selectTopics(db)
    .innerJoin(sql`unnest(${sql.placeholder('ids')}::uuid[]) with ordinality as page(id, n)`, sql`page.id = ${topics.id}`)
    .orderBy(sql`page.n`)
    .prepare('topic_list_rows');
}
let topicRows: ReturnType<typeof topicRowsStatement> | undefined;

export async function topicRowsOf(db: Executor, ids: string[]): Promise<TopicListRow[]> {
  if (ids.length === 0) return [];
  topicRows ??= topicRowsStatement(db);
  return preparedOn(topicRows, db).execute({ ids });
}

export type TopicListRow = {
  topic: typeof topics.$inferSelect;
  nazivKlastera: string;
  groupNaziv: string;
  brojKomentara: number;
  authorGroupId: string | null;
};

/** The caller's rights (permissions.ts) turn into the row's `dozvole`. */
export function presentTopic(row: TopicListRow, rights: TopicRights, komentari: TopicCommentDto[] = []): TopicDto {
  const t = row.topic;
  return {
    _id: t.id,
    nazivKlastera: row.nazivKlastera,
    locationId: t.clusterId,
    opis: t.opis,
    odgovoran: { _id: t.groupId, naziv: row.groupNaziv },
    rok: t.rok ? t.rok.toISOString() : null,
    prioritet: t.prioritet as TopicPriority,
    status: t.status as TopicStatus,
    komentari,
    brojKomentara: row.brojKomentara,
    createdAt: t.createdAt.toISOString(),
    updatedAt: t.updatedAt.toISOString(),
    dozvole: permissionsOn(rights, { authorGroupId: row.authorGroupId, groupId: t.groupId }),
  };
}

/** The comments of a topic, oldest first; a deleted author shows as 'Korisnik je obrisan'. */
export async function commentsOf(db: Executor, topicId: string): Promise<TopicCommentDto[]> {
  const rows = await db
    .select({
      id: topicComments.id,
      tekst: topicComments.tekst,
      createdAt: topicComments.createdAt,
      ime: users.ime,
      prezime: users.prezime,
      groupId: topicComments.groupId,
      groupNaziv: groups.naziv,
    })
    .from(topicComments)
    .leftJoin(users, eq(users.id, topicComments.createdBy))
    .innerJoin(groups, eq(groups.id, topicComments.groupId))
    .where(eq(topicComments.topicId, topicId))
    .orderBy(asc(topicComments.createdAt), asc(topicComments.id));
  return rows.map((r) => ({
    _id: r.id,
    tekst: r.tekst,
    createdBy: r.ime === null ? { ime: ACCOUNT.deletedUser, prezime: '' } : { ime: r.ime, prezime: r.prezime ?? '' },
    createdAt: r.createdAt.toISOString(),
    odgovoranZaOdgovor: { _id: r.groupId, naziv: r.groupNaziv },
  }));
}

/** One topic with its comments (after a mutation, or for the detail). */
export async function presentTopicById(db: Executor, id: string, rights: TopicRights): Promise<TopicDto | null> {
  const [row] = await selectTopics(db).where(eq(topics.id, id));
  if (!row) return null;
  return presentTopic(row, rights, await commentsOf(db, id));
}
