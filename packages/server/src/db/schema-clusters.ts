import { sql } from 'drizzle-orm';
import { boolean, date, index, integer, numeric, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { groups, users } from './schema.js';

/** Spec 2: settlements, priorities, clusters, contracts and their links, open issues (topics). */

const id = () => uuid('id').primaryKey().defaultRandom();
const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
const updatedAt = () => timestamp('updated_at', { withTimezone: true }).notNull().defaultNow();

/** Settlements (naselja). `code` is the spec's `id` (the settlement's registry id), the import's natural key. */
export const settlements = pgTable(
  'settlements',
  {
    id: id(),
    code: text('code').notNull(),
    naziv: text('naziv').notNull(),
    maticniBroj: text('maticni_broj').notNull().default(''),
    opstine: text('opstine').array().notNull().default(sql`'{}'::text[]`),
    operator: text('operator').notNull().default(''),
    javniPoziv: text('javni_poziv').notNull().default(''),
    brojDomacinstava: integer('broj_domacinstava'),
    brojSkola: integer('broj_skola'),
    brojIndirektnoPokrivenihDomacinstava: integer('broj_indirektno_pokrivenih_domacinstava'),
    brojIndirektnoPokrivenihSkola: integer('broj_indirektno_pokrivenih_skola'),
    searchText: text('search_text').generatedAlwaysAs(sql`trasa_fold("code" || ' ' || "naziv" || ' ' || "maticni_broj")`),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('settlements_code_uq').on(t.code), index('settlements_search_idx').using('gin', t.searchText.op('gin_trgm_ops'))],
);

export const priorities = pgTable('priorities', {
  id: id(),
  naziv: text('naziv').notNull(),
  broj: integer('broj').notNull(),
  createdAt: createdAt(),
});

/** Contracts of the four kinds: contract (general), contractIzv, contractPro, contractNad. */
export const contracts = pgTable(
  'contracts',
  {
    id: id(),
    kind: text('kind').notNull(),
    naziv: text('naziv').notNull(),
    broj: text('broj').notNull(),
    status: text('status').notNull().default('U toku'),
    datumPocetka: date('datum_pocetka').notNull(),
    rokTrajanja: integer('rok_trajanja').notNull(),
    datumZavrsetka: date('datum_zavrsetka'),
    searchText: text('search_text').generatedAlwaysAs(sql`trasa_fold("naziv" || ' ' || "broj")`),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('contracts_kind_idx').on(t.kind, t.naziv), index('contracts_search_idx').using('gin', t.searchText.op('gin_trgm_ops'))],
);

/** The groups of a contractor, designer or supervision contract (`grupe`). */
export const contractGroups = pgTable(
  'contract_groups',
  {
    contractId: uuid('contract_id')
      .notNull()
      .references(() => contracts.id, { onDelete: 'cascade' }),
    groupId: uuid('group_id')
      .notNull()
      .references(() => groups.id, { onDelete: 'restrict' }),
  },
  (t) => [primaryKey({ columns: [t.contractId, t.groupId] }), index('contract_groups_group_idx').on(t.groupId)],
);

export const contractFiles = pgTable(
  'contract_files',
  {
    id: id(),
    contractId: uuid('contract_id')
      .notNull()
      .references(() => contracts.id, { onDelete: 'cascade' }),
    storedName: text('stored_name').notNull(),
    originalnoIme: text('originalno_ime').notNull(),
    mimetype: text('mimetype').notNull(),
    size: integer('size').notNull(),
    uploadedBy: uuid('uploaded_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [index('contract_files_contract_idx').on(t.contractId)],
);

/** Clusters (locations). Status is derived from the activities (activity-catalogue.md). */
export const clusters = pgTable(
  'clusters',
  {
    id: id(),
    naziv: text('naziv').notNull(),
    indikativnaDuzinaKlastera: numeric('indikativna_duzina_klastera', { mode: 'number' }),
    ugovorenaVrednostKlastera: numeric('ugovorena_vrednost_klastera', { mode: 'number' }),
    adresa: text('adresa').notNull().default(''),
    /** The school's e-mail (spec 3 §2.10 inventory): where its stocktaking list is mailed; optional. */
    skolaEmail: text('skola_email'),
    /**
     * The status derived from the activities ('Nije započet', 'U toku', 'Završen') and, when finished, the
     * latest finishing date: kept by activities' triggers (drizzle/0017_cluster_status.sql), never written here.
     */
    statusKlastera: text('status_klastera').notNull().default('Nije započet'),
    datumZavrsetkaKlastera: date('datum_zavrsetka_klastera'),
    searchText: text('search_text').generatedAlwaysAs(sql`trasa_fold("naziv")`),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('clusters_naziv_uq').on(sql`lower(${t.naziv})`),
    index('clusters_search_idx').using('gin', t.searchText.op('gin_trgm_ops')),
  ],
);

/** A cluster under a contract: at most one contract of each kind per cluster. */
export const contractClusters = pgTable(
  'contract_clusters',
  {
    contractId: uuid('contract_id')
      .notNull()
      .references(() => contracts.id, { onDelete: 'cascade' }),
    clusterId: uuid('cluster_id')
      .notNull()
      .references(() => clusters.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.contractId, t.clusterId] }),
    uniqueIndex('contract_clusters_one_per_kind_uq').on(t.clusterId, t.kind),
    index('contract_clusters_cluster_idx').on(t.clusterId),
  ],
);

/** The responsible groups of a cluster (`odgovoran`). */
export const clusterGroups = pgTable(
  'cluster_groups',
  {
    clusterId: uuid('cluster_id')
      .notNull()
      .references(() => clusters.id, { onDelete: 'cascade' }),
    groupId: uuid('group_id')
      .notNull()
      .references(() => groups.id, { onDelete: 'restrict' }),
  },
  (t) => [primaryKey({ columns: [t.clusterId, t.groupId] }), index('cluster_groups_group_idx').on(t.groupId)],
);

/** Settlements of a cluster; `usputno` marks an incidental settlement (usputna naselja). */
export const clusterSettlements = pgTable(
  'cluster_settlements',
  {
    clusterId: uuid('cluster_id')
      .notNull()
      .references(() => clusters.id, { onDelete: 'cascade' }),
    settlementId: uuid('settlement_id')
      .notNull()
      .references(() => settlements.id, { onDelete: 'restrict' }),
    usputno: boolean('usputno').notNull().default(false),
    position: integer('position').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.clusterId, t.settlementId] }), index('cluster_settlements_settlement_idx').on(t.settlementId)],
);

