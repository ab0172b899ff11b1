-- How many of a cluster's activities are finished, kept on the cluster beside 0017's stored status
-- (issue 10 "Speed"; docs/decisions.md "The finished-activities report: a kept count"). The report of
-- finished activities lists and counts the visible clusters with at least one finished activity: asked of
-- the activities, that was 3,000 index probes per request (17 ms of the Admin's 19). 0017's count of a
-- touched cluster's activities (run on every insert, delete and change of status) now also counts the
-- finished ones; the report reads `zavrsenih_aktivnosti > 0`.
ALTER TABLE "clusters" ADD COLUMN IF NOT EXISTS "zavrsenih_aktivnosti" integer NOT NULL DEFAULT 0;--> statement-breakpoint
CREATE OR REPLACE FUNCTION trasa_cluster_status_recount(ids uuid[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  PERFORM 1 FROM clusters WHERE id = ANY (ids) ORDER BY id FOR NO KEY UPDATE;
  UPDATE clusters c SET status_klastera = s.status, datum_zavrsetka_klastera = s.finished, zavrsenih_aktivnosti = s.done
  FROM (
    SELECT k.id,
           CASE WHEN coalesce(a.started, 0) = 0 THEN 'Nije započet' WHEN a.open = 0 THEN 'Završen' ELSE 'U toku' END AS status,
           CASE WHEN a.started > 0 AND a.open = 0 THEN a.last END AS finished,
           coalesce(a.done, 0)::integer AS done
    FROM (SELECT DISTINCT unnest(ids) AS id) k
    LEFT JOIN (
      SELECT x.cluster_id,
             count(*) FILTER (WHERE x.status <> 'Nije započeta') AS started,
             count(*) FILTER (WHERE x.status <> 'Završena') AS open,
             count(*) FILTER (WHERE x.status = 'Završena') AS done,
             max(x.datum_zavrsetka) AS last
      FROM activities x WHERE x.cluster_id = ANY (ids) GROUP BY x.cluster_id
    ) a ON a.cluster_id = k.id
  ) s
  WHERE c.id = s.id
    AND (c.status_klastera, c.datum_zavrsetka_klastera, c.zavrsenih_aktivnosti) IS DISTINCT FROM (s.status, s.finished, s.done);
END
$$;--> statement-breakpoint
-- The clusters that exist now, in one grouped pass over the activities.
UPDATE "clusters" c SET "zavrsenih_aktivnosti" = a.done
FROM (SELECT cluster_id, count(*)::integer AS done FROM "activities" WHERE status = 'Završena' GROUP BY cluster_id) a
WHERE c.id = a.cluster_id AND c.zavrsenih_aktivnosti IS DISTINCT FROM a.done;--> statement-breakpoint
-- The update queues 0020's deferred triggers: fired here, so that a later migration in the same
-- transaction may still alter the table (0021's note).
SET CONSTRAINTS ALL IMMEDIATE;--> statement-breakpoint
ANALYZE "clusters";
