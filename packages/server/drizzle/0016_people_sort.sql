-- The users lists sorted by group or by role as one index walk (issue 15 item 3; docs/decisions.md
-- "Users by group and role: kept sort keys"). Written by hand like 0010–0013: the schema files do not
-- declare these columns, triggers and indexes, so drizzle-kit leaves them alone. IF NOT EXISTS / OR
-- REPLACE: a bench database may have them from a trial run.
--
-- Each user carries their group's name and their role's name (sort_group, sort_role), kept by triggers:
-- set when a user is inserted or moves to another group or role, followed when a group or a role is
-- renamed (or inserted: a restore loads rows in any order, a user maybe before their group). A value
-- already given on insert (a restore) is kept. The keys are only ever read for ORDER BY; the answers
-- still read the names from groups and roles.
ALTER TABLE "users" ADD COLUMN IF NOT EXISTS "sort_group" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN IF NOT EXISTS "sort_role" text;--> statement-breakpoint
-- One pass over the users (each update rewrites the row and its index entries: 50,000 users took 35 s
-- per pass on the bench database under load), only the rows whose keys differ (a second run changes nothing).
UPDATE "users" u SET
    "sort_group" = (SELECT g."naziv" FROM "groups" g WHERE g."id" = u."group_id"),
    "sort_role" = (SELECT r."ime_role" FROM "roles" r WHERE r."id" = u."role_id")
  WHERE u."sort_group" IS DISTINCT FROM (SELECT g."naziv" FROM "groups" g WHERE g."id" = u."group_id")
     OR u."sort_role" IS DISTINCT FROM (SELECT r."ime_role" FROM "roles" r WHERE r."id" = u."role_id");--> statement-breakpoint
CREATE OR REPLACE FUNCTION trasa_user_sort_keys() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.group_id IS NULL THEN
    NEW.sort_group := NULL;
  ELSIF (TG_OP = 'INSERT' AND NEW.sort_group IS NULL)
     OR (TG_OP = 'UPDATE' AND NEW.group_id IS DISTINCT FROM OLD.group_id) THEN
    SELECT g.naziv INTO NEW.sort_group FROM groups g WHERE g.id = NEW.group_id;
  END IF;
  IF (TG_OP = 'INSERT' AND NEW.sort_role IS NULL)
     OR (TG_OP = 'UPDATE' AND NEW.role_id IS DISTINCT FROM OLD.role_id) THEN
    SELECT r.ime_role INTO NEW.sort_role FROM roles r WHERE r.id = NEW.role_id;
  END IF;
  RETURN NEW;
END
$$;--> statement-breakpoint
DROP TRIGGER IF EXISTS "users_sort_keys" ON "users";--> statement-breakpoint
CREATE TRIGGER "users_sort_keys" BEFORE INSERT OR UPDATE OF "group_id", "role_id" ON "users"
  FOR EACH ROW EXECUTE FUNCTION trasa_user_sort_keys();--> statement-breakpoint
CREATE OR REPLACE FUNCTION trasa_group_sort_key() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE users SET sort_group = NEW.naziv WHERE group_id = NEW.id AND sort_group IS DISTINCT FROM NEW.naziv;
  RETURN NULL;
END
$$;--> statement-breakpoint
DROP TRIGGER IF EXISTS "groups_sort_key" ON "groups";--> statement-breakpoint
CREATE TRIGGER "groups_sort_key" AFTER INSERT OR UPDATE OF "naziv" ON "groups"
  FOR EACH ROW EXECUTE FUNCTION trasa_group_sort_key();--> statement-breakpoint
CREATE OR REPLACE FUNCTION trasa_role_sort_key() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE users SET sort_role = NEW.ime_role WHERE role_id = NEW.id AND sort_role IS DISTINCT FROM NEW.ime_role;
  RETURN NULL;
END
$$;--> statement-breakpoint
DROP TRIGGER IF EXISTS "roles_sort_key" ON "roles";--> statement-breakpoint
CREATE TRIGGER "roles_sort_key" AFTER INSERT OR UPDATE OF "ime_role" ON "roles"
  FOR EACH ROW EXECUTE FUNCTION trasa_role_sort_key();--> statement-breakpoint
