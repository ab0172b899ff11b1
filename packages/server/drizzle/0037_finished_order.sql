-- The report hub's progress charts (GET /api/report/progress; docs/decisions.md "The progress report at
-- 3,000 clusters"): each visible cluster's furthest finished activity in catalogue order, one key lookup
-- per cluster (index-only, the first entry) instead of reading and sorting its 36 activities (the Admin's
-- 3,000 clusters: 85 ms). Written by hand: drizzle's index builder has no INCLUDE.
CREATE INDEX IF NOT EXISTS "activities_finished_order_idx" ON "activities" USING btree ("cluster_id", "position" DESC) INCLUDE ("code") WHERE status = 'Završena';
