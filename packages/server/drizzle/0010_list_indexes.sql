-- Lists at production scale (issue 15; figures in docs/performance.md). Written by hand: the schema
-- files do not declare these (like the INCLUDE of 0006/0007), so drizzle-kit leaves them alone.
--
-- Users in the order of the lists (prezime, ime in trasa_sr, then id), live users only, carrying what
-- the lists filter and search by: page 1 and page 2,500 are an index-only walk (the deferred join of
-- features/users/service.ts pageOfUsers) instead of a sort of every user, and a search's first pages
-- stop after a few hundred entries instead of sorting every match (ICU comparisons are dear).
CREATE INDEX "users_list_order_idx" ON "users" USING btree ("prezime" COLLATE trasa_sr, "ime" COLLATE trasa_sr, "id")
  INCLUDE ("group_id", "role_id", "search_text") WHERE "deleted_at" IS NULL;--> statement-breakpoint
-- Member counts of the groups lists (one grouped count, features/groups/presenter.ts withCounts) from
-- the index alone.
CREATE INDEX "users_live_group_idx" ON "users" USING btree ("group_id") WHERE "deleted_at" IS NULL;--> statement-breakpoint
-- Topic search: the folded description stored once (trasa_fold per row on every search was the cost),
-- with a trigram index; the cluster's name is matched through clusters_search_idx.
ALTER TABLE "topics" ADD COLUMN "search_text" text GENERATED ALWAYS AS (trasa_fold("opis")) STORED;--> statement-breakpoint
CREATE INDEX "topics_search_idx" ON "topics" USING gin ("search_text" gin_trgm_ops);--> statement-breakpoint
-- The topics list (newest change first) with what its filters read: deep pages without the table.
CREATE INDEX "topics_list_order_idx" ON "topics" USING btree ("updated_at", "id") INCLUDE ("cluster_id", "status", "prioritet");--> statement-breakpoint
-- Settlements, clusters and groups in the lists' trasa_sr order.
CREATE INDEX "settlements_order_idx" ON "settlements" USING btree ("naziv" COLLATE trasa_sr, "id");--> statement-breakpoint
CREATE INDEX "clusters_order_idx" ON "clusters" USING btree ("naziv" COLLATE trasa_sr, "id");--> statement-breakpoint
CREATE INDEX "groups_order_idx" ON "groups" USING btree ("naziv" COLLATE trasa_sr, "id") WHERE NOT "reserved";--> statement-breakpoint
-- The status of a page of clusters (features/clusters/presenter.ts withStatus: one grouped count per
-- page, limit=1000 for the pickers) from the index alone.
CREATE INDEX "activities_cluster_status_idx" ON "activities" USING btree ("cluster_id") INCLUDE ("status", "datum_zavrsetka");
