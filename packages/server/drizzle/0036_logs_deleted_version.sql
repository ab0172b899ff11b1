-- The log search's kept positions of a frequent text's matches (issue 15 item 3; docs/decisions.md "A
-- frequent text's deep pages in the log"): the server keeps every n-th match of a search older than a
-- cutoff and walks from the nearest one to a deep page, and counts the rows newer than the cutoff on every
-- request. New rows never move what was kept (they are newer than the cutoff); a row removed does, so
-- this version moves once per transaction, at commit (0020's trasa_list_changed), whenever log rows are
-- deleted (the Admin's DELETE /api/log), changed, or the table is emptied. Inserts move nothing: a version
-- moved by every audited request would keep nothing. Only triggers and one row: instant on any database.
INSERT INTO "report_cache_state" ("name") VALUES ('logs') ON CONFLICT DO NOTHING;
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "list_logs_audit_logs" AFTER DELETE OR UPDATE ON "audit_logs" DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW EXECUTE FUNCTION trasa_list_changed('logs');
--> statement-breakpoint
CREATE TRIGGER "list_logs_audit_logs_trunc" AFTER TRUNCATE ON "audit_logs"
  FOR EACH STATEMENT EXECUTE FUNCTION trasa_list_changed('logs');
