-- The users' search keeps its counts by data version (docs/decisions.md "Search counts kept by data
-- version"; issue 15 item 3). GET /api/search/user counts every match up to 10,000 on each
-- page ('djordj': 3,828 of 50,000 users, a bitmap of the trigram index and a heap read of 2,146 pages,
-- about half the request's SQL); the server keeps the count of a search (the caller's scope and the
-- terms) under the 'users' version and counts again only when it moved. The version moves once per
-- transaction, at commit (0020's trasa_list_changed), whenever what the search's condition reads
-- changes: a user inserted or deleted, or a user's liveness, group, role or search text
-- (ime, prezime, email) changed. Only triggers and one row: instant on any database.
INSERT INTO "report_cache_state" ("name") VALUES ('users') ON CONFLICT DO NOTHING;
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "list_users_users" AFTER INSERT OR DELETE ON "users" DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW EXECUTE FUNCTION trasa_list_changed('users');
--> statement-breakpoint
-- A token version, a password, the saved tables, the script, a status or the kept sort keys move nothing.
CREATE CONSTRAINT TRIGGER "list_users_users_upd" AFTER UPDATE ON "users" DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW WHEN ((OLD.deleted_at, OLD.group_id, OLD.role_id, OLD.search_text)
    IS DISTINCT FROM (NEW.deleted_at, NEW.group_id, NEW.role_id, NEW.search_text))
  EXECUTE FUNCTION trasa_list_changed('users');
