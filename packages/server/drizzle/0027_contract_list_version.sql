-- The contracts' whole lists kept by data version (docs/decisions.md "Pickers: whole lists kept by data
-- version"; issue 15 items 3–4). The pickers ask GET /api/contract?page=1&limit=1000 (the
-- cluster form's and the in-progress filter's general contracts) and the typed lists at limit 1000 on
-- every dialog opened; the answer is kept (platform/answerCache.ts) under the 'contracts' version, moved
-- once per transaction at commit by 0020's trasa_list_changed on every table the list rows are built
-- from (contracts/presenter.ts selectContractRows and readableContractCondition): the contracts, their
-- documents, groups and linked clusters (counted), the groups' names, types and tree (visibility), the
-- types' names and codes. Only triggers and one row: instant on any database.
INSERT INTO "report_cache_state" ("name") VALUES ('contracts') ON CONFLICT DO NOTHING;
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "list_contracts_contracts" AFTER INSERT OR DELETE ON "contracts" DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW EXECUTE FUNCTION trasa_list_changed('contracts');
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "list_contracts_contracts_upd" AFTER UPDATE ON "contracts" DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW WHEN (OLD.* IS DISTINCT FROM NEW.*) EXECUTE FUNCTION trasa_list_changed('contracts');
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "list_contracts_contract_files" AFTER INSERT OR UPDATE OR DELETE ON "contract_files" DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW EXECUTE FUNCTION trasa_list_changed('contracts');
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "list_contracts_contract_groups" AFTER INSERT OR UPDATE OR DELETE ON "contract_groups" DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW EXECUTE FUNCTION trasa_list_changed('contracts');
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "list_contracts_contract_clusters" AFTER INSERT OR UPDATE OR DELETE ON "contract_clusters" DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW EXECUTE FUNCTION trasa_list_changed('contracts');
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "list_contracts_groups" AFTER INSERT OR DELETE ON "groups" DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW EXECUTE FUNCTION trasa_list_changed('contracts');
--> statement-breakpoint
-- Only what the contract rows show or their visibility reads: a member joining a group (its kept
-- member_count) leaves the contracts' lists alone.
CREATE CONSTRAINT TRIGGER "list_contracts_groups_upd" AFTER UPDATE ON "groups" DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW WHEN ((OLD.naziv, OLD.type_id, OLD.parent_id, OLD.sve_videci, OLD.reserved)
    IS DISTINCT FROM (NEW.naziv, NEW.type_id, NEW.parent_id, NEW.sve_videci, NEW.reserved))
  EXECUTE FUNCTION trasa_list_changed('contracts');
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "list_contracts_group_types" AFTER INSERT OR UPDATE OR DELETE ON "group_types" DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW EXECUTE FUNCTION trasa_list_changed('contracts');
