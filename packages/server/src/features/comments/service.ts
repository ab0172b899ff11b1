import type { ActivityCommentDto, ActivityState } from '@trasa/domain';
import { asTyped } from '@trasa/domain';
import { eq } from 'drizzle-orm';
import { activities, activityComments } from '../../db/schema-activities.js';
import { clusters } from '../../db/schema-clusters.js';
import { writeLog } from '../../platform/audit.js';
import type { Actor } from '../../platform/auth.js';
import type { Db } from '../../platform/database.js';
import { assertSameState, locateActivity } from '../activities/policy.js';
import { commentById } from '../activities/presenter.js';
import { clusterScopeOf } from '../clusters/policy.js';

export type RequestInfo = { ip: string; url: string };

/**
 * POST /api/comment/:id: a comment on an activity whose cluster the author sees (404 otherwise), in any
 * state. The text is kept as written, without surrounding blanks. With `stanje` (the state it was written
 * on) a comment that meets a newer state is refused with 409 and the reason, and nothing is written.
 */
export async function commentActivity(
  db: Db,
  actor: Actor,
  activityId: string,
  komentar: string,
  req: RequestInfo,
  stanje?: ActivityState,
): Promise<ActivityCommentDto> {
  const scope = await clusterScopeOf(db, actor);
  const activity = await locateActivity(db, scope, activityId);
  return db.transaction(async (tx) => {
    // The cluster row shared-locked: a comment waits for a workflow step on the cluster (which holds it
    // FOR UPDATE) and the step sees it, e.g. reactivation's "untouched" check (activities/workflow.ts).
    const [cluster] = await tx.select({ naziv: clusters.naziv }).from(clusters).where(eq(clusters.id, activity.clusterId)).for('share');
    if (stanje) {
      // Read under the lock: a step changing the state has committed or waits for this comment.
      const [now] = await tx
        .select({ status: activities.status, returned: activities.returned, version: activities.version })
        .from(activities)
        .where(eq(activities.id, activity.id));
      if (now) assertSameState(now, stanje);
    }
    const [row] = await tx
      .insert(activityComments)
      .values({ activityId: activity.id, komentar: komentar.trim(), userId: actor.id })
      .returning({ id: activityComments.id });
    if (!row) throw new Error('comment not saved');
    await writeLog(tx, {
      actor,
      ...req,
      message: `Korisnik ${asTyped(actor.email)} je komentarisao aktivnost ${asTyped(activity.code)} na klasteru ${asTyped(cluster?.naziv ?? '')}.`,
    });
    return commentById(tx, row.id);
  });
}
