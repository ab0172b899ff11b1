-- The inventory reports at 100,000 items (issue 15 item 3; bench cases `inventory report …`).
-- Written by hand like 0010, 0012 and 0013: the schema files do not declare these, so drizzle-kit leaves
-- them alone. IF NOT EXISTS / OR REPLACE: a bench database may have them from a trial run.
--
-- 1. inventory_totals: per location and codebook entry, the items' count, kolicina, value (the sum of
--    round(kolicina × cena_rsd, 2), as every total sums it) and latest handover. Every report's total and
--    count, the summary per codebook entry and the state per location read it instead of summing
--    100,000 items on every page. Kept by statement triggers on inventory_items, which count the touched
--    (location, entry) keys again from the items (exact: no running sums to drift); writes of one
--    location's items are serialised by the location's row lock (features/inventory/items.ts lockLocation).
CREATE TABLE IF NOT EXISTS "inventory_totals" (
	"cluster_id" uuid NOT NULL,
	"type_id" uuid NOT NULL,
	"n" integer NOT NULL,
	"kolicina" numeric NOT NULL,
	"vrednost" numeric NOT NULL,
	"datum" date NOT NULL,
	CONSTRAINT "inventory_totals_pk" PRIMARY KEY ("cluster_id", "type_id")
);--> statement-breakpoint
CREATE OR REPLACE FUNCTION trasa_inventory_recount(clusters_of uuid[], types_of uuid[]) RETURNS void LANGUAGE sql AS $$
  WITH k AS (SELECT DISTINCT c AS cluster_id, t AS type_id FROM unnest(clusters_of, types_of) AS u(c, t)),
  agg AS (
    SELECT i.cluster_id, i.type_id, count(*)::int AS n, sum(i.kolicina) AS kolicina,
           sum(round(i.kolicina * i.cena_rsd, 2)) AS vrednost, max(i.datum_primopredaje) AS datum
    FROM inventory_items i JOIN k ON k.cluster_id = i.cluster_id AND k.type_id = i.type_id
    GROUP BY i.cluster_id, i.type_id
  ),
  gone AS (
    DELETE FROM inventory_totals t USING k
    WHERE t.cluster_id = k.cluster_id AND t.type_id = k.type_id
      AND NOT EXISTS (SELECT 1 FROM agg WHERE agg.cluster_id = k.cluster_id AND agg.type_id = k.type_id)
  )
  INSERT INTO inventory_totals (cluster_id, type_id, n, kolicina, vrednost, datum)
  SELECT cluster_id, type_id, n, kolicina, vrednost, datum FROM agg
  ON CONFLICT (cluster_id, type_id) DO UPDATE
    SET n = excluded.n, kolicina = excluded.kolicina, vrednost = excluded.vrednost, datum = excluded.datum;
$$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION trasa_inventory_totals_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM trasa_inventory_recount(array_agg(cluster_id), array_agg(type_id)) FROM (SELECT DISTINCT cluster_id, type_id FROM new_items) k;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION trasa_inventory_totals_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM trasa_inventory_recount(array_agg(cluster_id), array_agg(type_id)) FROM (SELECT DISTINCT cluster_id, type_id FROM old_items) k;
  RETURN NULL;
END
$$;--> statement-breakpoint
-- An update counts again only the keys of rows whose location, entry, quantity, price or date changed
-- (a location's or entry's rename rewrites only the name copies below).
CREATE OR REPLACE FUNCTION trasa_inventory_totals_updated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM trasa_inventory_recount(array_agg(cluster_id), array_agg(type_id)) FROM (
    SELECT o.cluster_id, o.type_id FROM old_items o FULL JOIN new_items n ON n.id = o.id
    WHERE o.id IS NOT NULL AND (n.id IS NULL OR (o.cluster_id, o.type_id, o.kolicina, o.cena_rsd, o.datum_primopredaje)
      IS DISTINCT FROM (n.cluster_id, n.type_id, n.kolicina, n.cena_rsd, n.datum_primopredaje))
    UNION
    SELECT n.cluster_id, n.type_id FROM new_items n FULL JOIN old_items o ON o.id = n.id
    WHERE n.id IS NOT NULL AND (o.id IS NULL OR (o.cluster_id, o.type_id, o.kolicina, o.cena_rsd, o.datum_primopredaje)
      IS DISTINCT FROM (n.cluster_id, n.type_id, n.kolicina, n.cena_rsd, n.datum_primopredaje))
  ) k;
  RETURN NULL;
