-- Each cluster's number of comments and topics, kept (issue 15 item 3; docs/decisions.md "Counts and
-- keys kept on rows by triggers"). A limited scope's total without a search was an index-only count of
-- its clusters' comments (a Rukovodilac's 9,774 entries: 6.7 ms of the 8 ms of SQL of page 1); it is now
-- the sum of 300 kept numbers. Sorted by cluster, a deep page skips the whole clusters before its offset
-- by the running sum of the kept numbers (the Admin's page 2,500 walked 25,000 comments). Written by hand
-- like 0013–0024; IF NOT EXISTS: running this twice changes nothing.
--
-- A table apart, not columns of clusters: every change of a cluster row moves the clusters list's kept
-- version (0020's list_locations_clusters_upd), so a comment would have dropped the pickers' kept answer.
-- No foreign key: a cluster removed takes its comments and topics with it (cascades in any order), and
-- its row is recounted to 0 — harmless, the lists join from the visible clusters.
CREATE TABLE IF NOT EXISTS "cluster_list_counts" (
  "cluster_id" uuid PRIMARY KEY,
  "comments" integer NOT NULL DEFAULT 0,
  "topics" integer NOT NULL DEFAULT 0
);--> statement-breakpoint
-- Recounted from the rows themselves (not +1/-1), so the numbers do not depend on the order a restore
-- loads tables in. The rows are locked first: the counts then run with a snapshot taken after any other
-- transaction that recounted the same cluster has committed (READ COMMITTED: a snapshot per statement),
-- so two comments written at once on one cluster are both counted.
CREATE OR REPLACE FUNCTION trasa_cluster_list_recount(ids uuid[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO cluster_list_counts (cluster_id)
    SELECT DISTINCT x FROM unnest(ids) x WHERE x IS NOT NULL ORDER BY 1 ON CONFLICT DO NOTHING;
  PERFORM 1 FROM cluster_list_counts WHERE cluster_id = ANY (ids) ORDER BY cluster_id FOR UPDATE;
  UPDATE cluster_list_counts k
    SET comments = (SELECT count(*) FROM activity_comments c WHERE c.cluster_id = k.cluster_id),
        topics = (SELECT count(*) FROM topics t WHERE t.cluster_id = k.cluster_id)
    WHERE k.cluster_id = ANY (ids);
END
$$;--> statement-breakpoint
-- Inserts and deletes once per statement (an Admin's deletion of many comments, a cluster's cascade: one
-- recount of the clusters touched); a moved comment or topic per row (transition tables take no column list).
CREATE OR REPLACE FUNCTION trasa_cluster_list_added() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM trasa_cluster_list_recount(array(SELECT DISTINCT cluster_id FROM changed_rows));
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION trasa_cluster_list_moved() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM trasa_cluster_list_recount(array[OLD.cluster_id, NEW.cluster_id]);
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION trasa_cluster_list_truncated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_TABLE_NAME = 'topics' THEN UPDATE cluster_list_counts SET topics = 0 WHERE topics <> 0;
  ELSE UPDATE cluster_list_counts SET comments = 0 WHERE comments <> 0;
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
-- The same four triggers on both tables (dropped first: running this twice changes nothing).
DO $$
DECLARE
  t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['activity_comments', 'topics'] LOOP
    EXECUTE format('DROP TRIGGER IF EXISTS %I ON %I', t || '_counted_ins', t);
    EXECUTE format('CREATE TRIGGER %I AFTER INSERT ON %I REFERENCING NEW TABLE AS changed_rows
      FOR EACH STATEMENT EXECUTE FUNCTION trasa_cluster_list_added()', t || '_counted_ins', t);
    EXECUTE format('DROP TRIGGER IF EXISTS %I ON %I', t || '_counted_del', t);
    EXECUTE format('CREATE TRIGGER %I AFTER DELETE ON %I REFERENCING OLD TABLE AS changed_rows
      FOR EACH STATEMENT EXECUTE FUNCTION trasa_cluster_list_added()', t || '_counted_del', t);
    EXECUTE format('DROP TRIGGER IF EXISTS %I ON %I', t || '_counted_upd', t);
    EXECUTE format('CREATE TRIGGER %I AFTER UPDATE OF cluster_id ON %I FOR EACH ROW
      WHEN (OLD.cluster_id IS DISTINCT FROM NEW.cluster_id) EXECUTE FUNCTION trasa_cluster_list_moved()', t || '_counted_upd', t);
    EXECUTE format('DROP TRIGGER IF EXISTS %I ON %I', t || '_counted_trunc', t);
    EXECUTE format('CREATE TRIGGER %I AFTER TRUNCATE ON %I FOR EACH STATEMENT EXECUTE FUNCTION trasa_cluster_list_truncated()',
      t || '_counted_trunc', t);
  END LOOP;
END
$$;--> statement-breakpoint
-- The clusters that exist now, in one grouped pass over each table.
INSERT INTO "cluster_list_counts" ("cluster_id", "comments", "topics")
  SELECT k.id, coalesce(c.n, 0)::integer, coalesce(t.n, 0)::integer
  FROM (SELECT cluster_id AS id FROM "activity_comments" WHERE cluster_id IS NOT NULL
        UNION SELECT cluster_id FROM "topics" WHERE cluster_id IS NOT NULL) k
  LEFT JOIN (SELECT cluster_id, count(*) AS n FROM "activity_comments" GROUP BY cluster_id) c ON c.cluster_id = k.id
  LEFT JOIN (SELECT cluster_id, count(*) AS n FROM "topics" GROUP BY cluster_id) t ON t.cluster_id = k.id
  ON CONFLICT ("cluster_id") DO UPDATE SET "comments" = excluded."comments", "topics" = excluded."topics";--> statement-breakpoint
-- A restore (ops/backup.ts) loads the tables in name order with the triggers on: the comments' recount has
-- made the row before the backup's copy of it arrives. The copy is then dropped (the recount is the truth,
-- and the topics' recount follows), not a duplicate key failing the restore.
CREATE OR REPLACE FUNCTION trasa_cluster_list_counts_once() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM cluster_list_counts WHERE cluster_id = NEW.cluster_id) THEN RETURN NULL; END IF;
  RETURN NEW;
END
$$;--> statement-breakpoint
DROP TRIGGER IF EXISTS "cluster_list_counts_once" ON "cluster_list_counts";--> statement-breakpoint
CREATE TRIGGER "cluster_list_counts_once" BEFORE INSERT ON "cluster_list_counts"
  FOR EACH ROW EXECUTE FUNCTION trasa_cluster_list_counts_once();--> statement-breakpoint
-- An upgrade runs the pending migrations in one transaction: deferred trigger events an earlier one queued
-- (0024 rewrites every comment and topic) fire here, before the index is built on activity_comments.
SET CONSTRAINTS ALL IMMEDIATE;--> statement-breakpoint
-- The sort by activity of a limited scope reads its clusters' comments from this index: with the catalogue
-- position beside the time it is an index-only read and a sort (a Zaposleni's page 978: a bitmap over 4,262
-- heap pages, 17 of its 30 ms).
CREATE INDEX IF NOT EXISTS "activity_comments_cluster_pos_idx" ON "activity_comments" ("cluster_id", "id") INCLUDE ("created_at", "activity_position");--> statement-breakpoint
DROP INDEX IF EXISTS "activity_comments_cluster_idx";--> statement-breakpoint
ALTER INDEX "activity_comments_cluster_pos_idx" RENAME TO "activity_comments_cluster_idx";--> statement-breakpoint
ANALYZE "cluster_list_counts";
