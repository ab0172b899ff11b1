-- Every data version moved one way (docs/ARCHITECTURE.md "Kept values"; platform/kept/kinds.ts declares each
-- version with the tables whose changes move it, and platform/kept/versionTriggers.test.ts compares that
-- declaration with pg_trigger). Every trigger that moves a version runs 0020's trasa_list_changed with the
-- version's name as its argument, so the name is read from pg_trigger.tgargs, never parsed from a function's
-- text.
--
-- 1. 'ijo' (0018: the IJO report's kept rows) was moved by a function of its own with the name written in
--    its body; its triggers now run trasa_list_changed('ijo') on the same events and conditions, and that
--    function is dropped. ensureIjoRows still compares the version with `built`.
-- 2. 'catalogue': the catalogue's codes, order and names (the summary comparison lists them), which the
--    server hashed on every comparison it answered.
-- 3. 'snapshots': the report snapshots (a snapshot's rows are written with it and removed with it, never
--    changed: the header's triggers are enough), which the server read as ids and times on every comparison.
-- Only triggers and rows: instant on any database.
INSERT INTO "report_cache_state" ("name") VALUES ('catalogue'), ('snapshots') ON CONFLICT DO NOTHING;
--> statement-breakpoint
DROP TRIGGER IF EXISTS "ijo_report_activities_ins" ON "activities";
--> statement-breakpoint
DROP TRIGGER IF EXISTS "ijo_report_activities_upd" ON "activities";
--> statement-breakpoint
DROP TRIGGER IF EXISTS "ijo_report_activities_del" ON "activities";
--> statement-breakpoint
DROP TRIGGER IF EXISTS "ijo_report_clusters_upd" ON "clusters";
--> statement-breakpoint
DROP TRIGGER IF EXISTS "ijo_report_groups_upd" ON "groups";
--> statement-breakpoint
DROP TRIGGER IF EXISTS "ijo_report_groups_del" ON "groups";
--> statement-breakpoint
DROP TRIGGER IF EXISTS "ijo_report_contracts_upd" ON "contracts";
--> statement-breakpoint
DROP TRIGGER IF EXISTS "ijo_report_contracts_del" ON "contracts";
--> statement-breakpoint
DO $$
DECLARE t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['contract_clusters', 'contract_groups', 'cluster_groups', 'group_types', 'ijo_holders'] LOOP
    EXECUTE format('DROP TRIGGER IF EXISTS %I ON %I', 'ijo_report_' || t, t);
  END LOOP;
  FOREACH t IN ARRAY ARRAY['activities', 'clusters', 'groups', 'contracts', 'contract_clusters', 'contract_groups', 'cluster_groups',
      'group_types', 'ijo_holders'] LOOP
    EXECUTE format('DROP TRIGGER IF EXISTS %I ON %I', 'ijo_report_truncate_' || t, t);
  END LOOP;
END $$;
--> statement-breakpoint
DROP FUNCTION IF EXISTS trasa_ijo_changed();
--> statement-breakpoint
-- activities: an A7 added, removed, or its data, cluster or code changed.
CREATE CONSTRAINT TRIGGER "ijo_report_activities_ins" AFTER INSERT ON "activities" DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW WHEN (NEW.code = 'A7') EXECUTE FUNCTION trasa_list_changed('ijo');
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "ijo_report_activities_upd" AFTER UPDATE ON "activities" DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW WHEN ((OLD.code = 'A7' OR NEW.code = 'A7') AND (OLD.podaci IS DISTINCT FROM NEW.podaci
    OR OLD.cluster_id IS DISTINCT FROM NEW.cluster_id OR OLD.code IS DISTINCT FROM NEW.code OR OLD.id IS DISTINCT FROM NEW.id))
  EXECUTE FUNCTION trasa_list_changed('ijo');
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "ijo_report_activities_del" AFTER DELETE ON "activities" DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW WHEN (OLD.code = 'A7') EXECUTE FUNCTION trasa_list_changed('ijo');
--> statement-breakpoint
-- clusters: the name (a new cluster's rows come with its A7, a removed one's go with it).
CREATE CONSTRAINT TRIGGER "ijo_report_clusters_upd" AFTER UPDATE ON "clusters" DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW WHEN (OLD.naziv IS DISTINCT FROM NEW.naziv OR OLD.id IS DISTINCT FROM NEW.id) EXECUTE FUNCTION trasa_list_changed('ijo');
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "ijo_report_groups_upd" AFTER UPDATE ON "groups" DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW WHEN (OLD.naziv IS DISTINCT FROM NEW.naziv OR OLD.type_id IS DISTINCT FROM NEW.type_id OR OLD.id IS DISTINCT FROM NEW.id)
  EXECUTE FUNCTION trasa_list_changed('ijo');
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "ijo_report_groups_del" AFTER DELETE ON "groups" DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW EXECUTE FUNCTION trasa_list_changed('ijo');
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "ijo_report_contracts_upd" AFTER UPDATE ON "contracts" DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW WHEN (OLD.naziv IS DISTINCT FROM NEW.naziv OR OLD.broj IS DISTINCT FROM NEW.broj OR OLD.id IS DISTINCT FROM NEW.id)
  EXECUTE FUNCTION trasa_list_changed('ijo');
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "ijo_report_contracts_del" AFTER DELETE ON "contracts" DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW EXECUTE FUNCTION trasa_list_changed('ijo');
--> statement-breakpoint
-- Every change of the links, the group types and the holders' codebook; every table emptied at once.
DO $$
DECLARE t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['contract_clusters', 'contract_groups', 'cluster_groups', 'group_types', 'ijo_holders'] LOOP
    EXECUTE format('CREATE CONSTRAINT TRIGGER %I AFTER INSERT OR UPDATE OR DELETE ON %I DEFERRABLE INITIALLY DEFERRED
      FOR EACH ROW EXECUTE FUNCTION trasa_list_changed(%L)', 'ijo_report_' || t, t, 'ijo');
  END LOOP;
  FOREACH t IN ARRAY ARRAY['activities', 'clusters', 'groups', 'contracts', 'contract_clusters', 'contract_groups', 'cluster_groups',
      'group_types', 'ijo_holders'] LOOP
    EXECUTE format('CREATE TRIGGER %I AFTER TRUNCATE ON %I FOR EACH STATEMENT EXECUTE FUNCTION trasa_list_changed(%L)',
      'ijo_report_truncate_' || t, t, 'ijo');
  END LOOP;
END $$;
--> statement-breakpoint
-- The catalogue as the summary comparison lists it: codes, order and names (a deadline or an instruction
-- edited moves nothing).
CREATE CONSTRAINT TRIGGER "list_catalogue_activity_catalogue" AFTER INSERT OR DELETE ON "activity_catalogue" DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW EXECUTE FUNCTION trasa_list_changed('catalogue');
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "list_catalogue_activity_catalogue_upd" AFTER UPDATE ON "activity_catalogue" DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW WHEN ((OLD.code, OLD.position, OLD.naziv) IS DISTINCT FROM (NEW.code, NEW.position, NEW.naziv))
  EXECUTE FUNCTION trasa_list_changed('catalogue');
--> statement-breakpoint
CREATE TRIGGER "list_catalogue_activity_catalogue_trunc" AFTER TRUNCATE ON "activity_catalogue"
  FOR EACH STATEMENT EXECUTE FUNCTION trasa_list_changed('catalogue');
--> statement-breakpoint
-- The snapshots: taken (the nightly job, a backfill), replaced, cleared.
CREATE CONSTRAINT TRIGGER "list_snapshots_report_snapshots" AFTER INSERT OR DELETE ON "report_snapshots" DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW EXECUTE FUNCTION trasa_list_changed('snapshots');
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "list_snapshots_report_snapshots_upd" AFTER UPDATE ON "report_snapshots" DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW WHEN (OLD.* IS DISTINCT FROM NEW.*) EXECUTE FUNCTION trasa_list_changed('snapshots');
--> statement-breakpoint
CREATE TRIGGER "list_snapshots_report_snapshots_trunc" AFTER TRUNCATE ON "report_snapshots"
  FOR EACH STATEMENT EXECUTE FUNCTION trasa_list_changed('snapshots');
