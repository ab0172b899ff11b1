import { asTyped, CLUSTERS, toCyrillic, toLatin } from '@trasa/domain';
import { and, eq, sql } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import { activities, activityFiles } from '../../db/schema-activities.js';
import { clusters, topics } from '../../db/schema-clusters.js';
import { inventoryItems, schoolNotifications } from '../../db/schema-inventory.js';
import { writeLog } from '../../platform/audit.js';
import type { Actor } from '../../platform/auth.js';
import type { Executor } from '../../platform/database.js';
import { conflict, notFound } from '../../platform/errors.js';
import { onConstraint, UNIQUE_VIOLATION } from '../../platform/pgErrors.js';
import { matchCondition, searchTerms } from '../../platform/textSearch.js';
import { ensureClusterActivities } from '../../shared/activityReference.js';
import { type Current, currentOf, lockName, nameTaken, resolveInput, writeRelations } from './form.js';
import { assertClusterVisible, clusterScopeOf, visibleClusterCondition } from './policy.js';
import { type ClusterRow, clusterColumns, clusterOrder, type LocationDto, type LocationListItem, presentLocations } from './presenter.js';
import type { ClusterInput } from './schema.js';

export { CLUSTER_TEXTS } from './form.js';
export {
  CLUSTER_SORT_DEFINITIONS,
  CLUSTER_SORTS,
  type ClusterSorting,
  type LocationsPageJson,
  listClusters,
  listClustersJson,
  locationsPageText,
} from './listing.js';

export type RequestInfo = { ip: string; url: string };
export type LocationsPage = { locations: LocationListItem[]; aktivne: number; totalResults: number };
export type LocationOption = { _id: string; nazivLokacije: string; cyr: string; lat: string };

async function locationOf(db: Executor, id: string): Promise<LocationDto> {
  const rows: ClusterRow[] = await db.select(clusterColumns).from(clusters).where(eq(clusters.id, id)).limit(1);
  const [location] = await presentLocations(db, rows, { withActivities: true });
  if (!location) throw notFound();
  return location;
}

/** GET /api/location/:id: a cluster outside the caller's visibility is 404 like a missing one. */
export async function getCluster(ctx: AppContext, actor: Actor, id: string): Promise<LocationDto> {
  await assertClusterVisible(ctx.db, actor, id);
  return locationOf(ctx.db, id);
}

/** GET /api/location/get/autocomplete: up to 20 visible clusters whose name matches, in either script. */
export async function autocomplete(ctx: AppContext, actor: Actor, value: string): Promise<LocationOption[]> {
  const scope = await clusterScopeOf(ctx.db, actor);
  const rows = await ctx.db
    .select({ id: clusters.id, naziv: clusters.naziv })
    .from(clusters)
    .where(and(visibleClusterCondition(scope), matchCondition(clusters.searchText, searchTerms({ eng: value, srb: '' }))))
    .orderBy(...clusterOrder)
    .limit(20);
  return rows.map(presentOption);
}

/** An autocomplete option of a cluster (its name in both scripts). */
export const presentOption = (row: { id: string; naziv: string }): LocationOption => ({
  _id: row.id,
  nazivLokacije: row.naziv,
  cyr: toCyrillic(row.naziv),
  lat: toLatin(row.naziv),
});

/** POST /api/location (Admin). */
export async function createCluster(ctx: AppContext, actor: Actor, input: ClusterInput, req: RequestInfo): Promise<LocationDto> {
  return ctx.db.transaction(async (tx) => {
    await lockName(tx, input.naziv);
    const none: Current = { groupIds: [], contract: null };
    const r = await resolveInput(tx, actor, input, none);
    const [row] = await onConstraint(
      () =>
        tx
          .insert(clusters)
          .values({
            naziv: r.naziv,
            indikativnaDuzinaKlastera: r.indikativnaDuzinaKlastera,
            ugovorenaVrednostKlastera: r.ugovorenaVrednostKlastera,
          })
          .returning({ id: clusters.id }),
      { [UNIQUE_VIOLATION]: nameTaken },
    );
    if (!row) throw new Error('cluster not created');
    await writeRelations(tx, row.id, r, none);
    await ensureClusterActivities(tx, [row.id]);
    await writeLog(tx, { actor, ...req, message: `Korisnik ${asTyped(actor.email)} je dodao klaster ${asTyped(r.naziv)}.` });
    return locationOf(tx, row.id);
  });
}

