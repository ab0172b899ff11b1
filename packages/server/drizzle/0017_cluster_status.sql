-- A cluster's status stored on its row (issue 15 item 3; docs/decisions.md "A cluster's status is stored").
-- Written by hand like 0013 and 0014. IF NOT EXISTS / OR REPLACE: a bench database may have them from a
-- trial run.
--
-- status_klastera is the rule of activity-catalogue.md "Flow rules" (features/clusters/presenter.ts):
-- 'Nije započet' while no activity has left 'Nije započeta' (also a cluster without activity records),
-- 'Završen' when every one is 'Završena', 'U toku' otherwise; datum_zavrsetka_klastera is the latest
-- datumZavrsetka of a finished cluster (null otherwise). The lists, their `aktivne` count, their sort by
-- status and the contracts' linked clusters read them instead of aggregating ~36 activities per cluster
-- (3,000 aggregates for the Admin's sort by status: 100–140 ms).
--
-- Kept by statement triggers on activities (insert, update of status or datum_zavrsetka or cluster_id,
-- delete), which count the touched clusters' activities again (exact: no running counts to drift): a step's
-- one cluster by the (cluster_id, …) indexes, a bulk load (bench/generate.mjs inserts 108,000 records with
-- the indexes dropped) in one grouped pass. Each first locks the touched clusters' rows (in id order; a
-- workflow step holds its cluster's row already, features/activities/workflow.ts), so two steps on one
-- cluster count one after the other, and the count, a later statement of the function, sees what the
-- other committed (READ COMMITTED takes a new snapshot per statement).
ALTER TABLE "clusters" ADD COLUMN IF NOT EXISTS "status_klastera" text NOT NULL DEFAULT 'Nije započet';--> statement-breakpoint
ALTER TABLE "clusters" ADD COLUMN IF NOT EXISTS "datum_zavrsetka_klastera" date;--> statement-breakpoint
CREATE OR REPLACE FUNCTION trasa_cluster_status_recount(ids uuid[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  PERFORM 1 FROM clusters WHERE id = ANY (ids) ORDER BY id FOR NO KEY UPDATE;
  UPDATE clusters c SET status_klastera = s.status, datum_zavrsetka_klastera = s.finished
  FROM (
    SELECT k.id,
           CASE WHEN coalesce(a.started, 0) = 0 THEN 'Nije započet' WHEN a.open = 0 THEN 'Završen' ELSE 'U toku' END AS status,
           CASE WHEN a.started > 0 AND a.open = 0 THEN a.last END AS finished
    FROM (SELECT DISTINCT unnest(ids) AS id) k
    LEFT JOIN (
      SELECT x.cluster_id,
             count(*) FILTER (WHERE x.status <> 'Nije započeta') AS started,
             count(*) FILTER (WHERE x.status <> 'Završena') AS open,
             max(x.datum_zavrsetka) AS last
      FROM activities x WHERE x.cluster_id = ANY (ids) GROUP BY x.cluster_id
    ) a ON a.cluster_id = k.id
  ) s
  WHERE c.id = s.id AND (c.status_klastera, c.datum_zavrsetka_klastera) IS DISTINCT FROM (s.status, s.finished);
END
$$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION trasa_cluster_status_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM trasa_cluster_status_recount(array_agg(DISTINCT cluster_id)) FROM new_activities;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION trasa_cluster_status_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM trasa_cluster_status_recount(array_agg(DISTINCT cluster_id)) FROM old_activities;
  RETURN NULL;
END
$$;--> statement-breakpoint
-- An update counts again only the clusters of rows whose status, finishing date or cluster changed (a
-- step's other writes — data items, deadlines, versions — leave the count alone).
CREATE OR REPLACE FUNCTION trasa_cluster_status_updated() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  ids uuid[];
BEGIN
  SELECT array_agg(DISTINCT x.cluster_id) INTO ids FROM (
    SELECT o.cluster_id FROM old_activities o JOIN new_activities n ON n.id = o.id
    WHERE (o.status, o.datum_zavrsetka, o.cluster_id) IS DISTINCT FROM (n.status, n.datum_zavrsetka, n.cluster_id)
    UNION ALL
    SELECT n.cluster_id FROM old_activities o JOIN new_activities n ON n.id = o.id
    WHERE (o.status, o.datum_zavrsetka, o.cluster_id) IS DISTINCT FROM (n.status, n.datum_zavrsetka, n.cluster_id)
  ) x;
  IF ids IS NOT NULL THEN
    PERFORM trasa_cluster_status_recount(ids);
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
DROP TRIGGER IF EXISTS "activities_cluster_status_ins" ON "activities";--> statement-breakpoint
DROP TRIGGER IF EXISTS "activities_cluster_status_upd" ON "activities";--> statement-breakpoint
DROP TRIGGER IF EXISTS "activities_cluster_status_del" ON "activities";--> statement-breakpoint
CREATE TRIGGER "activities_cluster_status_ins" AFTER INSERT ON "activities" REFERENCING NEW TABLE AS new_activities
  FOR EACH STATEMENT EXECUTE FUNCTION trasa_cluster_status_inserted();--> statement-breakpoint
CREATE TRIGGER "activities_cluster_status_upd" AFTER UPDATE ON "activities" REFERENCING OLD TABLE AS old_activities NEW TABLE AS new_activities
  FOR EACH STATEMENT EXECUTE FUNCTION trasa_cluster_status_updated();--> statement-breakpoint
CREATE TRIGGER "activities_cluster_status_del" AFTER DELETE ON "activities" REFERENCING OLD TABLE AS old_activities
  FOR EACH STATEMENT EXECUTE FUNCTION trasa_cluster_status_deleted();--> statement-breakpoint
-- The clusters that exist now, in one grouped pass over the activities.
UPDATE "clusters" c SET "status_klastera" = s.status, "datum_zavrsetka_klastera" = s.finished
FROM (
  SELECT k.id,
         CASE WHEN coalesce(a.started, 0) = 0 THEN 'Nije započet' WHEN a.open = 0 THEN 'Završen' ELSE 'U toku' END AS status,
         CASE WHEN a.started > 0 AND a.open = 0 THEN a.last END AS finished
  FROM "clusters" k
  LEFT JOIN (
    SELECT x.cluster_id,
           count(*) FILTER (WHERE x.status <> 'Nije započeta') AS started,
           count(*) FILTER (WHERE x.status <> 'Završena') AS open,
           max(x.datum_zavrsetka) AS last
    FROM "activities" x GROUP BY x.cluster_id
  ) a ON a.cluster_id = k.id
) s
WHERE c.id = s.id AND (c.status_klastera, c.datum_zavrsetka_klastera) IS DISTINCT FROM (s.status, s.finished);--> statement-breakpoint
-- The list sorted by status: progress order, then id.
CREATE INDEX IF NOT EXISTS "clusters_status_order_idx" ON "clusters" USING btree (
  (CASE "status_klastera" WHEN 'Nije započet' THEN 0 WHEN 'U toku' THEN 1 ELSE 2 END), "id");--> statement-breakpoint
ANALYZE "clusters";
