import type { PerLocationPage, Sorting, SortKey } from '@trasa/domain';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import { clusters } from '../../db/schema-clusters.js';
import { a13Confirmations, schoolNotifications } from '../../db/schema-inventory.js';
import type { Actor } from '../../platform/auth.js';
import { serbianOrder } from '../../platform/database.js';
import { offsetOf } from '../../platform/paging.js';
import { orderOf, type SortMap } from '../../platform/sorting.js';
import { matchCondition, searchTerms } from '../../platform/textSearch.js';
import { clusterScopeOf, visibleClusterCondition } from '../clusters/policy.js';
import { assertInventoryUser } from './access.js';
import { placesOf } from './items.js';
import type { Search } from './reports.js';
import { inventoryLocationTotals } from './totals.js';

/**
 * The inventory report per location: its totals and confirmations.
 */
/**
 * A location's A13 confirmation (false without a record), and whether its school confirmed a stocktaking
 * list sent to it. The location's id written out with its table: drizzle leaves a column unqualified in a
 * statement without joins, where "id" inside the subquery would be school_notifications' own.
 */
const locationId = sql`${clusters}."id"`;
const a13Of = sql<boolean>`coalesce((select a.status from ${a13Confirmations} a where a.cluster_id = ${locationId}), false)`;
const schoolConfirmedOf = sql<boolean>`exists (select 1 from ${schoolNotifications} n where n.cluster_id = ${locationId} and n.confirmed_at is not null)`;

/**
 * `sort` of the state per location (LIST_SORTS.inventoryPerLocation): its columns, kept per location
 * (inventory_location_totals, migration 0028); the A13 confirmation and the school's confirmation as flags
 * (not yet before yes).
 */
const PER_LOCATION_SORTS: SortMap<'inventoryPerLocation'> = {
  naziv: { text: clusters.naziv },
  brojStavki: { value: inventoryLocationTotals.n },
  materijal: { value: inventoryLocationTotals.materijal },
  oprema: { value: inventoryLocationTotals.oprema },
  radovi: { value: inventoryLocationTotals.radovi },
  ukupnoRsd: { value: inventoryLocationTotals.vrednost },
  a13: { value: a13Of },
  potvrdaSkole: { value: schoolConfirmedOf },
};

/**
 * GET /api/inventory-reports/inventar-po-lokaciji: per visible location with items, the value per tip (by
 * name, or `sort`). One row per location kept by triggers (inventory_location_totals): the page in the name
 * order walks clusters_order_idx and stops after its rows; a sort by a figure sorts 3,000 kept rows, not
 * the grouping of every location's totals.
 */
export async function perLocation(
  ctx: AppContext,
  actor: Actor,
  input: Search & Sorting<SortKey<'inventoryPerLocation'>>,
): Promise<PerLocationPage> {
  assertInventoryUser(actor);
  const scope = await clusterScopeOf(ctx.db, actor);
  const lt = inventoryLocationTotals;
  const locationMatch = matchCondition(clusters.searchText, searchTerms({ eng: input.eng ?? '', srb: input.srb ?? '' }));
  const where = and(visibleClusterCondition(scope, lt.clusterId), locationMatch);
  const rows = await ctx.db
    .select({
      id: clusters.id,
      naziv: clusters.naziv,
      n: lt.n,
      materijal: lt.materijal,
      oprema: lt.oprema,
      radovi: lt.radovi,
      ukupno: lt.vrednost,
    })
    .from(lt)
    .innerJoin(clusters, eq(clusters.id, lt.clusterId))
    .where(where)
    .orderBy(...orderOf(PER_LOCATION_SORTS, input, [serbianOrder(clusters.naziv), asc(clusters.id)], clusters.id))
    .limit(input.limit)
    .offset(offsetOf(input));
  // The count without the clusters join unless a search needs their names.
  const counted = ctx.db.select({ n: sql<number>`count(*)::int` }).from(lt).$dynamic();
  const [total] = await (locationMatch ? counted.innerJoin(clusters, eq(clusters.id, lt.clusterId)) : counted).where(where);
  const ids = rows.map((r) => r.id);
  const places = await placesOf(ctx.db, ids);
  // The page's flags in one statement after it (in the page's statement they were evaluated for every
  // location the sort reads, not only the page's).
  const flags = new Map(
    ids.length
      ? (
          await ctx.db
            .select({ id: clusters.id, a13: a13Of, potvrdaSkole: schoolConfirmedOf })
            .from(clusters)
            .where(inArray(clusters.id, ids))
        ).map((f) => [f.id, f])
      : [],
  );
  return {
    inventoryPerLocation: rows.map((r) => ({
      _id: r.id,
      naziv: r.naziv,
      opstina: places.get(r.id)?.opstina ?? '',
      brojStavki: r.n,
      materijal: Number(r.materijal),
      oprema: Number(r.oprema),
      radovi: Number(r.radovi),
      ukupnoRsd: Number(r.ukupno),
      a13: Boolean(flags.get(r.id)?.a13),
      potvrdaSkole: Boolean(flags.get(r.id)?.potvrdaSkole),
    })),
    totalResults: total?.n ?? 0,
  };
}
