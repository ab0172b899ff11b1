import { ACTIVITY_CATALOGUE, ACTIVITY_INSTRUCTIONS } from '@trasa/domain';
import { sql } from 'drizzle-orm';
import { activities, activityCatalogue } from '../db/schema-activities.js';
import { clusters } from '../db/schema-clusters.js';
import type { Executor } from '../platform/database.js';

/**
 * The catalogue rows from the domain (design/activity-catalogue.md). New codes are inserted; the fixed
 * columns (responsible parties, control flag, flow, file count, order) follow the product on every
 * start; what the Admin may edit (naziv, rok, uputstvo, dokumenta) is kept, except that an empty
 * instruction gets the shipped one (ACTIVITY_INSTRUCTIONS).
 */
export async function syncCatalogue(db: Executor): Promise<void> {
  for (const [position, entry] of ACTIVITY_CATALOGUE.entries()) {
    const fixed = {
      position,
      odgovoran: [...entry.odgovoran],
      kontrolna: entry.kontrolna,
      prethodna: [...entry.prethodna],
      naredna: [...entry.naredna],
      kontrolise: entry.kontrolise ?? null,
      brojFajlova: entry.brojFajlova,
    };
    const uputstvo = ACTIVITY_INSTRUCTIONS[entry.code] ?? '';
    await db
      .insert(activityCatalogue)
      .values({ code: entry.code, naziv: entry.naziv, rok: entry.rok, dokumenta: entry.dokumenta, uputstvo, ...fixed })
      .onConflictDoUpdate({
        target: activityCatalogue.code,
        set: {
          ...fixed,
          uputstvo: sql`case when btrim(${activityCatalogue.uputstvo}) = '' then excluded.uputstvo else ${activityCatalogue.uputstvo} end`,
        },
      });
  }
}

/**
 * Every cluster has one activity record per catalogue entry. Clusters created before the workflow (or
 * by a path that did not add them) get theirs here; `clusterIds` limits it to given clusters (creation,
 * import). Idempotent.
 */
export async function ensureClusterActivities(db: Executor, clusterIds?: string[]): Promise<void> {
  if (clusterIds && clusterIds.length === 0) return;
  const only = clusterIds
    ? sql`and c.id in (${sql.join(
        clusterIds.map((id) => sql`${id}::uuid`),
        sql`, `,
      )})`
    : sql``;
  await db.execute(sql`
    insert into ${activities} (cluster_id, code, position)
    select c.id, ac.code, ac.position
    from ${clusters} c cross join ${activityCatalogue} ac
    where not exists (select 1 from ${activities} a where a.cluster_id = c.id and a.code = ac.code) ${only}
    on conflict do nothing`);
}
