import type { AllInventoryPage } from '@trasa/domain';
import { and, asc, desc, inArray, type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { AppContext } from '../../context.js';
import { clusters } from '../../db/schema-clusters.js';
import { inventoryItems, inventoryTypes } from '../../db/schema-inventory.js';
import type { Actor } from '../../platform/auth.js';
import { offsetOf } from '../../platform/paging.js';
import { orderOf, type SortMap } from '../../platform/sorting.js';
import { matchCondition, searchTerms } from '../../platform/textSearch.js';
import { clusterScopeOf, visibleClusterCondition } from '../clusters/policy.js';
import { assertInventoryUser } from './access.js';
import { ITEM_SORTS, type ItemRow, type ItemSorting, presentItem, selectItems } from './items.js';
import type { Search } from './reports.js';
import { inventoryTotals, itemClusterNaziv, itemTypeNaziv } from './totals.js';

/**
 * The inventory report of every item (GET /api/inventory-reports/sve) and the item search it shares.
 */
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

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
