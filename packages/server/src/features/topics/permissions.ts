import type { TopicPermissions } from '@trasa/domain';
import { eq } from 'drizzle-orm';
import { users } from '../../db/schema.js';
import type { Actor } from '../../platform/auth.js';
import type { Executor } from '../../platform/database.js';
import { subtreeIds } from '../groups/policy.js';
import type { TopicRow } from './policy.js';

/**
 * Who may change a topic he sees (docs/decisions.md "Open issues: who changes what"):
 * - edit and delete: the Admin, or a member of the author's group (the group the author belongs to
 *   now; a Rukovodilac counts for the groups of their subtree) — while the spec's locks allow;
 * - close: the Admin, the author's group or the group now responsible;
 * - comment and hand over: the responsible group only (policy.ts, canCommentOn).
 * Seeing a topic (its cluster) is not enough: a group that sees every cluster does not rewrite others'.
 */
export type TopicRights = { admin: boolean; groups: ReadonlySet<string> };

/** The actor's rights, once per request: Admin, or the groups they act for. */
export async function topicRightsOf(db: Executor, actor: Actor): Promise<TopicRights> {
  if (actor.role === 'Admin') return { admin: true, groups: new Set() };
  if (!actor.group || (actor.role !== 'Zaposleni' && actor.role !== 'Rukovodilac')) return { admin: false, groups: new Set() };
  const ids = actor.role === 'Rukovodilac' ? await subtreeIds(db, actor.group.id) : [actor.group.id];
  return { admin: false, groups: new Set([actor.group.id, ...ids]) };
}

/** The flags a topic carries for the caller (the locks of a closed or commented topic are separate). */
export function permissionsOn(rights: TopicRights, topic: { authorGroupId: string | null; groupId: string }): TopicPermissions {
  const author = rights.admin || (topic.authorGroupId !== null && rights.groups.has(topic.authorGroupId));
  return { izmena: author, brisanje: author, zatvaranje: author || rights.groups.has(topic.groupId) };
}

/** The group the topic's author belongs to now; null for a deleted author or one without a group. */
export async function authorGroupOf(db: Executor, topic: Pick<TopicRow, 'createdBy'>): Promise<string | null> {
  if (!topic.createdBy) return null;
  const [row] = await db.select({ groupId: users.groupId }).from(users).where(eq(users.id, topic.createdBy));
  return row?.groupId ?? null;
}

/** The caller's flags on one topic row. */
export async function permissionsFor(db: Executor, actor: Actor, topic: TopicRow): Promise<TopicPermissions> {
  return permissionsOn(await topicRightsOf(db, actor), { authorGroupId: await authorGroupOf(db, topic), groupId: topic.groupId });
}
