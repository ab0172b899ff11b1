-- The IJO fees report kept apart (docs/decisions.md "Reports: the IJO rows kept, comparisons as text").
-- Every request of the report computed every A7's holder rows (unnesting the data of ~2,300 A7s at
-- 3,000 clusters: ~50 ms of PostgreSQL CPU) to total them and to page them. The rows depend only on the
-- stored data, not on the caller, page or sort, so they are kept in ijo_report_rows, rebuilt by the
-- server (features/reports/service.ts ensureIjoRows) when report_cache_state.version has moved past
-- built. Every change the rows depend on bumps the version once per transaction, at commit (deferred
-- constraint triggers: the state row is locked last and briefly, and a rebuild that holds it sees
-- either all of a transaction's changes or none). Safe on production data and on an empty database:
-- the table starts empty with built < version, so the first request builds it.
CREATE TABLE IF NOT EXISTS "report_cache_state" (
  "name" text PRIMARY KEY,
  "version" bigint NOT NULL DEFAULT 1,
  "built" bigint NOT NULL DEFAULT 0
);
--> statement-breakpoint
INSERT INTO "report_cache_state" ("name") VALUES ('ijo') ON CONFLICT DO NOTHING;
--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "ijo_report_rows" (
  "activity_id" uuid NOT NULL,
  "cluster_id" uuid NOT NULL,
  "klaster" text NOT NULL,
  "ugovor_id" uuid,
  "ugovor" text NOT NULL,
  "ugovor_broj" text NOT NULL,
  "imaoc_id" text NOT NULL,
  "ord" bigint NOT NULL,
  "imaoc" text NOT NULL,
  "status" boolean NOT NULL,
  "taksa" numeric,
  "zaduzen" text NOT NULL,
  "izvodjac" text,
  PRIMARY KEY ("activity_id", "ord")
);
--> statement-breakpoint
-- The report's default order (a page 1 without sort reads the first rows of this index).
CREATE INDEX IF NOT EXISTS "ijo_report_rows_order_idx" ON "ijo_report_rows" (("klaster" COLLATE trasa_sr), "cluster_id", "activity_id", "ord");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "ijo_report_rows_cluster_idx" ON "ijo_report_rows" ("cluster_id");
--> statement-breakpoint
-- Bumps the version once per transaction (a transaction-local setting remembers it).
CREATE OR REPLACE FUNCTION trasa_ijo_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF current_setting('trasa.ijo_changed', true) IS DISTINCT FROM txid_current()::text THEN
    UPDATE report_cache_state SET version = version + 1 WHERE name = 'ijo';
    PERFORM set_config('trasa.ijo_changed', txid_current()::text, true);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- activities: an A7 added, removed, or its data, cluster or code changed.
CREATE CONSTRAINT TRIGGER "ijo_report_activities_ins" AFTER INSERT ON "activities" DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW WHEN (NEW.code = 'A7') EXECUTE FUNCTION trasa_ijo_changed();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "ijo_report_activities_upd" AFTER UPDATE ON "activities" DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW WHEN ((OLD.code = 'A7' OR NEW.code = 'A7') AND (OLD.podaci IS DISTINCT FROM NEW.podaci
    OR OLD.cluster_id IS DISTINCT FROM NEW.cluster_id OR OLD.code IS DISTINCT FROM NEW.code OR OLD.id IS DISTINCT FROM NEW.id))
  EXECUTE FUNCTION trasa_ijo_changed();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "ijo_report_activities_del" AFTER DELETE ON "activities" DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW WHEN (OLD.code = 'A7') EXECUTE FUNCTION trasa_ijo_changed();
--> statement-breakpoint
-- clusters: the name (a new cluster's rows come with its A7, a removed one's go with it).
CREATE CONSTRAINT TRIGGER "ijo_report_clusters_upd" AFTER UPDATE ON "clusters" DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW WHEN (OLD.naziv IS DISTINCT FROM NEW.naziv OR OLD.id IS DISTINCT FROM NEW.id) EXECUTE FUNCTION trasa_ijo_changed();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "ijo_report_groups_upd" AFTER UPDATE ON "groups" DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW WHEN (OLD.naziv IS DISTINCT FROM NEW.naziv OR OLD.type_id IS DISTINCT FROM NEW.type_id OR OLD.id IS DISTINCT FROM NEW.id)
  EXECUTE FUNCTION trasa_ijo_changed();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "ijo_report_groups_del" AFTER DELETE ON "groups" DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW EXECUTE FUNCTION trasa_ijo_changed();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "ijo_report_contracts_upd" AFTER UPDATE ON "contracts" DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW WHEN (OLD.naziv IS DISTINCT FROM NEW.naziv OR OLD.broj IS DISTINCT FROM NEW.broj OR OLD.id IS DISTINCT FROM NEW.id)
  EXECUTE FUNCTION trasa_ijo_changed();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "ijo_report_contracts_del" AFTER DELETE ON "contracts" DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW EXECUTE FUNCTION trasa_ijo_changed();
--> statement-breakpoint
-- Every change of the links, the group types and the holders' codebook.
DO $$
DECLARE t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['contract_clusters', 'contract_groups', 'cluster_groups', 'group_types', 'ijo_holders'] LOOP
    EXECUTE format('DROP TRIGGER IF EXISTS %I ON %I', 'ijo_report_' || t, t);
    EXECUTE format('CREATE CONSTRAINT TRIGGER %I AFTER INSERT OR UPDATE OR DELETE ON %I DEFERRABLE INITIALLY DEFERRED
      FOR EACH ROW EXECUTE FUNCTION trasa_ijo_changed()', 'ijo_report_' || t, t);
  END LOOP;
  FOREACH t IN ARRAY ARRAY['activities', 'clusters', 'groups', 'contracts', 'contract_clusters', 'contract_groups', 'cluster_groups',
      'group_types', 'ijo_holders'] LOOP
    EXECUTE format('DROP TRIGGER IF EXISTS %I ON %I', 'ijo_report_truncate_' || t, t);
    EXECUTE format('CREATE TRIGGER %I AFTER TRUNCATE ON %I FOR EACH STATEMENT EXECUTE FUNCTION trasa_ijo_changed()',
      'ijo_report_truncate_' || t, t);
  END LOOP;
END $$;
