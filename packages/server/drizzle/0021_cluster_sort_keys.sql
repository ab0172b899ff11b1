-- The clusters list's computed sort keys stored on the cluster (issue 15 item 3; docs/decisions.md
-- "Clusters sorted by groups or contract: kept keys"). sort_groups is the responsible groups' names
-- joined in Serbian order (', '), sort_contract the general contract's name (the least in Serbian order
-- when there are several) — exactly CLUSTER_SORT_DEFINITIONS' values (features/clusters/service.ts), null
-- without groups or without a general contract. The list sorted by either read them from an index in
-- trasa_sr order instead of aggregating every visible cluster's links per request (the Admin's page 1
-- by groups: 3,000 aggregates and a sort, p50 81 ms in bench case `clusters sorted groups`).
--
-- Kept by statement triggers on the links (cluster_groups, contract_clusters: insert, update, delete —
-- a cluster's or a group's delete cascades into them) and on the names (groups, contracts: an update of
-- naziv), which compute the touched clusters' keys again (exact: no running values to drift). Each first
-- locks the touched clusters' rows in id order, as 0017's status count does.
ALTER TABLE "clusters" ADD COLUMN IF NOT EXISTS "sort_groups" text;--> statement-breakpoint
ALTER TABLE "clusters" ADD COLUMN IF NOT EXISTS "sort_contract" text;--> statement-breakpoint
CREATE OR REPLACE FUNCTION trasa_cluster_sort_keys(ids uuid[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF ids IS NULL THEN
    RETURN;
  END IF;
  PERFORM 1 FROM clusters WHERE id = ANY (ids) ORDER BY id FOR NO KEY UPDATE;
  UPDATE clusters c SET sort_groups = s.g, sort_contract = s.k
  FROM (
    SELECT x.id,
      (SELECT string_agg(g.naziv, ', ' ORDER BY g.naziv COLLATE trasa_sr) FROM cluster_groups cg
        JOIN groups g ON g.id = cg.group_id WHERE cg.cluster_id = x.id) AS g,
      (SELECT min(k.naziv COLLATE trasa_sr) FROM contract_clusters cc
        JOIN contracts k ON k.id = cc.contract_id WHERE cc.cluster_id = x.id AND cc.kind = 'contract') AS k
    FROM (SELECT DISTINCT unnest(ids) AS id) x
  ) s
  WHERE c.id = s.id AND (c.sort_groups, c.sort_contract) IS DISTINCT FROM (s.g, s.k);
END
$$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION trasa_cluster_links_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  ids uuid[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    SELECT array_agg(DISTINCT cluster_id) INTO ids FROM new_links;
  ELSIF TG_OP = 'DELETE' THEN
    SELECT array_agg(DISTINCT cluster_id) INTO ids FROM old_links;
  ELSE
    SELECT array_agg(DISTINCT cluster_id) INTO ids FROM (SELECT cluster_id FROM old_links UNION SELECT cluster_id FROM new_links) x;
  END IF;
  PERFORM trasa_cluster_sort_keys(ids);
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION trasa_cluster_group_renamed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM trasa_cluster_sort_keys(array_agg(DISTINCT cg.cluster_id))
  FROM old_names o JOIN new_names n ON n.id = o.id JOIN cluster_groups cg ON cg.group_id = n.id
  WHERE o.naziv IS DISTINCT FROM n.naziv;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION trasa_cluster_contract_renamed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM trasa_cluster_sort_keys(array_agg(DISTINCT cc.cluster_id))
  FROM old_names o JOIN new_names n ON n.id = o.id JOIN contract_clusters cc ON cc.contract_id = n.id
  WHERE o.naziv IS DISTINCT FROM n.naziv;
  RETURN NULL;
END
$$;--> statement-breakpoint
DROP TRIGGER IF EXISTS "cluster_groups_sort_ins" ON "cluster_groups";--> statement-breakpoint
DROP TRIGGER IF EXISTS "cluster_groups_sort_upd" ON "cluster_groups";--> statement-breakpoint
DROP TRIGGER IF EXISTS "cluster_groups_sort_del" ON "cluster_groups";--> statement-breakpoint
DROP TRIGGER IF EXISTS "contract_clusters_sort_ins" ON "contract_clusters";--> statement-breakpoint
DROP TRIGGER IF EXISTS "contract_clusters_sort_upd" ON "contract_clusters";--> statement-breakpoint
DROP TRIGGER IF EXISTS "contract_clusters_sort_del" ON "contract_clusters";--> statement-breakpoint
DROP TRIGGER IF EXISTS "groups_cluster_sort_upd" ON "groups";--> statement-breakpoint
DROP TRIGGER IF EXISTS "contracts_cluster_sort_upd" ON "contracts";--> statement-breakpoint
CREATE TRIGGER "cluster_groups_sort_ins" AFTER INSERT ON "cluster_groups" REFERENCING NEW TABLE AS new_links
  FOR EACH STATEMENT EXECUTE FUNCTION trasa_cluster_links_changed();--> statement-breakpoint
CREATE TRIGGER "cluster_groups_sort_upd" AFTER UPDATE ON "cluster_groups" REFERENCING OLD TABLE AS old_links NEW TABLE AS new_links
  FOR EACH STATEMENT EXECUTE FUNCTION trasa_cluster_links_changed();--> statement-breakpoint
CREATE TRIGGER "cluster_groups_sort_del" AFTER DELETE ON "cluster_groups" REFERENCING OLD TABLE AS old_links
  FOR EACH STATEMENT EXECUTE FUNCTION trasa_cluster_links_changed();--> statement-breakpoint
CREATE TRIGGER "contract_clusters_sort_ins" AFTER INSERT ON "contract_clusters" REFERENCING NEW TABLE AS new_links
  FOR EACH STATEMENT EXECUTE FUNCTION trasa_cluster_links_changed();--> statement-breakpoint
CREATE TRIGGER "contract_clusters_sort_upd" AFTER UPDATE ON "contract_clusters" REFERENCING OLD TABLE AS old_links NEW TABLE AS new_links
  FOR EACH STATEMENT EXECUTE FUNCTION trasa_cluster_links_changed();--> statement-breakpoint
CREATE TRIGGER "contract_clusters_sort_del" AFTER DELETE ON "contract_clusters" REFERENCING OLD TABLE AS old_links
  FOR EACH STATEMENT EXECUTE FUNCTION trasa_cluster_links_changed();--> statement-breakpoint
CREATE TRIGGER "groups_cluster_sort_upd" AFTER UPDATE ON "groups" REFERENCING OLD TABLE AS old_names NEW TABLE AS new_names
  FOR EACH STATEMENT EXECUTE FUNCTION trasa_cluster_group_renamed();--> statement-breakpoint
CREATE TRIGGER "contracts_cluster_sort_upd" AFTER UPDATE ON "contracts" REFERENCING OLD TABLE AS old_names NEW TABLE AS new_names
  FOR EACH STATEMENT EXECUTE FUNCTION trasa_cluster_contract_renamed();--> statement-breakpoint
-- The list sorted by groups or by contract: the key in trasa_sr order, then the id (orderOf's tie-break).
CREATE INDEX IF NOT EXISTS "clusters_sort_groups_idx" ON "clusters" USING btree (("sort_groups" COLLATE trasa_sr), "id");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "clusters_sort_contract_idx" ON "clusters" USING btree (("sort_contract" COLLATE trasa_sr), "id");--> statement-breakpoint
-- The clusters that exist now (after the indexes: the update queues 0020's deferred triggers, and a table
-- with pending trigger events takes no CREATE INDEX or ALTER in the same transaction — drizzle runs every
-- pending migration in one; SET CONSTRAINTS … IMMEDIATE fires them here).
SELECT trasa_cluster_sort_keys(array_agg(id)) FROM "clusters";--> statement-breakpoint
SET CONSTRAINTS ALL IMMEDIATE;--> statement-breakpoint
ANALYZE "clusters";
