import { TOPICS } from '@trasa/domain';
import { and, eq } from 'drizzle-orm';
import { topics } from '../../db/schema-clusters.js';
import type { Actor } from '../../platform/auth.js';
import type { Executor } from '../../platform/database.js';
import { notFound } from '../../platform/errors.js';
import { clusterScopeOf, visibleClusterCondition } from '../clusters/policy.js';
import { subtreeIds } from '../groups/policy.js';

/**
 * Who sees and who answers open issues (server-behaviour.md: topics follow cluster visibility).
 * A topic is visible exactly when its cluster is (features/clusters/policy.ts); anything else answers
 * 404 'Није пронађено' like a missing one. Only the responsible group answers: the caller's own group is
 * the topic's odgovoran, or, for a Rukovodilac, the odgovoran is within their subtree. An Admin without
 * that group does not comment. That check is by group equality, not the visibility's group tree
 * (docs/decisions.md "Visibility follows the group tree"): a team of the responsible group sees the
 * topic but answers only once the topic is handed to it.
 */
export type TopicRow = typeof topics.$inferSelect;

/** The visible topic, optionally locked for a mutation; 404 otherwise. */
export async function visibleTopic(db: Executor, actor: Actor, id: string, lock = false): Promise<TopicRow> {
  const scope = await clusterScopeOf(db, actor);
  const query = db
    .select()
    .from(topics)
    .where(and(eq(topics.id, id), visibleClusterCondition(scope, topics.clusterId)));
  const [row] = lock ? await query.for('update') : await query;
  if (!row) throw notFound(TOPICS.notFound);
  return row;
}

/** Whether the actor belongs to the topic's responsible group (directly or, as a manager, above it). */
export async function isResponsible(db: Executor, actor: Actor, groupId: string): Promise<boolean> {
  if (!actor.group || (actor.role !== 'Zaposleni' && actor.role !== 'Rukovodilac')) return false;
  if (actor.group.id === groupId) return true;
  if (actor.role !== 'Rukovodilac') return false;
  return (await subtreeIds(db, actor.group.id)).includes(groupId);
}

/** canComment: the topic is open and the actor is of its responsible group. */
export async function canCommentOn(db: Executor, actor: Actor, topic: Pick<TopicRow, 'status' | 'groupId'>): Promise<boolean> {
  return topic.status === 'otvoren' && (await isResponsible(db, actor, topic.groupId));
}
