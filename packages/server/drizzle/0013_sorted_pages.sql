-- Deep pages of the lists sorted by a chosen column (issue 15 item 3; LIST_SORTS, figures in
-- docs/performance.md). Written by hand like 0010 and 0012: the schema files do not declare these, so
-- drizzle-kit leaves them alone. IF NOT EXISTS: a bench database may have them from a trial run.
--
-- Users in each sort order of the users lists (features/users/service.ts USER_SORTS), the id as the
-- tie-breaker, carrying what the lists filter by (group, role): page 2,500 is an index-only walk of
-- 25,000 entries instead of a sort of every user in trasa_sr (ICU comparisons are dear). The author's
-- name and e-mail orders cover every user, deleted ones too: the comments list walks them (an author's
-- comments stay after the account is deleted); the name's order index includes ime and prezime, without
-- which PostgreSQL does not read an expression index alone.
CREATE INDEX IF NOT EXISTS "users_ime_order_idx" ON "users" USING btree ("ime" COLLATE trasa_sr, "id")
  INCLUDE ("group_id", "role_id") WHERE "deleted_at" IS NULL;--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "users_prezime_order_idx" ON "users" USING btree ("prezime" COLLATE trasa_sr, "id")
  INCLUDE ("group_id", "role_id") WHERE "deleted_at" IS NULL;--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "users_ime_prezime_order_idx" ON "users" USING btree ((("ime" || ' ' || "prezime")) COLLATE trasa_sr, "id")
  INCLUDE ("group_id", "role_id", "deleted_at", "ime", "prezime");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "users_email_order_idx" ON "users" USING btree ("email" COLLATE trasa_sr, "id")
  INCLUDE ("group_id", "role_id", "deleted_at");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "users_status_order_idx" ON "users" USING btree ("status", "id")
  INCLUDE ("group_id", "role_id") WHERE "deleted_at" IS NULL;--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "users_confirmed_order_idx" ON "users" USING btree ("email_potvrdjen", "id")
  INCLUDE ("group_id", "role_id") WHERE "deleted_at" IS NULL;--> statement-breakpoint
-- Sorted by group or role: the groups walked in name order (every group: a user's group may be the
-- reserved one) and each group's members read in id order from this index, or each role's members.
-- users_group_order_idx replaces users_live_group_idx (0010): the groups' member counts read it the same way.
CREATE INDEX IF NOT EXISTS "users_group_order_idx" ON "users" USING btree ("group_id", "id")
  INCLUDE ("role_id") WHERE "deleted_at" IS NULL;--> statement-breakpoint
DROP INDEX IF EXISTS "users_live_group_idx";--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "users_role_order_idx" ON "users" USING btree ("role_id", "id")
  INCLUDE ("group_id") WHERE "deleted_at" IS NULL;--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "groups_name_idx" ON "groups" USING btree ("naziv" COLLATE trasa_sr, "id");--> statement-breakpoint
--
-- Activity comments carry their activity's cluster and catalogue position (kept by triggers: set on
-- insert from the activity, followed if an activity ever moves or the catalogue's order changes), so
-- that the comments of a cluster are one index range: the list sorted by cluster walks the clusters in
-- name order and reads each one's comments from activity_comments_cluster_idx, sorted by activity it
-- walks activity_comments_position_idx, and a limited scope's condition (the visible clusters) is an
-- index condition, its count an index-only walk, instead of going through every visible activity. A
-- value already given (a restore loads rows in any order, activities maybe after their comments) is kept.
ALTER TABLE "activity_comments" ADD COLUMN IF NOT EXISTS "cluster_id" uuid;--> statement-breakpoint
ALTER TABLE "activity_comments" ADD COLUMN IF NOT EXISTS "activity_position" integer;--> statement-breakpoint
UPDATE "activity_comments" ac SET "cluster_id" = a."cluster_id", "activity_position" = a."position" FROM "activities" a
  WHERE a."id" = ac."activity_id"
    AND (ac."cluster_id" IS DISTINCT FROM a."cluster_id" OR ac."activity_position" IS DISTINCT FROM a."position");--> statement-breakpoint
CREATE OR REPLACE FUNCTION trasa_comment_activity() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.cluster_id IS NULL OR NEW.activity_position IS NULL
     OR (TG_OP = 'UPDATE' AND NEW.activity_id IS DISTINCT FROM OLD.activity_id) THEN
    SELECT a.cluster_id, a.position INTO NEW.cluster_id, NEW.activity_position FROM activities a WHERE a.id = NEW.activity_id;
  END IF;
  RETURN NEW;
END
$$;--> statement-breakpoint
DROP TRIGGER IF EXISTS "activity_comments_activity" ON "activity_comments";--> statement-breakpoint
CREATE TRIGGER "activity_comments_activity" BEFORE INSERT OR UPDATE OF "activity_id" ON "activity_comments"
  FOR EACH ROW EXECUTE FUNCTION trasa_comment_activity();--> statement-breakpoint
CREATE OR REPLACE FUNCTION trasa_activity_moved() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE activity_comments SET cluster_id = NEW.cluster_id, activity_position = NEW.position WHERE activity_id = NEW.id;
  RETURN NULL;
END
$$;--> statement-breakpoint
DROP TRIGGER IF EXISTS "activities_moved" ON "activities";--> statement-breakpoint
CREATE TRIGGER "activities_moved" AFTER UPDATE OF "cluster_id", "position" ON "activities"
  FOR EACH ROW WHEN (OLD.cluster_id IS DISTINCT FROM NEW.cluster_id OR OLD.position IS DISTINCT FROM NEW.position)
  EXECUTE FUNCTION trasa_activity_moved();--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "activity_comments_cluster_idx" ON "activity_comments" USING btree ("cluster_id", "id");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "activity_comments_position_idx" ON "activity_comments" USING btree ("activity_position", "id")
  INCLUDE ("cluster_id");--> statement-breakpoint
-- Sorted by author (name or e-mail): the users walked in that order, each one's comments in id order.
-- Replaces activity_comments_user_idx (0012): the search's author arm and a deleted user's SET NULL use it too.
CREATE INDEX IF NOT EXISTS "activity_comments_author_idx" ON "activity_comments" USING btree ("user_id", "id") INCLUDE ("cluster_id");--> statement-breakpoint
DROP INDEX IF EXISTS "activity_comments_user_idx";--> statement-breakpoint
-- Topics sorted by cluster: the clusters walked in name order, each one's topics in id order, with what
-- the list filters by.
CREATE INDEX IF NOT EXISTS "topics_cluster_order_idx" ON "topics" USING btree ("cluster_id", "id") INCLUDE ("status", "prioritet");--> statement-breakpoint
ANALYZE "users";--> statement-breakpoint
ANALYZE "activity_comments";--> statement-breakpoint
ANALYZE "topics";