-- The users in group-name and role-name order (trasa_sr), the id as the tie-breaker, live users only,
-- carrying what the lists filter by: page 1 and page 2,500 are an index-only walk like the other sorts
-- (0013). Users without a group sort last going up, first going down (NULLS LAST of a btree).
CREATE INDEX IF NOT EXISTS "users_group_name_order_idx" ON "users" USING btree ("sort_group" COLLATE trasa_sr, "id")
  INCLUDE ("group_id", "role_id") WHERE "deleted_at" IS NULL;--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "users_role_name_order_idx" ON "users" USING btree ("sort_role" COLLATE trasa_sr, "id")
  INCLUDE ("group_id", "role_id") WHERE "deleted_at" IS NULL;--> statement-breakpoint
--
-- Each group carries its number of live members (member_count; the groups lists' brojClanova), so the
-- groups list (the screens' picker call, limit=50000: every group) no longer counts 50,000 users per
-- request. Counts are recounted, never incremented: whenever users enter or leave a group (inserted,
-- moved, deleted or undeleted, removed), the groups touched are locked (in id order, so two movers do not
-- deadlock) and counted again from users_group_order_idx in the next statement, whose snapshot sees what
-- another transaction committed meanwhile. A recount is exact whatever came before it: a restore (rows in
-- any order, the groups' counts as they were dumped) stays right.
ALTER TABLE "groups" ADD COLUMN IF NOT EXISTS "member_count" integer NOT NULL DEFAULT 0;--> statement-breakpoint
UPDATE "groups" g SET "member_count" = c.n
  FROM (SELECT g2."id", (SELECT count(*)::int FROM "users" u WHERE u."group_id" = g2."id" AND u."deleted_at" IS NULL) AS n FROM "groups" g2) c
  WHERE c."id" = g."id" AND g."member_count" <> c.n;--> statement-breakpoint
CREATE OR REPLACE FUNCTION trasa_recount_members(ids uuid[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF ids IS NULL OR cardinality(ids) = 0 THEN
    RETURN;
  END IF;
  PERFORM 1 FROM groups WHERE id = ANY(ids) ORDER BY id FOR NO KEY UPDATE;
  UPDATE groups g SET member_count = c.n
    FROM (SELECT x.id, (SELECT count(*)::int FROM users u WHERE u.group_id = x.id AND u.deleted_at IS NULL) AS n
          FROM unnest(ids) AS x(id)) c
    WHERE g.id = c.id AND g.member_count <> c.n;
END
$$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION trasa_users_inserted_members() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM trasa_recount_members(ARRAY(SELECT DISTINCT group_id FROM new_users WHERE group_id IS NOT NULL AND deleted_at IS NULL));
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION trasa_user_members() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    PERFORM trasa_recount_members(ARRAY[OLD.group_id]);
  ELSE
    PERFORM trasa_recount_members(ARRAY(SELECT DISTINCT g FROM unnest(ARRAY[OLD.group_id, NEW.group_id]) g WHERE g IS NOT NULL));
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
DROP TRIGGER IF EXISTS "users_inserted_members" ON "users";--> statement-breakpoint
CREATE TRIGGER "users_inserted_members" AFTER INSERT ON "users" REFERENCING NEW TABLE AS new_users
  FOR EACH STATEMENT EXECUTE FUNCTION trasa_users_inserted_members();--> statement-breakpoint
DROP TRIGGER IF EXISTS "users_moved_members" ON "users";--> statement-breakpoint
CREATE TRIGGER "users_moved_members" AFTER UPDATE OF "group_id", "deleted_at" ON "users"
  FOR EACH ROW WHEN (OLD.group_id IS DISTINCT FROM NEW.group_id OR (OLD.deleted_at IS NULL) <> (NEW.deleted_at IS NULL))
  EXECUTE FUNCTION trasa_user_members();--> statement-breakpoint
DROP TRIGGER IF EXISTS "users_deleted_members" ON "users";--> statement-breakpoint
CREATE TRIGGER "users_deleted_members" AFTER DELETE ON "users"
  FOR EACH ROW WHEN (OLD.group_id IS NOT NULL AND OLD.deleted_at IS NULL)
  EXECUTE FUNCTION trasa_user_members();--> statement-breakpoint
ANALYZE "users";
