import { sql } from 'drizzle-orm';
import { boolean, date, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { users } from './schema.js';
import { clusters } from './schema-clusters.js';

/** Spec 3: the activity catalogue, each cluster's activities, their files and comments, IJO holders. */

const id = () => uuid('id').primaryKey().defaultRandom();
const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
const updatedAt = () => timestamp('updated_at', { withTimezone: true }).notNull().defaultNow();

/**
 * The catalogue A1–A27 (design/activity-catalogue.md). Rows come from the domain's ACTIVITY_CATALOGUE
 * on every start: the fixed columns (odgovoran, kontrolna, flow, broj_fajlova, position) are
 * synchronised, the editable ones (naziv, rok, uputstvo, dokumenta) are kept as the Admin set them.
 */
export const activityCatalogue = pgTable('activity_catalogue', {
  code: text('code').primaryKey(),
  position: integer('position').notNull(),
  naziv: text('naziv').notNull(),
  odgovoran: text('odgovoran').array().notNull(),
  /** Days from the start; null is 'klizno'. */
  rok: integer('rok'),
  kontrolna: boolean('kontrolna').notNull().default(false),
  prethodna: text('prethodna').array().notNull().default(sql`'{}'::text[]`),
  naredna: text('naredna').array().notNull().default(sql`'{}'::text[]`),
  kontrolise: text('kontrolise'),
  brojFajlova: integer('broj_fajlova').notNull().default(0),
  dokumenta: text('dokumenta').notNull().default(''),
  uputstvo: text('uputstvo').notNull().default(''),
  updatedAt: updatedAt(),
});

/** One record per cluster and catalogue entry. */
export const activities = pgTable(
  'activities',
  {
    id: id(),
    clusterId: uuid('cluster_id')
      .notNull()
      .references(() => clusters.id, { onDelete: 'cascade' }),
    code: text('code')
      .notNull()
      .references(() => activityCatalogue.code, { onDelete: 'restrict' }),
    /** Copy of the catalogue position, so a cluster's activities sort without a join. */
    position: integer('position').notNull(),
    status: text('status').notNull().default('Nije započeta'),
    datumPocetka: date('datum_pocetka'),
    datumZavrsetka: date('datum_zavrsetka'),
    rokZavrsetka: date('rok_zavrsetka'),
    /** Control iteration (a control restarts with version + 1). */
    version: integer('version').notNull().default(0),
    /** Revision number: times the activity was sent back by a control (0 if none). */
    returned: integer('returned').notNull().default(0),
    faults: boolean('faults'),
    /**
     * Redone in a revision chain: set when a control sends the activity back (and on each finished
     * successor restarted by that chain), cleared when it finishes. Only such a finish restarts finished
     * successors; a finish after the Admin's reactivation starts only the ones not started.
     */
    recheck: boolean('recheck').notNull().default(false),
    podaci: jsonb('podaci').notNull().default(sql`'[]'::jsonb`),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('activities_cluster_code_uq').on(t.clusterId, t.code),
    // INCLUDE (cluster_id, code) is added by hand in drizzle/0007.
    index('activities_in_progress_idx').on(t.rokZavrsetka, t.id).where(sql`status = 'U toku'`),
    index('activities_code_status_idx').on(t.code, t.status),
    // The finished activities that can be late (greenRed): the progress report's late counts (drizzle/0042).
    index('activities_finished_late_idx')
      .on(t.clusterId)
      .where(sql`status = 'Završena' and rok_zavrsetka is not null and (datum_zavrsetka is null or datum_zavrsetka > rok_zavrsetka)`),
    // Also by hand: activities_finished_order_idx (cluster_id, position desc) INCLUDE (code) where finished,
    // drizzle/0037 (the progress report's furthest finished activity per cluster).
  ],
);

export const activityFiles = pgTable(
  'activity_files',
  {
    id: id(),
    activityId: uuid('activity_id')
      .notNull()
      .references(() => activities.id, { onDelete: 'cascade' }),
    storedName: text('stored_name').notNull(),
    originalnoIme: text('originalno_ime').notNull(),
    mimetype: text('mimetype').notNull(),
    size: integer('size').notNull(),
    isRequired: boolean('is_required').notNull().default(true),
    /** The activity's `returned` at upload. */
    revision: integer('revision').notNull().default(0),
    /** A1: settlement id; A20: test type 1–5; A7: holder id; otherwise null. */
    slot: text('slot'),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    uploadedBy: uuid('uploaded_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [index('activity_files_activity_idx').on(t.activityId)],
);

export const activityComments = pgTable(
  'activity_comments',
  {
    id: id(),
    activityId: uuid('activity_id')
      .notNull()
      .references(() => activities.id, { onDelete: 'cascade' }),
    komentar: text('komentar').notNull(),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    searchText: text('search_text').generatedAlwaysAs(sql`trasa_fold("komentar")`),
    createdAt: createdAt(),
  },
  (t) => [
    index('activity_comments_activity_idx').on(t.activityId, t.createdAt),
    index('activity_comments_created_idx').on(t.createdAt),
    index('activity_comments_search_idx').using('gin', t.searchText.op('gin_trgm_ops')),
  ],
);

/** Public-authority holders (IJO). `odgovoran`: 'Izvođač' (default) or 'Naručilac' — who pays the fee. */
export const ijoHolders = pgTable(
  'ijo_holders',
  {
    id: id(),
    naziv: text('naziv').notNull(),
    odgovoran: text('odgovoran').notNull().default('Izvođač'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('ijo_holders_naziv_uq').on(sql`lower(${t.naziv})`)],
);
