import { DATA_KEYS, type DataItem } from '@trasa/domain';
import { and, asc, eq, inArray, isNull } from 'drizzle-orm';
import { type activities, type activityCatalogue, activityFiles, ijoHolders } from '../../db/schema-activities.js';
import { clusterSettlements, settlements } from '../../db/schema-clusters.js';
import type { Executor } from '../../platform/database.js';

export type ActivityRow = typeof activities.$inferSelect;
export type CatalogueRow = typeof activityCatalogue.$inferSelect;

export const AUTOMATIC = 'AUTOMATSKI';
export const isAutomatic = (entry: Pick<CatalogueRow, 'odgovoran'>) => entry.odgovoran.includes(AUTOMATIC);

/** The A5.1 → A6 and A10.1 → A11 pairs: a positive decision finishes the automatic activity. */
export const AUTOMATIC_AFTER: Record<string, string> = { 'A5.1': 'A6', 'A10.1': 'A11' };

/** The cluster's settlements whose route A1 draws (one file each): its own, not the incidental ones. */
export async function clusterSettlementsOf(db: Executor, clusterId: string): Promise<{ _id: string; naziv: string }[]> {
  const rows = await db
    .select({ id: settlements.id, naziv: settlements.naziv })
    .from(clusterSettlements)
    .innerJoin(settlements, eq(settlements.id, clusterSettlements.settlementId))
    .where(and(eq(clusterSettlements.clusterId, clusterId), eq(clusterSettlements.usputno, false)))
    .orderBy(asc(clusterSettlements.position), asc(settlements.naziv));
  return rows.map((r) => ({ _id: r.id, naziv: r.naziv }));
}

/** Live files of an activity (what the rules count). */
export async function liveFilesOf(db: Executor, activityId: string) {
  return db
    .select()
    .from(activityFiles)
    .where(and(eq(activityFiles.activityId, activityId), isNull(activityFiles.deletedAt)))
    .orderBy(asc(activityFiles.createdAt), asc(activityFiles.id));
}

export function podaciOf(row: ActivityRow): DataItem[] {
  return Array.isArray(row.podaci) ? (row.podaci as DataItem[]) : [];
}

/**
 * Holder names by id (existing holders only). With `lock` (a step that stores references to them) the
 * holders are key-share locked until the step commits: a concurrent delete (ijo/service.ts, FOR UPDATE)
 * waits and then sees the reference, or went first and the holder reads as missing.
 */
export async function holderNames(db: Executor, ids: readonly string[], lock = false): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const query = db
    .select({ id: ijoHolders.id, naziv: ijoHolders.naziv })
    .from(ijoHolders)
    .where(inArray(ijoHolders.id, [...ids]));
  const rows = lock ? await query.for('key share') : await query;
  return new Map(rows.map((r) => [r.id, r.naziv]));
}

/** The Ijos and IjoNazivi items of a holder list. */
export function holderItems(ids: readonly string[], names: Map<string, string>): DataItem[] {
  return [
    { key: DATA_KEYS.holders, naziv: 'IJO', vrednost: ids.join(',') },
    { key: DATA_KEYS.holderNames, naziv: 'Imaoci javnih ovlašćenja', vrednost: ids.map((id) => names.get(id) ?? id).join(', ') },
  ];
}
