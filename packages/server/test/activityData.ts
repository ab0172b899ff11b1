import type { DataItem } from '@trasa/domain';
import { and, eq } from 'drizzle-orm';
import { activities, activityComments, activityFiles } from '../src/db/schema-activities.js';
import type { Executor } from '../src/platform/database.js';

/**
 * Activity data for the tests of the comments list and the IJO holders: a cluster's activity (every
 * cluster has its records from createCluster), comments on it, and data items naming holders.
 */

export async function activityOf(db: Executor, clusterId: string, code: string) {
  const [row] = await db
    .select()
    .from(activities)
    .where(and(eq(activities.clusterId, clusterId), eq(activities.code, code)));
  if (!row) throw new Error(`activity ${code} missing on cluster ${clusterId}`);
  return row;
}

export async function addComment(db: Executor, spec: { activityId: string; userId: string | null; komentar?: string; createdAt?: Date }) {
  const [row] = await db
    .insert(activityComments)
    .values({
      activityId: spec.activityId,
      userId: spec.userId,
      komentar: spec.komentar ?? 'Komentar',
      ...(spec.createdAt && { createdAt: spec.createdAt }),
    })
    .returning();
  if (!row) throw new Error('comment not created');
  return row;
}

export async function setActivityData(db: Executor, activityId: string, podaci: DataItem[]): Promise<void> {
  await db.update(activities).set({ podaci }).where(eq(activities.id, activityId));
}

/** A stored A7 file filed under a holder (slot = the holder's id). */
export async function addHolderFile(db: Executor, activityId: string, holderId: string): Promise<void> {
  await db.insert(activityFiles).values({
    activityId,
    storedName: `${holderId}.pdf`,
    originalnoIme: 'uslovi.pdf',
    mimetype: 'application/pdf',
    size: 10,
    slot: holderId,
  });
}
