import {
  type AllInventoryPage,
  INVENTORY_TIPOVI,
  type InventoryTip,
  type PerLocationPage,
  type Sorting,
  type SortKey,
  type StocktakingList,
  type StocktakingRow,
  type SumPerTypePage,
  type SumSort,
} from '@trasa/domain';
import { and, asc, desc, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { z } from 'zod';
import type { AppContext } from '../../context.js';
import { clusterSettlements, clusters, settlements } from '../../db/schema-clusters.js';
import { a13Confirmations, inventoryItems, inventoryTypes, schoolNotifications } from '../../db/schema-inventory.js';
import type { Actor } from '../../platform/auth.js';
import { type Executor, serbianOrder } from '../../platform/database.js';
import { notFound } from '../../platform/errors.js';
import { offsetOf, type Paging } from '../../platform/paging.js';
import { orderOf, type SortMap } from '../../platform/sorting.js';
import { matchCondition, searchTerms } from '../../platform/textSearch.js';
import { type ClusterScope, clusterScopeOf, visibleClusterCondition } from '../clusters/policy.js';
import { assertInventoryUser } from './access.js';
import { ITEM_SORTS, type ItemRow, type ItemSorting, placesOf, presentItem, selectItems } from './items.js';
import { inventoryLocationTotals, inventoryTotals, itemClusterNaziv, itemTypeNaziv } from './totals.js';

/** The four inventory reports (spec 3 §7 "Inventory reports and school notifications"). */

type Search = Paging & { eng?: string; srb?: string };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Item search: the type's name, short name and code, the location's name (the list and its export). */
export function itemSearch(input: { eng?: string; srb?: string } | string[]): SQL | undefined {
  const terms = Array.isArray(input) ? input : searchTerms({ eng: input.eng ?? '', srb: input.srb ?? '' });
  if (terms.length === 0) return undefined;
  // The codebook is small: its matching entries are found once; locations through their indexed search text.
  const typeText = sql`trasa_fold(${inventoryTypes.naziv} || ' ' || ${inventoryTypes.kratakNaziv} || ' ' || ${inventoryTypes.sifra})`;
  const typeMatch = sql.join(
    terms.map((t) => sql`${typeText} like '%' || trasa_fold(${t.replace(/[\\%_]/g, (c) => `\\${c}`)}) || '%'`),
    sql` or `,
  );
  return sql`(${inventoryItems.typeId} in (select ${inventoryTypes.id} from ${inventoryTypes} where ${typeMatch}) or ${matchCondition(clusters.searchText, terms)})`;
}

/**
 * itemSearch over a table's type and location ids without joining clusters (the report's page of ids and
 * inventory_totals): the matching codebook entries and the matching locations as uncorrelated subqueries.
 */
function itemSearchOn(terms: string[], typeId: AnyPgColumn, clusterId: AnyPgColumn): SQL | undefined {
  if (terms.length === 0) return undefined;
  const typeText = sql`trasa_fold(${inventoryTypes.naziv} || ' ' || ${inventoryTypes.kratakNaziv} || ' ' || ${inventoryTypes.sifra})`;
  const typeMatch = sql.join(
    terms.map((t) => sql`${typeText} like '%' || trasa_fold(${t.replace(/[\\%_]/g, (c) => `\\${c}`)}) || '%'`),
    sql` or `,
  );
  return sql`(${typeId} in (select ${inventoryTypes.id} from ${inventoryTypes} where ${typeMatch})
    or ${clusterId} in (select ${clusters.id} from ${clusters} where ${matchCondition(clusters.searchText, terms)}))`;
}

/**
 * The report's own orders over the item's columns alone (the names are the item's copies, migration 0014):
 * the default order and the keys without a joined table page from an index or a sort of the items alone,
 * the ids first and then 10 rows joined. `tip`, `sifra` and `ugovor` sort the joined rows as before.
 */
const REPORT_ITEM_SORTS: SortMap<'inventoryItems'> = {
  ...ITEM_SORTS,
  lokacija: { text: itemClusterNaziv },
  naziv: { text: itemTypeNaziv },
};
const JOINED_SORT_KEYS: ReadonlySet<string> = new Set(['tip', 'sifra', 'ugovor']);

/** GET /api/inventory-reports/sve: every item of the visible locations, newest handover first (or by `sort`). */
export async function allInventory(ctx: AppContext, actor: Actor, input: Search & ItemSorting): Promise<AllInventoryPage> {
  assertInventoryUser(actor);
  const scope = await clusterScopeOf(ctx.db, actor);
  const terms = searchTerms({ eng: input.eng ?? '', srb: input.srb ?? '' });
  // The count and the sum from inventory_totals: the same items (a location's and an entry's), one row per pair.
  const [total] = await ctx.db
    .select({
      n: sql<number>`coalesce(sum(${inventoryTotals.n}), 0)::int`,
      ukupno: sql<string>`coalesce(sum(${inventoryTotals.vrednost}), 0)`,
    })
    .from(inventoryTotals)
    .where(
      and(
        visibleClusterCondition(scope, inventoryTotals.clusterId),
        itemSearchOn(terms, inventoryTotals.typeId, inventoryTotals.clusterId),
      ),
    );
  let rows: ItemRow[];
  if (input.sort && JOINED_SORT_KEYS.has(input.sort)) {
    rows = (await selectItems(ctx.db)
      .where(and(visibleClusterCondition(scope, inventoryItems.clusterId), itemSearch(terms)))
      .orderBy(...orderOf(ITEM_SORTS, input, [], inventoryItems.id))
      .limit(input.limit)
      .offset(offsetOf(input))) as ItemRow[];
  } else {
    const order = orderOf(
      REPORT_ITEM_SORTS,
      input,
      [
        desc(inventoryItems.datumPrimopredaje),
        sql`${itemClusterNaziv} collate trasa_sr`,
        sql`${itemTypeNaziv} collate trasa_sr`,
        asc(inventoryItems.id),
      ],
      inventoryItems.id,
    );
    // A deferred join: the page's ids from the items alone (an index walk in the default and the location
    // order), then those rows with their joins, in the same order.
    const ids = ctx.db
      .select({ id: inventoryItems.id })
      .from(inventoryItems)
      .where(
        and(visibleClusterCondition(scope, inventoryItems.clusterId), itemSearchOn(terms, inventoryItems.typeId, inventoryItems.clusterId)),
      )
      .orderBy(...order)
      .limit(input.limit)
      .offset(offsetOf(input));
    rows = (await selectItems(ctx.db)
      .where(inArray(inventoryItems.id, ids))
      .orderBy(...order)) as ItemRow[];
  }
  return { allInventory: rows.map((r) => presentItem(r)), totalResults: total?.n ?? 0, ukupnoRsd: Number(total?.ukupno ?? 0) };
}

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

/**
 * The stocktaking list of a location from the server's own records: the items summed per codebook entry
 * (kolicina; value at each item's own price), in the codebook's order, split by tip.
 */
export async function buildStocktaking(db: Executor, clusterId: string): Promise<Omit<StocktakingList, 'email' | 'naziv' | 'locId'>> {
  const rows = await db
    .select({
      id: inventoryTypes.id,
      tip: inventoryTypes.tip,
      redniBroj: inventoryTypes.redniBroj,
      sifra: inventoryTypes.sifra,
      naziv: inventoryTypes.naziv,
      kratakNaziv: inventoryTypes.kratakNaziv,
      jedinica: inventoryTypes.jedinica,
      garancija: inventoryTypes.trajanjeGarancije,
      kolicina: sql<string>`sum(${inventoryItems.kolicina})`,
      ukupno: sql<string>`sum(round(${inventoryItems.kolicina} * ${inventoryItems.cenaRsd}, 2))`,
      datum: sql<string>`max(${inventoryItems.datumPrimopredaje})::text`,
    })
    .from(inventoryItems)
    .innerJoin(inventoryTypes, eq(inventoryTypes.id, inventoryItems.typeId))
    .where(eq(inventoryItems.clusterId, clusterId))
    .groupBy(inventoryTypes.id)
    .orderBy(sql`${inventoryTypes.redniBroj} asc nulls last`, serbianOrder(inventoryTypes.naziv), asc(inventoryTypes.id));
  const lists: Record<InventoryTip, StocktakingRow[]> = { Materijal: [], Oprema: [], Radovi: [] };
  let ukupnoRsd = 0;
  for (const r of rows) {
    const kolicina = Number(r.kolicina);
    const ukupno = Number(r.ukupno);
    ukupnoRsd += Math.round(ukupno * 100);
    lists[r.tip as InventoryTip]?.push({
      _id: r.id,
      redniBroj: r.redniBroj,
      sifra: r.sifra,
      naziv: r.naziv,
      kratakNaziv: r.kratakNaziv,
      jedinica: r.jedinica,
      kolicina,
      // The average unit price of the summed items (equal to the price when all items share one).
      cenaRsd: kolicina > 0 ? Math.round((ukupno / kolicina) * 100) / 100 : 0,
      ukupnoRsd: ukupno,
      trajanjeGarancije: r.garancija,
      datumPrimopredaje: r.datum,
    });
  }
  return { materijali: lists.Materijal, oprema: lists.Oprema, radovi: lists.Radovi, ukupnoRsd: ukupnoRsd / 100 };
}

/**
 * GET /api/inventory-reports/popisna-lista?naziv=: `naziv` is the location's id or its exact name (case
 * aside); a location outside the caller's visibility is 404 like a missing one.
 */
export async function stocktakingList(ctx: AppContext, actor: Actor, naziv: string): Promise<StocktakingList> {
  assertInventoryUser(actor);
  const scope = await clusterScopeOf(ctx.db, actor);
  const key = naziv.trim();
  if (!key) throw notFound();
  const [c] = await ctx.db
    .select({ id: clusters.id, naziv: clusters.naziv, email: clusters.skolaEmail })
    .from(clusters)
    .where(and(UUID.test(key) ? eq(clusters.id, key) : sql`lower(${clusters.naziv}) = lower(${key})`, visibleClusterCondition(scope)))
    .limit(1);
  if (!c) throw notFound();
  return { ...(await buildStocktaking(ctx.db, c.id)), locId: c.id, email: c.email, naziv: c.naziv };
}
