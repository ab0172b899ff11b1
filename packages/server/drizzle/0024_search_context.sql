-- The comment and topic searches at production scale (issue 15 item 3; docs/decisions.md "Searches of
-- comments and topics: the context kept on the row"). Written by hand like 0013–0019: the schema files do
-- not declare these columns, so drizzle-kit leaves them alone. IF NOT EXISTS / IS DISTINCT FROM: a bench
-- database may have them from a trial run, and running this twice changes nothing.
--
-- A comment matches a search by its own text, its author's name or e-mail, its cluster's name, or its
-- activity's code and name. The last three were arrays of ids handed to the comments (the activities of
-- the matching catalogue entries: 3,000 ids for 'kabl'), which PostgreSQL compares one element at a time
-- for every comment it rechecks (18 ms of the search's count). Each comment now carries those texts,
-- folded as the search folds them (trasa_fold, the same expressions as users.search_text,
-- clusters.search_text and the catalogue's arm), so every arm is a trigram index condition on the
-- comment's own row. A topic carries its cluster's folded name likewise: its search's `cluster_id in
-- (matching clusters)` was estimated at half the topics and read them all.
ALTER TABLE "activity_comments" ADD COLUMN IF NOT EXISTS "author_search" text;--> statement-breakpoint
ALTER TABLE "activity_comments" ADD COLUMN IF NOT EXISTS "cluster_search" text;--> statement-breakpoint
ALTER TABLE "activity_comments" ADD COLUMN IF NOT EXISTS "activity_search" text;--> statement-breakpoint
ALTER TABLE "topics" ADD COLUMN IF NOT EXISTS "cluster_search" text;--> statement-breakpoint
UPDATE "activity_comments" ac SET "author_search" = x."author_search", "cluster_search" = x."cluster_search", "activity_search" = x."activity_search"
  FROM (SELECT m."id", trasa_fold(u."ime" || ' ' || u."prezime" || ' ' || u."email") AS "author_search",
          trasa_fold(c."naziv") AS "cluster_search", trasa_fold(k."code" || ' ' || k."naziv") AS "activity_search"
        FROM "activity_comments" m JOIN "activities" a ON a."id" = m."activity_id" JOIN "clusters" c ON c."id" = a."cluster_id"
          JOIN "activity_catalogue" k ON k."code" = a."code" LEFT JOIN "users" u ON u."id" = m."user_id") x
  WHERE x."id" = ac."id"
    AND (ac."author_search" IS DISTINCT FROM x."author_search" OR ac."cluster_search" IS DISTINCT FROM x."cluster_search"
      OR ac."activity_search" IS DISTINCT FROM x."activity_search");--> statement-breakpoint
UPDATE "topics" t SET "cluster_search" = trasa_fold(c."naziv") FROM "clusters" c
  WHERE c."id" = t."cluster_id" AND t."cluster_search" IS DISTINCT FROM trasa_fold(c."naziv");--> statement-breakpoint
--
-- Set on insert (a value already given is kept: a restore loads tables in any order) and when the comment's
-- author or activity changes; null without an author.
CREATE OR REPLACE FUNCTION trasa_comment_search() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' OR NEW.author_search IS NULL THEN
    NEW.author_search := (SELECT trasa_fold(u.ime || ' ' || u.prezime || ' ' || u.email) FROM users u WHERE u.id = NEW.user_id);
  END IF;
  IF TG_OP = 'UPDATE' OR NEW.cluster_search IS NULL OR NEW.activity_search IS NULL THEN
    SELECT trasa_fold(c.naziv), trasa_fold(k.code || ' ' || k.naziv) INTO NEW.cluster_search, NEW.activity_search
      FROM activities a JOIN clusters c ON c.id = a.cluster_id JOIN activity_catalogue k ON k.code = a.code
      WHERE a.id = NEW.activity_id;
  END IF;
  RETURN NEW;
END
$$;--> statement-breakpoint
DROP TRIGGER IF EXISTS "activity_comments_search" ON "activity_comments";--> statement-breakpoint
CREATE TRIGGER "activity_comments_search" BEFORE INSERT OR UPDATE OF "user_id", "activity_id" ON "activity_comments"
  FOR EACH ROW EXECUTE FUNCTION trasa_comment_search();--> statement-breakpoint
CREATE OR REPLACE FUNCTION trasa_topic_search() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' OR NEW.cluster_search IS NULL THEN
    NEW.cluster_search := (SELECT trasa_fold(c.naziv) FROM clusters c WHERE c.id = NEW.cluster_id);
  END IF;
  RETURN NEW;
END
$$;--> statement-breakpoint
DROP TRIGGER IF EXISTS "topics_search" ON "topics";--> statement-breakpoint
CREATE TRIGGER "topics_search" BEFORE INSERT OR UPDATE OF "cluster_id" ON "topics"
  FOR EACH ROW EXECUTE FUNCTION trasa_topic_search();--> statement-breakpoint
--
-- Followed when the texts change: a user renamed or anonymised (their comments), a cluster renamed (its
-- comments and topics), a catalogue entry renamed (the comments on its activities: about one in 36), an
-- activity moved to another cluster or code.
CREATE OR REPLACE FUNCTION trasa_user_renamed_search() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE activity_comments SET author_search = trasa_fold(NEW.ime || ' ' || NEW.prezime || ' ' || NEW.email)
  WHERE user_id = NEW.id AND author_search IS DISTINCT FROM trasa_fold(NEW.ime || ' ' || NEW.prezime || ' ' || NEW.email);
  RETURN NULL;
END
$$;--> statement-breakpoint
DROP TRIGGER IF EXISTS "users_renamed_search" ON "users";--> statement-breakpoint
CREATE TRIGGER "users_renamed_search" AFTER UPDATE OF "ime", "prezime", "email" ON "users"
  FOR EACH ROW WHEN (OLD.ime IS DISTINCT FROM NEW.ime OR OLD.prezime IS DISTINCT FROM NEW.prezime OR OLD.email IS DISTINCT FROM NEW.email)
  EXECUTE FUNCTION trasa_user_renamed_search();--> statement-breakpoint
CREATE OR REPLACE FUNCTION trasa_cluster_renamed_search() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE activity_comments SET cluster_search = trasa_fold(NEW.naziv)
  WHERE activity_id IN (SELECT a.id FROM activities a WHERE a.cluster_id = NEW.id) AND cluster_search IS DISTINCT FROM trasa_fold(NEW.naziv);
  UPDATE topics SET cluster_search = trasa_fold(NEW.naziv) WHERE cluster_id = NEW.id AND cluster_search IS DISTINCT FROM trasa_fold(NEW.naziv);
  RETURN NULL;
END
$$;--> statement-breakpoint
DROP TRIGGER IF EXISTS "clusters_renamed_search" ON "clusters";--> statement-breakpoint
CREATE TRIGGER "clusters_renamed_search" AFTER UPDATE OF "naziv" ON "clusters"
  FOR EACH ROW WHEN (OLD.naziv IS DISTINCT FROM NEW.naziv) EXECUTE FUNCTION trasa_cluster_renamed_search();--> statement-breakpoint
CREATE OR REPLACE FUNCTION trasa_catalogue_renamed_search() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE activity_comments SET activity_search = trasa_fold(NEW.code || ' ' || NEW.naziv)
  WHERE activity_id IN (SELECT a.id FROM activities a WHERE a.code = NEW.code)
    AND activity_search IS DISTINCT FROM trasa_fold(NEW.code || ' ' || NEW.naziv);
  RETURN NULL;
END
$$;--> statement-breakpoint
DROP TRIGGER IF EXISTS "activity_catalogue_renamed_search" ON "activity_catalogue";--> statement-breakpoint
CREATE TRIGGER "activity_catalogue_renamed_search" AFTER UPDATE OF "code", "naziv" ON "activity_catalogue"
  FOR EACH ROW WHEN (OLD.code IS DISTINCT FROM NEW.code OR OLD.naziv IS DISTINCT FROM NEW.naziv)
  EXECUTE FUNCTION trasa_catalogue_renamed_search();--> statement-breakpoint
CREATE OR REPLACE FUNCTION trasa_activity_moved_search() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE activity_comments ac SET cluster_search = trasa_fold(c.naziv), activity_search = trasa_fold(k.code || ' ' || k.naziv)
  FROM clusters c, activity_catalogue k
  WHERE ac.activity_id = NEW.id AND c.id = NEW.cluster_id AND k.code = NEW.code;
  RETURN NULL;
END
$$;--> statement-breakpoint
DROP TRIGGER IF EXISTS "activities_moved_search" ON "activities";--> statement-breakpoint
CREATE TRIGGER "activities_moved_search" AFTER UPDATE OF "cluster_id", "code" ON "activities"
  FOR EACH ROW WHEN (OLD.cluster_id IS DISTINCT FROM NEW.cluster_id OR OLD.code IS DISTINCT FROM NEW.code)
  EXECUTE FUNCTION trasa_activity_moved_search();--> statement-breakpoint
--
-- One trigram index over the three kept texts (a search ORs one condition per column: three scans of it),
-- and one over the topic's cluster name.
CREATE INDEX IF NOT EXISTS "activity_comments_context_search_idx" ON "activity_comments"
  USING gin ("author_search" gin_trgm_ops, "cluster_search" gin_trgm_ops, "activity_search" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "topics_cluster_search_idx" ON "topics" USING gin ("cluster_search" gin_trgm_ops);--> statement-breakpoint
--
-- The topics of a limited scope (`cluster_id = any(the visible clusters)`): each cluster's topics in the
-- list's time order, with what the list filters by, so the page and the count of an employee's 300
-- clusters read their 2,000 topics from the index alone instead of filtering all 20,000.
CREATE INDEX IF NOT EXISTS "topics_cluster_list_idx" ON "topics" USING btree ("cluster_id", "updated_at", "id") INCLUDE ("status", "prioritet");--> statement-breakpoint
ANALYZE "activity_comments";--> statement-breakpoint
ANALYZE "topics";
