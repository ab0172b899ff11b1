// Settlements, clusters, contracts and the clusters' activities of the generated database (bench/generate.mjs).
import { createIndexes, dropIndexes } from './indexes.mjs';
import { PLACES, PLACES_MORE, sqlArray, VILLAGES, VILLAGES_MORE } from './sizes.mjs';

/**
 * Settlements, clusters of three settlements, their responsible groups, contracts and the activities at a
 * stage per cluster. Returns how many clusters each responsible firm has (`per`, the topics follow it).
 */
export async function clustersAndActivities(db, { S, done, second }) {
  // Settlements, then clusters of three settlements each (the third incidental). A settlement's village
  // name is drawn by a hash of its number, not by the number modulo the list: with `i % 18` every 18th code
  // was 'Gornja Šljivica', and ANALYZE's histogram of search_text (101 bounds, one every 90 codes in code
  // order) held nothing else, so the planner expected every settlement to match 'gornja' (8,999 of 9,000
  // for 500) and counted them with a scan of the table; real names are in no such step with their codes.
  await db.query(
    `WITH v AS (SELECT ${sqlArray([...VILLAGES, ...VILLAGES_MORE])} AS a), p AS (SELECT ${sqlArray([...PLACES, ...PLACES_MORE])} AS a)
     INSERT INTO settlements (code, naziv, maticni_broj, opstine, operator, javni_poziv, broj_domacinstava, broj_skola,
                              broj_indirektno_pokrivenih_domacinstava, broj_indirektno_pokrivenih_skola)
     SELECT 'N' || lpad(i::text, 5, '0'), v.a[1 + abs(hashint4(i)) % array_length(v.a, 1)] || ' ' || (i / 18 + 1),
            (7000000 + i * 37)::text, ARRAY[p.a[1 + (i / 7) % array_length(p.a, 1)]], 'Operater ' || (1 + i % 5),
            'JP-' || (1 + i % 3) || '/2024', 20 + i % 400, i % 3, i % 50, i % 2
     FROM generate_series(1, $1::int) i, v, p`,
    [S.settlements],
  );
  await db.query(
    `WITH p AS (SELECT ${sqlArray([...PLACES, ...PLACES_MORE])} AS a)
     INSERT INTO clusters (naziv, indikativna_duzina_klastera, ugovorena_vrednost_klastera, adresa)
     SELECT p.a[1 + i % array_length(p.a, 1)] || ' ' || lpad(i::text, 4, '0'), round((5 + (i * 7) % 60 + 0.5)::numeric, 1),
            1000000 + (i * 7919) % 9000000, 'Ulica ' || (1 + i % 90) || ', ' || p.a[1 + i % array_length(p.a, 1)]
     FROM generate_series(1, $1::int) i, p`,
    [S.clusters],
  );
  await db.query(`CREATE TEMP TABLE bench_clusters AS
    SELECT id, substring(naziv FROM '(\\d+)$')::int AS n FROM clusters WHERE naziv ~ ' \\d{4}$'`);
  await db.query('CREATE UNIQUE INDEX ON bench_clusters (n)');
  await db.query(
    `INSERT INTO cluster_settlements (cluster_id, settlement_id, usputno, position)
     SELECT c.id, s.id, (i - 1) % 3 = 2, (i - 1) % 3
     FROM generate_series(1, $1::int) i
     JOIN settlements s ON s.code = 'N' || lpad(i::text, 5, '0')
     JOIN bench_clusters c ON c.n = 1 + (i - 1) / 3`,
    [Math.min(S.settlements, S.clusters * 3)],
  );
  // Responsible groups: the contractor firm 1 + (n-1)/300, the designer 11 + …, the supervision 21 + (n-1)/600.
  const per = Math.max(1, Math.ceil(S.clusters / 10));
  await db.query(
    `INSERT INTO cluster_groups (cluster_id, group_id)
     SELECT c.id, g.id FROM bench_clusters c
     JOIN bench_groups g ON g.is_firm AND g.firm IN (1 + (c.n - 1) / $1::int, 11 + (c.n - 1) / $1::int, 21 + (c.n - 1) / ($1::int * 2))`,
    [per],
  );
  done(`${S.settlements} settlements, ${S.clusters} clusters`);

  // Contracts: per kind, contract j covers clusters 30(j-1)+1 … 30j; the groups of the typed ones are
  // the firms responsible for those clusters.
  const perContract = Math.max(1, Math.ceil(S.clusters / S.contractsPerKind));
  await db.query(
    `INSERT INTO contracts (kind, naziv, broj, status, datum_pocetka, rok_trajanja, datum_zavrsetka)
     SELECT k.kind, k.label || ' ' || j, k.prefix || '-' || j || '/2025', CASE WHEN j % 10 = 0 THEN 'Završen' ELSE 'U toku' END,
            current_date - 400 + j, 900, CASE WHEN j % 10 = 0 THEN current_date - 30 END
     FROM generate_series(1, $1::int) j,
          (VALUES ('contract', 'Ugovor o izgradnji mreže', 'UG'), ('contractIzv', 'Ugovor o izvođenju radova', 'IZV'),
                  ('contractPro', 'Ugovor o projektovanju', 'PRO'), ('contractNad', 'Ugovor o stručnom nadzoru', 'NAD')) k(kind, label, prefix)`,
    [S.contractsPerKind],
  );
  await db.query(`CREATE TEMP TABLE bench_contracts AS
    SELECT id, kind, substring(naziv FROM '(\\d+)$')::int AS j FROM contracts`);
  await db.query(
    `INSERT INTO contract_clusters (contract_id, cluster_id, kind)
     SELECT k.id, c.id, k.kind FROM bench_clusters c JOIN bench_contracts k ON k.j = 1 + (c.n - 1) / $1::int`,
    [perContract],
  );
  await db.query(
    `INSERT INTO contract_groups (contract_id, group_id)
     SELECT DISTINCT k.id, g.id FROM bench_contracts k
     JOIN contract_clusters cc ON cc.contract_id = k.id JOIN bench_clusters c ON c.id = cc.cluster_id
     JOIN bench_groups g ON g.is_firm AND g.firm = CASE k.kind WHEN 'contractIzv' THEN 1 + (c.n - 1) / $1::int
       WHEN 'contractPro' THEN 11 + (c.n - 1) / $1::int ELSE 21 + (c.n - 1) / ($1::int * 2) END
     WHERE k.kind <> 'contract'`,
    [per],
  );
  done(`${S.contractsPerKind * 4} contracts`);

  // Activities at a stage per cluster (as bench/activities.mjs): the catalogue's first t entries
  // finished, those whose predecessors all finished in progress, the rest not started.
  const activityIndexes = await dropIndexes(db, 'activities');
  await db.query(`
    WITH stage AS (SELECT id AS cluster_id, floor(random() * 38)::int - 1 AS t FROM bench_clusters),
         cat AS (
           SELECT c.code, c.position, c.rok,
                  coalesce((SELECT max(p.position) FROM activity_catalogue p WHERE p.code = ANY (c.prethodna)), -1) AS prev_pos
           FROM activity_catalogue c)
    INSERT INTO activities (cluster_id, code, position, status, datum_pocetka, datum_zavrsetka, rok_zavrsetka, version, returned)
    SELECT s.cluster_id, c.code, c.position, x.status,
           CASE x.status WHEN 'Nije započeta' THEN NULL WHEN 'Završena' THEN x.done - coalesce(c.rok, 20) ELSE x.start END,
           CASE WHEN x.status = 'Završena' THEN x.done END,
           CASE WHEN x.status = 'Nije započeta' OR c.rok IS NULL THEN NULL
                WHEN x.status = 'Završena' THEN x.done - coalesce(c.rok, 20) + c.rok
                ELSE x.start + c.rok END,
           0, CASE WHEN random() < 0.05 THEN 1 ELSE 0 END
    FROM stage s CROSS JOIN cat c
    CROSS JOIN LATERAL (SELECT
      CASE WHEN c.position < s.t THEN 'Završena' WHEN s.t >= 0 AND c.prev_pos < s.t THEN 'U toku' ELSE 'Nije započeta' END AS status,
      current_date - (random() * (coalesce(c.rok, 30) * 1.4))::int AS start,
      current_date - 5 - (s.t - c.position) * 12 AS done) x`);
  await createIndexes(db, second, activityIndexes);
  done('activities');
  return per;
}
