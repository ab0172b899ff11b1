-- The comments list at 100,000 comments (issue 15 item 3; docs/decisions.md "Comments"; bench case
-- `comments`). Written by hand like 0010–0015: the schema files do not declare these, so drizzle-kit
-- leaves them alone. IF NOT EXISTS: a bench database may have them from a trial run.
--
-- 1. A limited scope's page, newest first: the visible clusters' comments are read from
--    activity_comments_cluster_idx and sorted by time. With the time in the index the read is
--    index-only (a manager's 9,847 comments: a bitmap over 3,004 heap pages, 40 ms, before).
DROP INDEX IF EXISTS "activity_comments_cluster_idx";--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "activity_comments_cluster_idx" ON "activity_comments" USING btree ("cluster_id", "id") INCLUDE ("created_at");--> statement-breakpoint
-- 2. Sorted by text: the comment's first 600 characters (a comment may hold 5,000, more than a btree
--    entry takes), kept by PostgreSQL as a generated column and indexed in trasa_sr order with the id as
--    the tie-break, so a page is an index-only walk instead of sorting every comment's text (page 2,500:
--    0.8 s before). Comments equal in their first 600 characters keep the id order.
ALTER TABLE "activity_comments" ADD COLUMN IF NOT EXISTS "komentar_key" text GENERATED ALWAYS AS (left("komentar", 600)) STORED;--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "activity_comments_text_idx" ON "activity_comments" USING btree ("komentar_key" COLLATE trasa_sr, "id") INCLUDE ("cluster_id");
