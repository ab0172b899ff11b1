-- The comments' search keeps its counts by data version (docs/decisions.md "Search counts kept by
-- data version"; issue 15 item 3). GET /api/search/comment counts every match up to 10,000 on each page ('kabl':
-- 10,001 comments rechecked, about 60 ms of PostgreSQL against 0.3 ms for the page itself); the server keeps
-- the count of a search (the caller's scope and the terms) under the 'comments' version (and, for a caller
-- who sees only some clusters, the 'locations' version of 0020, which moves with the clusters' groups and
-- the group tree) and counts again only when one has moved. The version moves once per transaction, at
-- commit (0020's trasa_list_changed), whenever what the search's condition reads changes: a comment
-- inserted or deleted (a cluster or activity removed deletes its comments), or a comment's cluster, text
-- or kept search copies (author_search, cluster_search, activity_search: rewritten by 0024's triggers when
-- an author, a cluster or a catalogue entry is renamed). Only triggers and one row: instant on any database.
INSERT INTO "report_cache_state" ("name") VALUES ('comments') ON CONFLICT DO NOTHING;
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "list_comments_comments" AFTER INSERT OR DELETE ON "activity_comments" DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW EXECUTE FUNCTION trasa_list_changed('comments');
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "list_comments_comments_upd" AFTER UPDATE ON "activity_comments" DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW WHEN ((OLD.cluster_id, OLD.search_text, OLD.author_search, OLD.cluster_search, OLD.activity_search)
    IS DISTINCT FROM (NEW.cluster_id, NEW.search_text, NEW.author_search, NEW.cluster_search, NEW.activity_search))
  EXECUTE FUNCTION trasa_list_changed('comments');
--> statement-breakpoint
-- Emptied at once (a restore's load, a test's reset): the count of every search changes.
CREATE TRIGGER "list_comments_comments_trunc" AFTER TRUNCATE ON "activity_comments"
  FOR EACH STATEMENT EXECUTE FUNCTION trasa_list_changed('comments');