END
$$;--> statement-breakpoint
-- A row given for a key that has one already updates it (the recount's upsert goes through here too): a
-- restore (ops/backup.ts) loads tables in name order, inventory_items — whose trigger makes the totals —
-- before inventory_totals, whose rows from the backup then replace them with the same figures.
CREATE OR REPLACE FUNCTION trasa_inventory_totals_upsert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE inventory_totals SET n = NEW.n, kolicina = NEW.kolicina, vrednost = NEW.vrednost, datum = NEW.datum
  WHERE cluster_id = NEW.cluster_id AND type_id = NEW.type_id;
  IF FOUND THEN
    RETURN NULL;
  END IF;
  RETURN NEW;
END
$$;--> statement-breakpoint
DROP TRIGGER IF EXISTS "inventory_totals_upsert" ON "inventory_totals";--> statement-breakpoint
CREATE TRIGGER "inventory_totals_upsert" BEFORE INSERT ON "inventory_totals"
  FOR EACH ROW EXECUTE FUNCTION trasa_inventory_totals_upsert();--> statement-breakpoint
TRUNCATE "inventory_totals";--> statement-breakpoint
INSERT INTO "inventory_totals" ("cluster_id", "type_id", "n", "kolicina", "vrednost", "datum")
  SELECT "cluster_id", "type_id", count(*)::int, sum("kolicina"), sum(round("kolicina" * "cena_rsd", 2)), max("datum_primopredaje")
  FROM "inventory_items" GROUP BY "cluster_id", "type_id";--> statement-breakpoint
DROP TRIGGER IF EXISTS "inventory_items_totals_ins" ON "inventory_items";--> statement-breakpoint
DROP TRIGGER IF EXISTS "inventory_items_totals_upd" ON "inventory_items";--> statement-breakpoint
DROP TRIGGER IF EXISTS "inventory_items_totals_del" ON "inventory_items";--> statement-breakpoint
CREATE TRIGGER "inventory_items_totals_ins" AFTER INSERT ON "inventory_items" REFERENCING NEW TABLE AS new_items
  FOR EACH STATEMENT EXECUTE FUNCTION trasa_inventory_totals_inserted();--> statement-breakpoint
CREATE TRIGGER "inventory_items_totals_upd" AFTER UPDATE ON "inventory_items" REFERENCING OLD TABLE AS old_items NEW TABLE AS new_items
  FOR EACH STATEMENT EXECUTE FUNCTION trasa_inventory_totals_updated();--> statement-breakpoint
CREATE TRIGGER "inventory_items_totals_del" AFTER DELETE ON "inventory_items" REFERENCING OLD TABLE AS old_items
  FOR EACH STATEMENT EXECUTE FUNCTION trasa_inventory_totals_deleted();--> statement-breakpoint
--
-- 2. An item carries its location's and its codebook entry's names (set from them on insert and when the
--    item moves, followed when a location or an entry is renamed; a value already given is kept: a restore
--    loads rows in any order), so that the report of all items pages in its order — newest handover,
--    location, entry (trasa_sr), id — or by location from an index: page 2,500 is an index-only walk of
--    25,000 entries and 10 rows joined, instead of sorting 100,000 joined rows in ICU.
ALTER TABLE "inventory_items" ADD COLUMN IF NOT EXISTS "cluster_naziv" text;--> statement-breakpoint
ALTER TABLE "inventory_items" ADD COLUMN IF NOT EXISTS "type_naziv" text;--> statement-breakpoint
ALTER TABLE "inventory_items" DISABLE TRIGGER "inventory_items_totals_upd";--> statement-breakpoint
UPDATE "inventory_items" i SET "cluster_naziv" = c."naziv", "type_naziv" = t."naziv"
  FROM "clusters" c, "inventory_types" t
  WHERE c."id" = i."cluster_id" AND t."id" = i."type_id"
    AND (i."cluster_naziv" IS DISTINCT FROM c."naziv" OR i."type_naziv" IS DISTINCT FROM t."naziv");--> statement-breakpoint
ALTER TABLE "inventory_items" ENABLE TRIGGER "inventory_items_totals_upd";--> statement-breakpoint
CREATE OR REPLACE FUNCTION trasa_inventory_item_names() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.cluster_naziv IS NULL OR (TG_OP = 'UPDATE' AND NEW.cluster_id IS DISTINCT FROM OLD.cluster_id) THEN
    SELECT c.naziv INTO NEW.cluster_naziv FROM clusters c WHERE c.id = NEW.cluster_id;
  END IF;
  IF NEW.type_naziv IS NULL OR (TG_OP = 'UPDATE' AND NEW.type_id IS DISTINCT FROM OLD.type_id) THEN
    SELECT t.naziv INTO NEW.type_naziv FROM inventory_types t WHERE t.id = NEW.type_id;
  END IF;
  RETURN NEW;
END
$$;--> statement-breakpoint
DROP TRIGGER IF EXISTS "inventory_items_names" ON "inventory_items";--> statement-breakpoint
CREATE TRIGGER "inventory_items_names" BEFORE INSERT OR UPDATE OF "cluster_id", "type_id" ON "inventory_items"
  FOR EACH ROW EXECUTE FUNCTION trasa_inventory_item_names();--> statement-breakpoint
CREATE OR REPLACE FUNCTION trasa_cluster_renamed_inventory() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE inventory_items SET cluster_naziv = NEW.naziv WHERE cluster_id = NEW.id AND cluster_naziv IS DISTINCT FROM NEW.naziv;
  RETURN NULL;
END
$$;--> statement-breakpoint
DROP TRIGGER IF EXISTS "clusters_renamed_inventory" ON "clusters";--> statement-breakpoint
CREATE TRIGGER "clusters_renamed_inventory" AFTER UPDATE OF "naziv" ON "clusters"
  FOR EACH ROW WHEN (OLD.naziv IS DISTINCT FROM NEW.naziv) EXECUTE FUNCTION trasa_cluster_renamed_inventory();--> statement-breakpoint
CREATE OR REPLACE FUNCTION trasa_inventory_type_renamed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE inventory_items SET type_naziv = NEW.naziv WHERE type_id = NEW.id AND type_naziv IS DISTINCT FROM NEW.naziv;
  RETURN NULL;
END
$$;--> statement-breakpoint
DROP TRIGGER IF EXISTS "inventory_types_renamed" ON "inventory_types";--> statement-breakpoint
CREATE TRIGGER "inventory_types_renamed" AFTER UPDATE OF "naziv" ON "inventory_types"
  FOR EACH ROW WHEN (OLD.naziv IS DISTINCT FROM NEW.naziv) EXECUTE FUNCTION trasa_inventory_type_renamed();--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "inventory_items_report_order_idx" ON "inventory_items" USING btree
  ("datum_primopredaje" DESC, "cluster_naziv" COLLATE trasa_sr, "type_naziv" COLLATE trasa_sr, "id") INCLUDE ("cluster_id", "type_id");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "inventory_items_location_order_idx" ON "inventory_items" USING btree
  ("cluster_naziv" COLLATE trasa_sr, "id") INCLUDE ("cluster_id", "type_id");--> statement-breakpoint
--
-- 3. A comment carries its author's name as the list shows it (ime prezime) and e-mail (set from the user
--    on insert and when the author changes, null without one — a removed user's comments are set null by
--    the foreign key, which fires the trigger; followed when a user is renamed or anonymised), so that the
--    comments sorted by author or e-mail page from an index: page 2,500 was a walk of 12,800 authors in
--    name order, each one's comments read apart (60–150 ms alone). A value already given is kept on insert
--    (a restore). Nulls last going up and first going down, as PostgreSQL orders the SortMap's subquery.
ALTER TABLE "activity_comments" ADD COLUMN IF NOT EXISTS "author_name" text;--> statement-breakpoint
ALTER TABLE "activity_comments" ADD COLUMN IF NOT EXISTS "author_email" text;--> statement-breakpoint
UPDATE "activity_comments" ac SET "author_name" = u."ime" || ' ' || u."prezime", "author_email" = u."email"
  FROM "users" u
  WHERE u."id" = ac."user_id"
    AND (ac."author_name" IS DISTINCT FROM u."ime" || ' ' || u."prezime" OR ac."author_email" IS DISTINCT FROM u."email");--> statement-breakpoint
