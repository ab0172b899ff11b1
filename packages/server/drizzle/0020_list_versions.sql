-- Whole lists kept by data version (docs/decisions.md "Pickers: whole lists kept by data version").
-- The pickers' calls (GET /api/location?limit=1000, GET /api/group?limit=50000) and the A13 screen's
-- GET /api/a13/get-all build the whole visible list on every dialog or screen opened: 1,000 clusters with their groups and contracts (1.1 MB, ~90 ms of
-- PostgreSQL) or 1,000 groups (440 KB). The server keeps such an answer (platform/answerCache.ts) under a
-- key that holds the version of the data it was built from, read from report_cache_state on every
-- request: any change a list is built from moves its version once per transaction, at commit (deferred
-- constraint triggers, as 0018's for the IJO rows), so no instance ever answers from older data.
INSERT INTO "report_cache_state" ("name") VALUES ('locations'), ('groups'), ('a13') ON CONFLICT DO NOTHING;
--> statement-breakpoint
-- Bumps the version of the list named by the trigger's argument, once per transaction.
CREATE OR REPLACE FUNCTION trasa_list_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  list text := TG_ARGV[0];
BEGIN
  IF current_setting('trasa.changed_' || list, true) IS DISTINCT FROM txid_current()::text THEN
    UPDATE report_cache_state SET version = version + 1 WHERE name = list;
    PERFORM set_config('trasa.changed_' || list, txid_current()::text, true);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- An update that writes the same values (a lock taken as an update, a form saved unchanged) moves nothing.
-- The cluster list (locationListJsonSql and its counts): every column of a cluster (the stored status
-- follows its activities through 0017's triggers), its groups and contracts, those groups' names, types
-- and tree (visibility), the contracts' names, numbers and dates (the colour).
CREATE CONSTRAINT TRIGGER "list_locations_clusters" AFTER INSERT OR DELETE ON "clusters" DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW EXECUTE FUNCTION trasa_list_changed('locations');
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "list_locations_clusters_upd" AFTER UPDATE ON "clusters" DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW WHEN (OLD.* IS DISTINCT FROM NEW.*) EXECUTE FUNCTION trasa_list_changed('locations');
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "list_locations_cluster_groups" AFTER INSERT OR UPDATE OR DELETE ON "cluster_groups" DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW EXECUTE FUNCTION trasa_list_changed('locations');
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "list_locations_contract_clusters" AFTER INSERT OR UPDATE OR DELETE ON "contract_clusters" DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW EXECUTE FUNCTION trasa_list_changed('locations');
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "list_locations_contracts" AFTER INSERT OR UPDATE OR DELETE ON "contracts" DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW EXECUTE FUNCTION trasa_list_changed('locations');
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "list_locations_groups" AFTER INSERT OR DELETE ON "groups" DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW EXECUTE FUNCTION trasa_list_changed('locations');
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "list_locations_groups_upd" AFTER UPDATE ON "groups" DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW WHEN (OLD.* IS DISTINCT FROM NEW.*) EXECUTE FUNCTION trasa_list_changed('locations');
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "list_locations_group_types" AFTER INSERT OR UPDATE OR DELETE ON "group_types" DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW EXECUTE FUNCTION trasa_list_changed('locations');
--> statement-breakpoint
-- The groups list (groupsPageJson): the groups (their member count is kept on them) and their types.
CREATE CONSTRAINT TRIGGER "list_groups_groups" AFTER INSERT OR DELETE ON "groups" DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW EXECUTE FUNCTION trasa_list_changed('groups');
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "list_groups_groups_upd" AFTER UPDATE ON "groups" DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW WHEN (OLD.* IS DISTINCT FROM NEW.*) EXECUTE FUNCTION trasa_list_changed('groups');
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "list_groups_group_types" AFTER INSERT OR UPDATE OR DELETE ON "group_types" DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW EXECUTE FUNCTION trasa_list_changed('groups');
--> statement-breakpoint
-- The A13 confirmations (GET /api/a13/get-all: the clusters' names and visibility by 'locations', the
-- confirmations by 'a13').
CREATE CONSTRAINT TRIGGER "list_a13_confirmations" AFTER INSERT OR UPDATE OR DELETE ON "a13_confirmations" DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW EXECUTE FUNCTION trasa_list_changed('a13');
