// IJO holders, priorities and the log of the generated database (bench/generate.mjs).
import { createIndexes, dropIndexes } from './indexes.mjs';
import { names, PLACES, PLACES_MORE, sqlArray, VILLAGES, VILLAGES_MORE } from './sizes.mjs';

/** IJO holders and priorities (when there are none), then the log rows. */
export async function holdersAndLogs(db, { S, done, second }) {
  await db.query(
    `INSERT INTO ijo_holders (naziv, odgovoran)
     SELECT 'IJO ' || h || ' ' || (ARRAY['Srbijagas a.d.', 'Putevi Srbije', 'Elektrodistribucija', 'Vodovod', 'Telekom'])[1 + h % 5],
            CASE WHEN h % 3 = 0 THEN 'Naručilac' ELSE 'Izvođač' END
     FROM generate_series(1, 30) h ON CONFLICT DO NOTHING`,
  );
  if ((await db.query('SELECT count(*)::int AS n FROM priorities')).rows[0].n === 0) {
    await db.query(`INSERT INTO priorities (naziv, broj) SELECT 'Prioritet ' || p, p FROM generate_series(1, 5) p`);
  }

  // The log: rows as the features write them, of the bench firms' groups, one in ten without a group.
  const logIndexes = await dropIndexes(db, 'audit_logs');
  await db.query(
    `WITH ${names},
          s AS (SELECT ${sqlArray([...PLACES, ...PLACES_MORE, ...VILLAGES, ...VILLAGES_MORE])} AS a),
          g AS (SELECT array_agg(b.id ORDER BY b.n) AS ids, array_agg(gr.cirilica ORDER BY b.n) AS cyr, count(*)::int AS k
                FROM bench_groups b JOIN groups gr ON gr.id = b.id),
          x AS (
            SELECT i, f.a[1 + (i * 7) % array_length(f.a, 1)] AS ime, l.a[1 + (i * 13 + i / 97) % array_length(l.a, 1)] AS prezime,
                   (i * 31) % 2000 AS person, s.a[1 + (i / 10) % array_length(s.a, 1)] || ' ' || (1 + (i / 400) % 25) AS place,
                   i % 10 AS kind, CASE WHEN (i / 10) % 10 = 0 THEN NULL ELSE 1 + (i * 53 + i / 1000) % g.k END AS gi
            FROM generate_series(1, $1::int) i, f, l, s, g),
          y AS (SELECT x.*, lower(translate(x.ime, 'ŠĐŽČĆšđžčć', 'SDZCCsdzcc')) || '.' || x.person || '@firma.rs' AS email FROM x)
     INSERT INTO audit_logs (user_label, ip, message, url, group_id, group_cirilica, created_at)
     SELECT y.ime || ' ' || y.prezime || ' (' || y.email || ')',
            '10.' || (y.i % 256) || '.' || ((y.i / 256) % 256) || '.' || (y.i % 7 + 1),
            CASE y.kind
              WHEN 0 THEN 'Korisnik ' || y.email || ' se prijavio.'
              WHEN 1 THEN 'Neuspešna prijava: ' || y.email || '.'
              WHEN 2 THEN 'Korisnik ' || y.email || ' je dodao klaster Klaster ' || y.place || '.'
              WHEN 3 THEN 'Korisnik ' || y.email || ' je izmenio klaster Klaster ' || y.place || '.'
              WHEN 4 THEN 'Korisnik ' || y.email || ' je otvorio temu na klasteru Klaster ' || y.place || '.'
              WHEN 5 THEN 'Korisnik ' || y.email || ' je komentarisao temu na klasteru Klaster ' || y.place || '.'
              WHEN 6 THEN 'Korisnik ' || y.email || ' je dodao naselje ' || y.place || ' (N-' || y.i % 5000 || ').'
              WHEN 7 THEN 'Korisnik ' || y.email || ' je izmenio ugovor o izvođenju radova ' || (y.i % 300) || '/2025.'
              WHEN 8 THEN 'Korisnik ' || y.email || ' je dodao IJO Srbijagas a.d. (Izvođač).'
              ELSE 'Korisnik ' || y.email || ' je izmenio svoje podatke.'
            END,
            CASE y.kind WHEN 0 THEN '/api/user/login' WHEN 1 THEN '/api/user/login' WHEN 2 THEN '/api/location'
              WHEN 3 THEN '/api/location/' || md5(y.i::text)::uuid WHEN 4 THEN '/api/topic'
              WHEN 5 THEN '/api/topic/' || md5(y.i::text)::uuid || '/komentar' WHEN 6 THEN '/api/naselje'
              WHEN 7 THEN '/api/contractIzv/contractIzv/' || md5(y.i::text)::uuid WHEN 8 THEN '/api/ijo' ELSE '/api/user/change-info' END,
            CASE WHEN y.gi IS NULL THEN NULL ELSE g.ids[y.gi] END,
            CASE WHEN y.gi IS NULL THEN '' ELSE g.cyr[y.gi] END,
            now() - (($1::int - y.i) * interval '31 seconds')
     FROM y, g`,
    [S.logs],
  );
  done(`${S.logs} log rows`);
  await createIndexes(db, second, logIndexes);
  done('log indexes');
}
