-- The clusters a limited scope sees, kept by data version (docs/decisions.md "The request's scope kept
-- by version"; issue 15 item 3). A Rukovodilac's or a Zaposleni's list worked out the ids of the
-- clusters their groups see (a UNION over cluster_groups and contract_clusters × contract_groups) inside
-- every list statement, once for the page and once for its count: about half of a topic or comment page's
-- SQL. The server keeps those ids per scope under this version and the groups' (read with the user on
-- every request, platform/auth.ts) and passes them as one array. The version moves once per transaction,
-- at commit (0020's trasa_list_changed), whenever a row that decides which clusters a group sees changes:
-- a cluster's responsible groups, a contract's clusters or a contract's groups (a deleted cluster or
-- contract takes its rows with it, which fires these too). Only triggers and one row: instant on any
-- database.
INSERT INTO "report_cache_state" ("name") VALUES ('visibility') ON CONFLICT DO NOTHING;
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "list_visibility_cluster_groups" AFTER INSERT OR UPDATE OR DELETE ON "cluster_groups" DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW EXECUTE FUNCTION trasa_list_changed('visibility');
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "list_visibility_contract_clusters" AFTER INSERT OR UPDATE OR DELETE ON "contract_clusters" DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW EXECUTE FUNCTION trasa_list_changed('visibility');
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "list_visibility_contract_groups" AFTER INSERT OR UPDATE OR DELETE ON "contract_groups" DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW EXECUTE FUNCTION trasa_list_changed('visibility');