CREATE OR REPLACE FUNCTION trasa_comment_author() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.user_id IS NULL THEN
    NEW.author_name := NULL;
    NEW.author_email := NULL;
  ELSIF TG_OP = 'UPDATE' OR NEW.author_name IS NULL OR NEW.author_email IS NULL THEN
    SELECT u.ime || ' ' || u.prezime, u.email INTO NEW.author_name, NEW.author_email FROM users u WHERE u.id = NEW.user_id;
  END IF;
  RETURN NEW;
END
$$;--> statement-breakpoint
DROP TRIGGER IF EXISTS "activity_comments_author" ON "activity_comments";--> statement-breakpoint
CREATE TRIGGER "activity_comments_author" BEFORE INSERT OR UPDATE OF "user_id" ON "activity_comments"
  FOR EACH ROW EXECUTE FUNCTION trasa_comment_author();--> statement-breakpoint
CREATE OR REPLACE FUNCTION trasa_user_renamed_comments() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE activity_comments SET author_name = NEW.ime || ' ' || NEW.prezime, author_email = NEW.email
  WHERE user_id = NEW.id
    AND (author_name IS DISTINCT FROM NEW.ime || ' ' || NEW.prezime OR author_email IS DISTINCT FROM NEW.email);
  RETURN NULL;
END
$$;--> statement-breakpoint
DROP TRIGGER IF EXISTS "users_renamed_comments" ON "users";--> statement-breakpoint
CREATE TRIGGER "users_renamed_comments" AFTER UPDATE OF "ime", "prezime", "email" ON "users"
  FOR EACH ROW WHEN (OLD.ime IS DISTINCT FROM NEW.ime OR OLD.prezime IS DISTINCT FROM NEW.prezime OR OLD.email IS DISTINCT FROM NEW.email)
  EXECUTE FUNCTION trasa_user_renamed_comments();--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "activity_comments_author_name_idx" ON "activity_comments" USING btree ("author_name" COLLATE trasa_sr, "id")
  INCLUDE ("cluster_id");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "activity_comments_author_email_idx" ON "activity_comments" USING btree ("author_email" COLLATE trasa_sr, "id")
  INCLUDE ("cluster_id");--> statement-breakpoint
ANALYZE "inventory_items";--> statement-breakpoint
ANALYZE "inventory_totals";--> statement-breakpoint
ANALYZE "activity_comments";
