-- The inventory reports per location at 3,000 locations (issue 15 item 3; docs/decisions.md
-- "Inventory reports per location: kept per location"). Written by hand like 0014: the schema files do
-- not declare it, so drizzle-kit leaves it alone. IF NOT EXISTS / OR REPLACE: a bench database may have it
-- from a trial run.
--
-- inventory_location_totals: per location with items, their count and value (Σ round(kolicina × cena_rsd, 2)
-- as every total sums it) per tip and in all — the state per location's row before its A13 and school
-- flags. Kept by statement triggers on inventory_totals (itself kept from the items, migration 0014), which
-- count the touched locations again from inventory_totals (exact: no running sums to drift). Every write
-- of a location's items holds the location's row lock (features/inventory/items.ts lockLocation), so two
-- counts of one location never pass each other; an entry's tip change (refused by the API for an entry in
-- use) counts again the locations holding it, and so does an entry inserted after totals naming it (a
-- restore).
SET CONSTRAINTS ALL IMMEDIATE;--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "inventory_location_totals" (
	"cluster_id" uuid PRIMARY KEY NOT NULL,
	"n" integer NOT NULL,
	"materijal" numeric NOT NULL,
	"oprema" numeric NOT NULL,
	"radovi" numeric NOT NULL,
	"vrednost" numeric NOT NULL
);--> statement-breakpoint
CREATE OR REPLACE FUNCTION trasa_inventory_location_recount(clusters_of uuid[]) RETURNS void LANGUAGE sql AS $$
  WITH k AS (SELECT DISTINCT c AS cluster_id FROM unnest(clusters_of) AS u(c) WHERE c IS NOT NULL),
  agg AS (
    SELECT t.cluster_id, sum(t.n)::int AS n,
           coalesce(sum(t.vrednost) FILTER (WHERE ty.tip = 'Materijal'), 0) AS materijal,
           coalesce(sum(t.vrednost) FILTER (WHERE ty.tip = 'Oprema'), 0) AS oprema,
           coalesce(sum(t.vrednost) FILTER (WHERE ty.tip = 'Radovi'), 0) AS radovi,
           sum(t.vrednost) AS vrednost
    FROM inventory_totals t JOIN k ON k.cluster_id = t.cluster_id JOIN inventory_types ty ON ty.id = t.type_id
    GROUP BY t.cluster_id
  ),
  gone AS (
    DELETE FROM inventory_location_totals l USING k
    WHERE l.cluster_id = k.cluster_id AND NOT EXISTS (SELECT 1 FROM agg WHERE agg.cluster_id = k.cluster_id)
  )
  INSERT INTO inventory_location_totals (cluster_id, n, materijal, oprema, radovi, vrednost)
  SELECT cluster_id, n, materijal, oprema, radovi, vrednost FROM agg
  ON CONFLICT (cluster_id) DO UPDATE
    SET n = excluded.n, materijal = excluded.materijal, oprema = excluded.oprema, radovi = excluded.radovi, vrednost = excluded.vrednost;
$$;--> statement-breakpoint
-- Any write of inventory_totals counts again the locations of its rows, before and after (the recount of
-- 0014 writes only the keys it touched).
CREATE OR REPLACE FUNCTION trasa_inventory_location_totals_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM trasa_inventory_location_recount(array_agg(DISTINCT cluster_id)) FROM new_totals;
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM trasa_inventory_location_recount(array_agg(DISTINCT cluster_id)) FROM old_totals;
  ELSE
    PERFORM trasa_inventory_location_recount(array_agg(DISTINCT cluster_id))
    FROM (SELECT cluster_id FROM old_totals UNION SELECT cluster_id FROM new_totals) k;
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
-- A row given for a location that has one replaces it (a restore, ops/backup.ts, loads tables in name
-- order: inventory_items, whose triggers make both totals, before inventory_location_totals, whose rows
-- from the backup then take the place of the same figures).
CREATE OR REPLACE FUNCTION trasa_inventory_location_totals_upsert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM inventory_location_totals WHERE cluster_id = NEW.cluster_id;
  RETURN NEW;
END
$$;--> statement-breakpoint
DROP TRIGGER IF EXISTS "inventory_location_totals_upsert" ON "inventory_location_totals";--> statement-breakpoint
CREATE TRIGGER "inventory_location_totals_upsert" BEFORE INSERT ON "inventory_location_totals"
  FOR EACH ROW EXECUTE FUNCTION trasa_inventory_location_totals_upsert();--> statement-breakpoint
-- The value per tip follows the entry: its tip changed, or the entry inserted after totals that name it
-- (a restore loads inventory_types after inventory_items and inventory_totals, whose recounts found no
-- entry to take the tip from; a new entry of the codebook has no totals and counts nothing).
CREATE OR REPLACE FUNCTION trasa_inventory_type_recount_locations() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM trasa_inventory_location_recount(array_agg(cluster_id)) FROM inventory_totals WHERE type_id = NEW.id;
  RETURN NULL;
END
$$;--> statement-breakpoint
DROP TRIGGER IF EXISTS "inventory_types_retyped" ON "inventory_types";--> statement-breakpoint
CREATE TRIGGER "inventory_types_retyped" AFTER UPDATE OF "tip" ON "inventory_types"
  FOR EACH ROW WHEN (OLD.tip IS DISTINCT FROM NEW.tip) EXECUTE FUNCTION trasa_inventory_type_recount_locations();--> statement-breakpoint
DROP TRIGGER IF EXISTS "inventory_types_counted" ON "inventory_types";--> statement-breakpoint
CREATE TRIGGER "inventory_types_counted" AFTER INSERT ON "inventory_types"
  FOR EACH ROW EXECUTE FUNCTION trasa_inventory_type_recount_locations();--> statement-breakpoint
DROP TRIGGER IF EXISTS "inventory_totals_location_ins" ON "inventory_totals";--> statement-breakpoint
DROP TRIGGER IF EXISTS "inventory_totals_location_upd" ON "inventory_totals";--> statement-breakpoint
DROP TRIGGER IF EXISTS "inventory_totals_location_del" ON "inventory_totals";--> statement-breakpoint
CREATE TRIGGER "inventory_totals_location_ins" AFTER INSERT ON "inventory_totals" REFERENCING NEW TABLE AS new_totals
  FOR EACH STATEMENT EXECUTE FUNCTION trasa_inventory_location_totals_changed();--> statement-breakpoint
CREATE TRIGGER "inventory_totals_location_upd" AFTER UPDATE ON "inventory_totals" REFERENCING OLD TABLE AS old_totals NEW TABLE AS new_totals
  FOR EACH STATEMENT EXECUTE FUNCTION trasa_inventory_location_totals_changed();--> statement-breakpoint
CREATE TRIGGER "inventory_totals_location_del" AFTER DELETE ON "inventory_totals" REFERENCING OLD TABLE AS old_totals
  FOR EACH STATEMENT EXECUTE FUNCTION trasa_inventory_location_totals_changed();--> statement-breakpoint
TRUNCATE "inventory_location_totals";--> statement-breakpoint
SELECT trasa_inventory_location_recount(array_agg(DISTINCT "cluster_id")) FROM "inventory_totals";--> statement-breakpoint
-- The state per location sorted by value pages from here (walked either way).
CREATE INDEX IF NOT EXISTS "inventory_location_totals_value_idx" ON "inventory_location_totals" USING btree ("vrednost", "cluster_id");--> statement-breakpoint
ANALYZE "inventory_location_totals";
