-- The clusters list sorted by its 'responsible contractor' column sorts by what the column shows
-- (docs/decisions.md "Cluster list rows carry what the tables show"; issue 15 item 4): sort_groups is now
-- the names of the cluster's groups of type Izvođač (code IZVODJAC) joined in Serbian order (', '), null
-- without one — it was every responsible group's name, so a designer's or a supervisor's name decided the
-- order of a column that shows only contractors. A group's type change moves its clusters' keys as a
-- rename does. The same value as CLUSTER_SORT_DEFINITIONS.odgovoran (features/clusters/service.ts; test:
-- clusters/sortKeys.test.ts).
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
        JOIN groups g ON g.id = cg.group_id JOIN group_types t ON t.id = g.type_id AND t.code = 'IZVODJAC'
        WHERE cg.cluster_id = x.id) AS g,
      (SELECT min(k.naziv COLLATE trasa_sr) FROM contract_clusters cc
        JOIN contracts k ON k.id = cc.contract_id WHERE cc.cluster_id = x.id AND cc.kind = 'contract') AS k
    FROM (SELECT DISTINCT unnest(ids) AS id) x
  ) s
  WHERE c.id = s.id AND (c.sort_groups, c.sort_contract) IS DISTINCT FROM (s.g, s.k);
END
$$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION trasa_cluster_group_renamed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM trasa_cluster_sort_keys(array_agg(DISTINCT cg.cluster_id))
  FROM old_names o JOIN new_names n ON n.id = o.id JOIN cluster_groups cg ON cg.group_id = n.id
  WHERE o.naziv IS DISTINCT FROM n.naziv OR o.type_id IS DISTINCT FROM n.type_id;
  RETURN NULL;
END
$$;--> statement-breakpoint
SELECT trasa_cluster_sort_keys(array_agg(id)) FROM "clusters";--> statement-breakpoint
SET CONSTRAINTS ALL IMMEDIATE;--> statement-breakpoint
ANALYZE "clusters";
