-- The slow queries at production scale (issue 9's speed lines, issue 15 items 3–4; figures in
-- docs/performance.md). Written by hand like 0010: the schema files do not declare these, so drizzle-kit
-- leaves them alone. IF NOT EXISTS: a bench database may have them from a trial run.
--
-- The activity comments list (features/commentsList/service.ts): newest first, the page's ids walked
-- from the index alone (activity_id for the visibility condition), and the search's author arm
-- (user_id = any(…)) as an index condition ORed with the trigram index's bitmap.
CREATE INDEX IF NOT EXISTS "activity_comments_order_idx" ON "activity_comments" USING btree ("created_at", "id") INCLUDE ("activity_id");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "activity_comments_user_idx" ON "activity_comments" USING btree ("user_id");
