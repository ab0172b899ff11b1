-- Versions no kept value reads any more (docs/performance.md "Each kept kind with and without"): the
-- contracts' whole lists (0027's 'contracts') and the topics' counts (0034's 'topics') are computed on
-- every request, so the triggers that moved those versions and their rows go. platform/kept/versionTriggers.test.ts fails while a trigger moves a version no
-- kind declares. Only triggers and a row: instant on any database.
DROP TRIGGER IF EXISTS "list_contracts_contracts" ON "contracts";
--> statement-breakpoint
DROP TRIGGER IF EXISTS "list_contracts_contracts_upd" ON "contracts";
--> statement-breakpoint
DROP TRIGGER IF EXISTS "list_contracts_contract_files" ON "contract_files";
--> statement-breakpoint
DROP TRIGGER IF EXISTS "list_contracts_contract_groups" ON "contract_groups";
--> statement-breakpoint
DROP TRIGGER IF EXISTS "list_contracts_contract_clusters" ON "contract_clusters";
--> statement-breakpoint
DROP TRIGGER IF EXISTS "list_contracts_groups" ON "groups";
--> statement-breakpoint
DROP TRIGGER IF EXISTS "list_contracts_groups_upd" ON "groups";
--> statement-breakpoint
DROP TRIGGER IF EXISTS "list_contracts_group_types" ON "group_types";
--> statement-breakpoint
DROP TRIGGER IF EXISTS "list_topics_topics" ON "topics";
--> statement-breakpoint
DROP TRIGGER IF EXISTS "list_topics_topics_upd" ON "topics";
--> statement-breakpoint
DROP TRIGGER IF EXISTS "list_topics_topics_trunc" ON "topics";
--> statement-breakpoint
DELETE FROM "report_cache_state" WHERE "name" IN ('contracts', 'topics');