/** PATCH /api/location/:id (Admin; Rukovodilac for visible clusters): the form's whole payload replaces the cluster. */
export async function editCluster(ctx: AppContext, actor: Actor, id: string, input: ClusterInput, req: RequestInfo): Promise<LocationDto> {
  return ctx.db.transaction(async (tx) => {
    await assertClusterVisible(tx, actor, id);
    await lockName(tx, input.naziv);
    const [existing] = await tx.select({ id: clusters.id, naziv: clusters.naziv }).from(clusters).where(eq(clusters.id, id)).for('update');
    if (!existing) throw notFound();
    const current = await currentOf(tx, id);
    const r = await resolveInput(tx, actor, input, current, id);
    await onConstraint(
      () =>
        tx
          .update(clusters)
          .set({
            naziv: r.naziv,
            indikativnaDuzinaKlastera: r.indikativnaDuzinaKlastera,
            ugovorenaVrednostKlastera: r.ugovorenaVrednostKlastera,
            updatedAt: new Date(),
          })
          .where(eq(clusters.id, id)),
      { [UNIQUE_VIOLATION]: nameTaken },
    );
    await writeRelations(tx, id, r, current);
    await writeLog(tx, { actor, ...req, message: `Korisnik ${asTyped(actor.email)} je izmenio klaster ${asTyped(existing.naziv)}.` });
    return locationOf(tx, id);
  });
}

/**
 * What keeps a cluster from being deleted: its open topics, the documents of its activities and its
 * started activities (status other than 'Nije započeta', or any file uploaded). The cluster row and its
 * activities are locked first, so nothing starts or opens on it while it goes (a new topic or file
 * waits for the lock and then finds nothing to refer to). Its inventory (spec 3: items and stocktaking
 * lists sent) holds it too; its links to inventory contracts and its A13 record go with it.
 */
async function deleteBlockers(tx: Executor, id: string) {
  await tx.select({ id: activities.id }).from(activities).where(eq(activities.clusterId, id)).for('update');
  const result = await tx.execute<{ openTopics: number; documents: number; startedActivities: number; inventory: number }>(sql`
    select
      (select count(*)::int from ${topics} where ${topics.clusterId} = ${id} and ${topics.status} = 'otvoren') as "openTopics",
      (select count(*)::int from ${activityFiles} join ${activities} on ${activities.id} = ${activityFiles.activityId}
        where ${activities.clusterId} = ${id} and ${activityFiles.deletedAt} is null) as "documents",
      (select count(*)::int from ${activities} where ${activities.clusterId} = ${id}
        and (${activities.status} <> 'Nije započeta'
          or exists (select 1 from ${activityFiles} where ${activityFiles.activityId} = ${activities.id}))) as "startedActivities",
      ((select count(*)::int from ${inventoryItems} where ${inventoryItems.clusterId} = ${id})
        + (select count(*)::int from ${schoolNotifications} where ${schoolNotifications.clusterId} = ${id})) as "inventory"`);
  return result.rows[0] ?? { openTopics: 0, documents: 0, startedActivities: 0, inventory: 0 };
}

/**
 * DELETE /api/location/:id (Admin): refused (409, naming what holds it) while the cluster has open
 * topics, documents or started activities. Otherwise its groups, settlements, contract links, closed
 * topics and not-started activity records go with it.
 */
export async function deleteCluster(ctx: AppContext, actor: Actor, id: string, req: RequestInfo): Promise<string> {
  return ctx.db.transaction(async (tx) => {
    const [locked] = await tx.select({ id: clusters.id }).from(clusters).where(eq(clusters.id, id)).for('update');
    if (!locked) throw notFound();
    const held = await deleteBlockers(tx, id);
    if (held.openTopics > 0 || held.documents > 0 || held.startedActivities > 0 || held.inventory > 0)
      throw conflict(CLUSTERS.deleteBlocked(held));
    const [existing] = await tx.delete(clusters).where(eq(clusters.id, id)).returning({ naziv: clusters.naziv });
    if (!existing) throw notFound();
    await writeLog(tx, { actor, ...req, message: `Korisnik ${asTyped(actor.email)} je obrisao klaster ${asTyped(existing.naziv)}.` });
    return CLUSTERS.deleted;
  });
}
