import { boolean, date, index, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';

/**
 * Report snapshots (spec 3 §2.7 "Snapshot tools", §3 "Snapshot"; docs/api/reports.md). One snapshot per
 * date and report type (finishedReport, summaryReport, ijoTaxesReport); the unique (date, type) keeps
 * it single when several instances run the nightly job. Its rows are stored per cluster, so a
 * comparison is filtered to the clusters the caller sees (features/clusters/policy.ts).
 */
export const reportSnapshots = pgTable(
  'report_snapshots',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    date: date('date').notNull(),
    type: text('type').notNull(),
    /** Backfilled with randomize=true: perturbed for demonstration. */
    randomized: boolean('randomized').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('report_snapshots_date_type_uq').on(t.date, t.type)],
);

/**
 * One row per snapshot and cluster: the cluster's part of the report (jsonb). No foreign key to
 * clusters: history outlives a deleted cluster (then only callers who see everything see its rows).
 */
export const reportSnapshotRows = pgTable(
  'report_snapshot_rows',
  {
    snapshotId: uuid('snapshot_id')
      .notNull()
      .references(() => reportSnapshots.id, { onDelete: 'cascade' }),
    clusterId: uuid('cluster_id').notNull(),
    data: jsonb('data').notNull(),
  },
  (t) => [primaryKey({ columns: [t.snapshotId, t.clusterId] }), index('report_snapshot_rows_cluster_idx').on(t.clusterId)],
);
