import { sql } from 'drizzle-orm';
import {
  boolean,
  date,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { users } from './schema.js';
import { clusters } from './schema-clusters.js';

/**
 * Spec 3 §2.10: inventory contracts (their own kind, apart from spec 2's contracts), the equipment
 * codebook, items at school locations (clusters), stocktaking lists mailed to schools, A13 confirmations.
 */

const id = () => uuid('id').primaryKey().defaultRandom();
const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
const updatedAt = () => timestamp('updated_at', { withTimezone: true }).notNull().defaultNow();

/** Inventory contracts. `brojKey` is the number folded (case and white space aside): unique. */
export const inventoryContracts = pgTable(
  'inventory_contracts',
  {
    id: id(),
    naziv: text('naziv').notNull(),
    broj: text('broj').notNull(),
    brojKey: text('broj_key').notNull(),
    datumPocetka: date('datum_pocetka').notNull(),
    datumZavrsetka: date('datum_zavrsetka'),
    searchText: text('search_text').generatedAlwaysAs(sql`trasa_fold("naziv" || ' ' || "broj")`),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('inventory_contracts_broj_uq').on(t.brojKey),
    index('inventory_contracts_created_idx').on(t.createdAt),
    index('inventory_contracts_search_idx').using('gin', t.searchText.op('gin_trgm_ops')),
  ],
);

export const inventoryContractFiles = pgTable(
  'inventory_contract_files',
  {
    id: id(),
    contractId: uuid('contract_id')
      .notNull()
      .references(() => inventoryContracts.id, { onDelete: 'cascade' }),
    storedName: text('stored_name').notNull(),
    originalnoIme: text('originalno_ime').notNull(),
    mimetype: text('mimetype').notNull(),
    size: integer('size').notNull(),
    uploadedBy: uuid('uploaded_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [index('inventory_contract_files_contract_idx').on(t.contractId)],
);

/** A location (cluster) on an inventory contract; a location may be on several. The link goes with a deleted cluster. */
export const inventoryContractLocations = pgTable(
  'inventory_contract_locations',
  {
    contractId: uuid('contract_id')
      .notNull()
      .references(() => inventoryContracts.id, { onDelete: 'cascade' }),
    clusterId: uuid('cluster_id')
      .notNull()
      .references(() => clusters.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.contractId, t.clusterId] }), index('inventory_contract_locations_cluster_idx').on(t.clusterId)],
);

/** The equipment codebook: names unique within a tip with case and script folded. */
export const inventoryTypes = pgTable(
  'inventory_types',
  {
    id: id(),
    naziv: text('naziv').notNull(),
    kratakNaziv: text('kratak_naziv').notNull().default(''),
    tip: text('tip').notNull(),
    trajanjeGarancije: integer('trajanje_garancije'),
    cena: numeric('cena', { precision: 14, scale: 2, mode: 'number' }).notNull(),
    valuta: text('valuta').notNull().default('RSD'),
    cenaRsd: numeric('cena_rsd', { precision: 14, scale: 2, mode: 'number' }).notNull(),
    sifra: text('sifra').notNull().default(''),
    redniBroj: integer('redni_broj'),
    jedinica: text('jedinica').notNull().default('kom'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('inventory_types_naziv_uq').on(t.tip, sql`trasa_fold(${t.naziv})`), index('inventory_types_sifra_idx').on(t.sifra)],
);

/** Items: a quantity of a codebook entry handed over at a location, under an inventory contract. */
export const inventoryItems = pgTable(
  'inventory_items',
  {
    id: id(),
    typeId: uuid('type_id')
      .notNull()
      .references(() => inventoryTypes.id, { onDelete: 'restrict' }),
    clusterId: uuid('cluster_id')
      .notNull()
      .references(() => clusters.id, { onDelete: 'restrict' }),
    contractId: uuid('contract_id').references(() => inventoryContracts.id, { onDelete: 'restrict' }),
    kolicina: numeric('kolicina', { precision: 15, scale: 3, mode: 'number' }).notNull(),
    cenaRsd: numeric('cena_rsd', { precision: 14, scale: 2, mode: 'number' }).notNull(),
    datumPrimopredaje: date('datum_primopredaje').notNull(),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('inventory_items_cluster_idx').on(t.clusterId, t.typeId, t.datumPrimopredaje),
    index('inventory_items_type_idx').on(t.typeId),
    index('inventory_items_contract_idx').on(t.contractId),
  ],
);

/**
 * A stocktaking list mailed to a school: the list as mailed (`lista`), the link's code hash (single use),
 * when it expires, and the school's confirmation.
 */
export const schoolNotifications = pgTable(
  'school_notifications',
  {
    id: id(),
    clusterId: uuid('cluster_id')
      .notNull()
      .references(() => clusters.id, { onDelete: 'restrict' }),
    email: text('email').notNull(),
    lista: jsonb('lista').notNull(),
    codeHash: text('code_hash').notNull(),
    mailPoslat: boolean('mail_poslat').notNull().default(false),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    confirmedAt: timestamp('confirmed_at', { withTimezone: true }),
    sentBy: uuid('sent_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [index('school_notifications_created_idx').on(t.createdAt), index('school_notifications_cluster_idx').on(t.clusterId)],
);

/** A13 confirmation per location: the client's act that the school received its equipment. */
export const a13Confirmations = pgTable('a13_confirmations', {
  clusterId: uuid('cluster_id')
    .primaryKey()
    .references(() => clusters.id, { onDelete: 'cascade' }),
  status: boolean('status').notNull().default(false),
  updatedBy: uuid('updated_by').references(() => users.id, { onDelete: 'set null' }),
  updatedAt: updatedAt(),
});