/** Open issues (teme). */
export const topics = pgTable(
  'topics',
  {
    id: id(),
    clusterId: uuid('cluster_id')
      .notNull()
      .references(() => clusters.id, { onDelete: 'cascade' }),
    opis: text('opis').notNull().default(''),
    groupId: uuid('group_id')
      .notNull()
      .references(() => groups.id, { onDelete: 'restrict' }),
    rok: timestamp('rok', { withTimezone: true }),
    prioritet: text('prioritet').notNull().default('srednji'),
    status: text('status').notNull().default('otvoren'),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('topics_updated_idx').on(t.updatedAt),
    index('topics_cluster_idx').on(t.clusterId),
    index('topics_group_idx').on(t.groupId),
  ],
);

export const topicComments = pgTable(
  'topic_comments',
  {
    id: id(),
    topicId: uuid('topic_id')
      .notNull()
      .references(() => topics.id, { onDelete: 'cascade' }),
    tekst: text('tekst').notNull(),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    /** The group responsible for answering after this comment (odgovoranZaOdgovor). */
    groupId: uuid('group_id')
      .notNull()
      .references(() => groups.id, { onDelete: 'restrict' }),
    createdAt: createdAt(),
  },
  (t) => [index('topic_comments_topic_idx').on(t.topicId, t.createdAt)],
);
