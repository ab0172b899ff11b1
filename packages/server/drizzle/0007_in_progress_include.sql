-- The in-progress index carries the cluster and the code, so notifications and the Admin's in-progress
-- list read a page from the index alone (docs/api/notifications.md). drizzle has no INCLUDE: by hand.
DROP INDEX IF EXISTS "activities_in_progress_idx";--> statement-breakpoint
CREATE INDEX "activities_in_progress_idx" ON "activities" USING btree ("rok_zavrsetka","id") INCLUDE ("cluster_id","code") WHERE status = 'U toku';
