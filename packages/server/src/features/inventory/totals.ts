import { sql } from 'drizzle-orm';
import { date, integer, numeric, pgTable, primaryKey, uuid } from 'drizzle-orm/pg-core';
import { inventoryItems } from '../../db/schema-inventory.js';

/**
 * Per location and codebook entry: the items' count, kolicina, value (Σ round(kolicina × cenaRsd, 2)) and
 * latest handover, kept by statement triggers on inventory_items (migration 0014, hand-written like 0013;
 * declared here, outside the schema files, for the queries that read it). The reports' totals, the summary per codebook
 * entry and the state per location read it instead of 100,000 items.
 */
export const inventoryTotals = pgTable(
  'inventory_totals',
  {
    clusterId: uuid('cluster_id').notNull(),
    typeId: uuid('type_id').notNull(),
    n: integer('n').notNull(),
    kolicina: numeric('kolicina').notNull(),
    vrednost: numeric('vrednost').notNull(),
    datum: date('datum').notNull(),
  },
  (t) => [primaryKey({ columns: [t.clusterId, t.typeId] })],
);

/** The item's copies of its location's and codebook entry's names (migration 0014; kept by triggers). */
export const itemClusterNaziv = sql`${inventoryItems}.cluster_naziv`;
export const itemTypeNaziv = sql`${inventoryItems}.type_naziv`;

/**
 * Per location with items: their count and value per tip and in all, kept by statement triggers on
 * inventory_totals (migration 0028, hand-written like 0014). The state per location and the inventory
 * check read it instead of grouping inventory_totals on every page.
 */
export const inventoryLocationTotals = pgTable('inventory_location_totals', {
  clusterId: uuid('cluster_id').primaryKey(),
  n: integer('n').notNull(),
  materijal: numeric('materijal').notNull(),
  oprema: numeric('oprema').notNull(),
  radovi: numeric('radovi').notNull(),
  vrednost: numeric('vrednost').notNull(),
});
