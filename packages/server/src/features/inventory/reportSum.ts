import { INVENTORY_TIPOVI, type InventoryTip, type Sorting, type SortKey, type SumPerTypePage, type SumSort } from '@trasa/domain';
import { and, asc, eq, type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { z } from 'zod';
import type { AppContext } from '../../context.js';
import { clusterSettlements, clusters, settlements } from '../../db/schema-clusters.js';
import { inventoryItems, inventoryTypes } from '../../db/schema-inventory.js';
import type { Actor } from '../../platform/auth.js';
import { serbianOrder } from '../../platform/database.js';
import { offsetOf, type Paging } from '../../platform/paging.js';
import { orderOf, type SortMap } from '../../platform/sorting.js';
import { matchCondition } from '../../platform/textSearch.js';
import { type ClusterScope, clusterScopeOf, visibleClusterCondition } from '../clusters/policy.js';
import { assertInventoryUser } from './access.js';
import { UUID } from './reportAll.js';
import { inventoryTotals } from './totals.js';

/**
 * The inventory report summed per codebook entry, with its filters.
 */
export type SumFilters = Paging & { naziv?: string; lokacija?: string; opstina?: string; tip?: InventoryTip };

/** The summary's filters in the query string (the list and its export): location name, location id, municipality, tip. */
export const sumFilterQuery = {
  naziv: z.string().max(200).optional(),
  lokacija: z.string().max(100).optional(),
  opstina: z.string().max(200).optional(),
  tip: z
    .union([z.enum(INVENTORY_TIPOVI), z.literal('')])
    .optional()
    .transform((v) => v || undefined),
};

/** `sort` of the summary per codebook entry (LIST_SORTS.inventorySum): its columns over the grouped rows. */
const SUM_COLUMN_SORTS: SortMap<'inventorySum'> = {
  naziv: { text: inventoryTypes.naziv },
  tip: { text: inventoryTypes.tip },
  sifra: { text: inventoryTypes.sifra },
  kolicina: { value: sql`sum(${inventoryTotals.kolicina})` },
  // One totals row per location holding the entry: their number is the entry's distinct locations.
  brojLokacija: { value: sql`count(*)` },
  datum: { value: sql`max(${inventoryTotals.datum})` },
  ukupnoRsd: { value: sql`sum(${inventoryTotals.vrednost})` },
};

/** Locations whose settlements lie in a municipality containing the text (folded). */
function municipalityCondition(opstina: string, clusterId: AnyPgColumn): SQL {
  return sql`${clusterId} in (select ${clusterSettlements.clusterId} from ${clusterSettlements} join ${settlements} on ${settlements.id} = ${clusterSettlements.settlementId}
    where exists (select 1 from unnest(${settlements.opstine}) o where trasa_fold(o) like '%' || trasa_fold(${opstina.replace(/[\\%_]/g, (c) => `\\${c}`)}) || '%'))`;
}

/**
 * The summary's condition over the items with clusters and inventory_types joined; over inventory_totals
 * (`clusterId` its column) with inventory_types joined, the location's name matched in a subquery.
 */
export function sumWhere(
  scope: ClusterScope,
  f: Omit<SumFilters, 'page' | 'limit'>,
  clusterId: AnyPgColumn = inventoryItems.clusterId,
): SQL | undefined {
  const name = f.naziv?.trim();
  const nameMatch = name ? matchCondition(clusters.searchText, [name]) : undefined;
  return and(
    visibleClusterCondition(scope, clusterId),
    f.lokacija && UUID.test(f.lokacija) ? eq(clusterId, f.lokacija) : f.lokacija ? sql`false` : undefined,
    nameMatch && clusterId !== inventoryItems.clusterId
      ? sql`${clusterId} in (select ${clusters.id} from ${clusters} where ${nameMatch})`
      : nameMatch,
    f.opstina?.trim() ? municipalityCondition(f.opstina.trim(), clusterId) : undefined,
    f.tip ? eq(inventoryTypes.tip, f.tip) : undefined,
  );
}

/**
 * GET /api/inventory-reports/sumarno/{naziv|datum}: one row per codebook entry over the filtered items,
 * kolicina and value summed; by name, or by the latest handover (newest first).
 */
export async function sumPerType(
  ctx: AppContext,
  actor: Actor,
  sort: SumSort,
  f: SumFilters & Sorting<SortKey<'inventorySum'>>,
): Promise<SumPerTypePage> {
  assertInventoryUser(actor);
  const scope = await clusterScopeOf(ctx.db, actor);
  // Over inventory_totals (one row per location and entry): the same sums as over the items, without
  // joining clusters (the foreign keys keep every total's location; a name is matched in a subquery). The
  // count and the sum of all the filtered entries come with the page (window totals over the grouped
  // rows), from a second statement only when the page is past the end.
  const where = sumWhere(scope, f, inventoryTotals.clusterId);
  const byPath =
    sort === 'datum'
      ? [sql`max(${inventoryTotals.datum}) desc`, serbianOrder(inventoryTypes.naziv), asc(inventoryTypes.id)]
      : [serbianOrder(inventoryTypes.naziv), asc(inventoryTypes.tip), asc(inventoryTypes.id)];
  const rows = await ctx.db
    .select({
      id: inventoryTypes.id,
      naziv: inventoryTypes.naziv,
      kratakNaziv: inventoryTypes.kratakNaziv,
      tip: inventoryTypes.tip,
      sifra: inventoryTypes.sifra,
      jedinica: inventoryTypes.jedinica,
      kolicina: sql<string>`sum(${inventoryTotals.kolicina})`,
      ukupno: sql<string>`sum(${inventoryTotals.vrednost})`,
      lokacija: sql<number>`count(*)::int`,
      datum: sql<string>`max(${inventoryTotals.datum})::text`,
      allN: sql<number>`(count(*) over ())::int`,
      allUkupno: sql<string>`sum(sum(${inventoryTotals.vrednost})) over ()`,
    })
    .from(inventoryTotals)
    .innerJoin(inventoryTypes, eq(inventoryTypes.id, inventoryTotals.typeId))
    .where(where)
    .groupBy(inventoryTypes.id)
    .orderBy(...orderOf(SUM_COLUMN_SORTS, f, byPath, inventoryTypes.id))
    .limit(f.limit)
    .offset(offsetOf(f));
  const [total] = rows[0]
    ? [{ n: rows[0].allN, ukupno: rows[0].allUkupno }]
    : await ctx.db
        .select({
          n: sql<number>`count(distinct ${inventoryTotals.typeId})::int`,
          ukupno: sql<string>`coalesce(sum(${inventoryTotals.vrednost}), 0)`,
        })
        .from(inventoryTotals)
        .innerJoin(inventoryTypes, eq(inventoryTypes.id, inventoryTotals.typeId))
        .where(where);
  return {
    sumPerTypeInventory: rows.map((r) => ({
      _id: r.id,
      naziv: r.naziv,
      kratakNaziv: r.kratakNaziv,
      tip: r.tip as InventoryTip,
      sifra: r.sifra,
      jedinica: r.jedinica,
      kolicina: Number(r.kolicina),
      ukupnoRsd: Number(r.ukupno),
      brojLokacija: r.lokacija,
      datum: r.datum,
    })),
    totalResults: total?.n ?? 0,
    ukupnoRsd: Number(total?.ukupno ?? 0),
  };
}
