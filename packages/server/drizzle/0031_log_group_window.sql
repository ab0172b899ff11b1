-- A scope's log search reads its window from the index alone (docs/decisions.md "A scope's log search:
-- the window from the index"; issue 15 item 3). A Rukovodilac's or a Zaposleni's search first walks the
-- newest rows of each of their groups (one range of this index per group, merged) and keeps those whose
-- search_text holds the text: 'cacak' in a Rukovodilac's ten groups reads ~1,400 rows for its page of 10,
-- each a heap fetch for its search_text (2.0 ms of PostgreSQL; 0.8–1.0 ms with search_text in the index,
-- an index-only scan). The index grows from 55 to 215 MB at 1,000,000 rows; the Admin's window (the whole
-- table, audit_logs_created_id_idx) is left as it is. Built once, in a few seconds per million rows.
DROP INDEX IF EXISTS "audit_logs_group_created_idx";
--> statement-breakpoint
CREATE INDEX "audit_logs_group_created_idx" ON "audit_logs" USING btree ("group_id","created_at","id") INCLUDE ("search_text");
