// Groups and users of the generated database (bench/generate.mjs).
import { BENCH_ADMIN } from '../support.mjs';
import { FIRM_CYR, FIRM_WORDS, names, sqlArray } from './sizes.mjs';

/** The people the suite signs in as (password: the bench Admin's). */
export const BENCH_USERS = {
  admin: BENCH_ADMIN.email,
  /** Rukovodilac of firm 1 (a contractor: its 10 groups, 500 people, 300 clusters). */
  manager: 'bench.rukovodilac@trasa.test',
  /** Zaposleni of firm 1's first team: sees the firm's 300 clusters. */
  employee: 'bench.zaposleni@trasa.test',
};

/** 1,000 groups (firms and their teams) and 50,000 users, with the people the suite signs in as. */
export async function groupsAndUsers(db, { S, done }) {
  // Groups: firm k (1..100) and its teams. Firms 1–10 contractors, 11–20 designers, 21–25 supervision,
  // 26–30 the client, 31–35 PIU, the rest contractors without clusters (subcontractors).
  await db.query(
    `WITH w AS (SELECT ${sqlArray(FIRM_WORDS)} AS lat, ${sqlArray(FIRM_CYR)} AS cyr)
     INSERT INTO groups (naziv, kratak_naziv, cirilica, type_id)
     SELECT w.lat[1 + k % 10] || ' ' || k || ' d.o.o.', 'F' || k, w.cyr[1 + k % 10] || ' ' || k || ' д.о.о.',
            (SELECT id FROM group_types WHERE code = CASE WHEN k <= 10 THEN 'IZVODJAC' WHEN k <= 20 THEN 'PROJEKTANT'
               WHEN k <= 25 THEN 'NADZOR' WHEN k <= 30 THEN 'NARUCILAC' WHEN k <= 35 THEN 'PIU_TA' ELSE 'IZVODJAC' END)
     FROM generate_series(1, $1::int) k, w`,
    [S.firms],
  );
  await db.query(
    `INSERT INTO groups (naziv, kratak_naziv, cirilica, type_id, parent_id)
     SELECT g.naziv || ' tim ' || t, g.kratak_naziv || 'T' || t, g.cirilica || ' тим ' || t, g.type_id, g.id
     FROM groups g, generate_series(1, $1::int) t WHERE g.kratak_naziv ~ '^F\\d+$'`,
    [S.teamsPerFirm],
  );
  // firm_k: the firm number of each bench group (teams carry their firm's).
  await db.query(`CREATE TEMP TABLE bench_groups AS
    SELECT g.id, substring(g.kratak_naziv FROM '^F(\\d+)')::int AS firm, g.parent_id IS NULL AS is_firm,
           row_number() OVER (ORDER BY g.kratak_naziv)::int AS n
    FROM groups g WHERE g.kratak_naziv ~ '^F\\d+'`);
  await db.query('CREATE INDEX ON bench_groups (firm)');
  done('1,000 groups');

  // Users: 50 per group (the first of a firm's own group its Rukovodilac), guests without a group.
  const hash = (await db.query('SELECT password_hash FROM users WHERE email = $1', [BENCH_ADMIN.email])).rows[0].password_hash;
  await db.query(
    `WITH ${names},
          r AS (SELECT (SELECT id FROM roles WHERE base_role = 'Rukovodilac' AND builtin) AS boss,
                       (SELECT id FROM roles WHERE base_role = 'Zaposleni' AND builtin) AS staff)
     INSERT INTO users (ime, prezime, email, email_potvrdjen, status, role_id, group_id, password_hash, created_at)
     SELECT n.ime, n.prezime,
            replace(translate(lower(n.ime || '.' || n.prezime), 'čćšž', 'ccsz'), 'đ', 'dj') || '.' || ix.i || '@firma' || g.firm || '.rs',
            true, CASE WHEN ix.i % 40 = 0 THEN 'neaktivan' ELSE 'aktivan' END,
            CASE WHEN g.is_firm AND m = 1 THEN r.boss ELSE r.staff END, g.id, $1, now() - ix.i * interval '5 minutes'
     FROM bench_groups g CROSS JOIN generate_series(1, $2::int) m, f, l, r,
          LATERAL (SELECT (g.n - 1) * $2::int + m AS i) ix,
          LATERAL (SELECT f.a[1 + (ix.i * 7) % array_length(f.a, 1)] AS ime,
                          l.a[1 + (ix.i * 13 + ix.i / 97) % array_length(l.a, 1)] AS prezime) n`,
    [hash, S.usersPerGroup],
  );
  await db.query(
    `WITH ${names}
     INSERT INTO users (ime, prezime, email, email_potvrdjen, status, role_id, password_hash)
     SELECT f.a[1 + i % array_length(f.a, 1)], l.a[1 + (i * 3) % array_length(l.a, 1)], 'gost' || i || '@gmail.test', true, 'aktivan',
            (SELECT id FROM roles WHERE base_role = 'Gost' AND builtin), $1
     FROM generate_series(1, $2::int) i, f, l`,
    [hash, S.guests],
  );
  await db.query(
    `INSERT INTO users (ime, prezime, email, email_potvrdjen, status, role_id, group_id, password_hash) VALUES
       ('Bench', 'Rukovodilac', $1, true, 'aktivan', (SELECT id FROM roles WHERE base_role = 'Rukovodilac' AND builtin),
        (SELECT id FROM bench_groups WHERE firm = 1 AND is_firm), $3),
       ('Bench', 'Zaposleni', $2, true, 'aktivan', (SELECT id FROM roles WHERE base_role = 'Zaposleni' AND builtin),
        (SELECT g.id FROM groups g JOIN bench_groups b ON b.id = g.id WHERE b.firm = 1 AND NOT b.is_firm ORDER BY g.kratak_naziv LIMIT 1), $3)`,
    [BENCH_USERS.manager, BENCH_USERS.employee, hash],
  );
  done('50,000 users');
}
