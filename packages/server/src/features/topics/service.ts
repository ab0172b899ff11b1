import {
  asTyped,
  type GroupBrief,
  isReservedGroupName,
  TOPICS,
  type topicCommentSchema,
  type topicCreateSchema,
  USERS,
} from '@trasa/domain';
import { and, count, eq } from 'drizzle-orm';
import type { z } from 'zod';
import type { AppContext } from '../../context.js';
import { groups, groupTypes } from '../../db/schema.js';
import { topicComments, topics } from '../../db/schema-clusters.js';
import { writeLog } from '../../platform/audit.js';
import type { Actor } from '../../platform/auth.js';
import { type Executor, serbianOrder } from '../../platform/database.js';
import { badRequest, conflict, forbidden, notFound } from '../../platform/errors.js';
import { groupsSeeingClusterCondition, isClusterVisible } from '../clusters/policy.js';
import { authorGroupOf, permissionsOn, type TopicRights, topicRightsOf } from './permissions.js';
import { canCommentOn, type TopicRow, visibleTopic } from './policy.js';
import { presentTopicById, type TopicDto } from './presenter.js';

export { listTopics, TOPIC_SORTS, type TopicListQuery, topicSearchCondition } from './listing.js';

export type RequestInfo = { ip: string; url: string };
export type TopicCreateInput = z.output<typeof topicCreateSchema>;
export type TopicEditInput = { odgovoran: string; opis?: string; rok?: string | null; prioritet?: 'nizak' | 'srednji' | 'visok' };
export type TopicCommentInput = z.output<typeof topicCommentSchema>;

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
    await writeLog(tx, {
      actor,
      ...req,
      message: `Korisnik ${asTyped(actor.email)} je otvorio temu na klasteru ${asTyped(dto.nazivKlastera)}.`,
    });
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
    await writeLog(tx, {
      actor,
      ...req,
      message: `Korisnik ${asTyped(actor.email)} je zatvorio temu na klasteru ${asTyped(dto.nazivKlastera)}.`,
    });
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
    await writeLog(tx, {
      actor,
      ...req,
      message: `Korisnik ${asTyped(actor.email)} je izmenio temu na klasteru ${asTyped(dto.nazivKlastera)}.`,
    });
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
    await writeLog(tx, {
      actor,
      ...req,
      message: `Korisnik ${asTyped(actor.email)} je obrisao temu na klasteru ${asTyped(dto.nazivKlastera)}.`,
    });
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
    const note = handOver ? ` i predao je grupi ${asTyped(dto.odgovoran.naziv)}` : '';
    await writeLog(tx, {
      actor,
      ...req,
      message: `Korisnik ${asTyped(actor.email)} je komentarisao temu na klasteru ${asTyped(dto.nazivKlastera)}${note}.`,
    });
    return dto;
  });
}
