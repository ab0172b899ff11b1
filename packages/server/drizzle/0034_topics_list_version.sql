-- The topics' list keeps a limited scope's total by data version (issue 15 item 3; docs/decisions.md
-- "Search counts kept by data version"), as the comments' does with 0030's 'comments' version: GET /api/topic
-- without a filter answers the sum of the scope's clusters' kept numbers (0025's cluster_list_counts), and
-- summing an employee's 300 clusters was more than half of the page's statement. The server keeps that sum
-- (per scope) under this version and 0033's 'visibility' and sums again only when one has moved. The version
-- moves once per transaction, at commit (0020's trasa_list_changed), whenever a topic is inserted or
-- deleted (a removed cluster deletes its topics), or a topic's cluster, status, priority or kept search
-- copies change (what the list filters and searches by). Only triggers and one row: instant on any database.
INSERT INTO "report_cache_state" ("name") VALUES ('topics') ON CONFLICT DO NOTHING;
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "list_topics_topics" AFTER INSERT OR DELETE ON "topics" DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW EXECUTE FUNCTION trasa_list_changed('topics');
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "list_topics_topics_upd" AFTER UPDATE ON "topics" DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW WHEN ((OLD.cluster_id, OLD.status, OLD.prioritet, OLD.search_text, OLD.cluster_search)
    IS DISTINCT FROM (NEW.cluster_id, NEW.status, NEW.prioritet, NEW.search_text, NEW.cluster_search))
  EXECUTE FUNCTION trasa_list_changed('topics');
--> statement-breakpoint
-- Emptied at once (a restore's load, a test's reset): every total changes.
CREATE TRIGGER "list_topics_topics_trunc" AFTER TRUNCATE ON "topics"
  FOR EACH STATEMENT EXECUTE FUNCTION trasa_list_changed('topics');
