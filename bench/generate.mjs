// A database at production scale (issue 15): `npm run build -w @trasa/server && npm run bench:generate`.
// Where: with DATABASE_URL, a fresh database `trasa_bench` (BENCH_DB) on that server; otherwise the
// embedded PostgreSQL in BENCH_DATA_DIR (default .data-bench/, emptied first). The built server starts on
// it once (its migrations, reference data, the activity catalogue and the bench Admin), then everything
// is filled in bulk SQL (INSERT … SELECT generate_series), the big tables' indexes dropped during the load
// and rebuilt after it. `npm run bench` uses what this made (bench/suite.mjs).
//
// What it makes: 1,000 groups (100 firms of 10: contractors, designers, supervision, client, PIU), 50,000
// users (one shared password hash: the bench Admin's), 9,000 settlements, 3,000 clusters (3 settlements
// each) with the whole activity catalogue at realistic stages (≈108,000 records), 400 contracts (100 of
// each kind, 30 clusters each), 20,000 topics, 200,000 comments (100,000 on topics, 100,000 on
// activities), 1,000,000 log rows, IJO holders and priorities; inventory items when the inventory tables
// exist. BENCH_SCALE=0.1 makes a tenth (for a quick try).
import { rmSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import { adminQuery, BENCH_ADMIN, startBenchServer } from './support.mjs';

/** The people the suite signs in as (password: the bench Admin's). */
export const BENCH_USERS = {
  admin: BENCH_ADMIN.email,
  /** Rukovodilac of firm 1 (a contractor: its 10 groups, 500 people, 300 clusters). */
  manager: 'bench.rukovodilac@trasa.test',
  /** Zaposleni of firm 1's first team: sees the firm's 300 clusters. */
  employee: 'bench.zaposleni@trasa.test',
};

/** Signs each of BENCH_USERS in on the server at `base`: their bearer tokens by role. */
export async function benchTokens(base) {
  const tokens = {};
  for (const [role, email] of Object.entries(BENCH_USERS)) {
    const res = await fetch(`${base}/api/user/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, lozinka: BENCH_ADMIN.password }),
    });
    const body = await res.json();
    if (!body.token) throw new Error(`sign-in of ${email}: ${res.status} ${JSON.stringify(body)}`);
    tokens[role] = body.token;
  }
  return tokens;
}

const scale = Number(process.env.BENCH_SCALE || 1);
export const SIZES = {
  firms: 100,
  teamsPerFirm: 9,
  usersPerGroup: 50,
  guests: 50,
  settlements: Math.round(9000 * scale),
  clusters: Math.round(3000 * scale),
  contractsPerKind: Math.max(1, Math.round(100 * scale)),
  topics: Math.round(20_000 * scale),
  topicComments: Math.round(100_000 * scale),
  activityComments: Math.round(100_000 * scale),
  logs: Math.round(1_000_000 * scale),
  inventory: Math.round(100_000 * scale),
};

const sqlArray = (list) => `ARRAY[${list.map((s) => `'${s.replace(/'/g, "''")}'`).join(',')}]`;

const PLACES = ['Čačak', 'Šabac', 'Niš', 'Užice', 'Kraljevo', 'Kruševac', 'Požarevac', 'Smederevo', 'Leskovac', 'Vranje'];
const PLACES_MORE = ['Zaječar', 'Pirot', 'Đurđevo', 'Sombor', 'Subotica', 'Valjevo', 'Loznica', 'Ivanjica', 'Raška', 'Priboj'];
const VILLAGES = ['Gornja Šljivica', 'Donje Žabare', 'Ćićevac', 'Sirogojno', 'Mokra Gora', 'Kremna', 'Zlatibor', 'Bajina Bašta'];
const VILLAGES_MORE = ['Kosjerić', 'Požega', 'Arilje', 'Lučani', 'Guča', 'Ljig', 'Mionica', 'Osečina', 'Krupanj', 'Đunis'];
const FIRST = ['Marko', 'Nikola', 'Stefan', 'Luka', 'Nemanja', 'Miloš', 'Đorđe', 'Dušan', 'Aleksandar', 'Vuk', 'Uroš', 'Filip'];
const FIRST_MORE = ['Jelena', 'Milica', 'Ana', 'Jovana', 'Marija', 'Ivana', 'Dragana', 'Tijana', 'Katarina', 'Snežana', 'Željka'];
const LAST = ['Jovanović', 'Petrović', 'Nikolić', 'Marković', 'Đorđević', 'Stojanović', 'Ilić', 'Stanković', 'Pavlović'];
const LAST_MORE = ['Milošević', 'Đukić', 'Kovačević', 'Živković', 'Šarić', 'Ćirić', 'Tomić', 'Lukić', 'Popović', 'Savić'];
const LAST_REST = ['Mitrović', 'Đurić', 'Obradović', 'Lazić', 'Ristić', 'Vasić', 'Simić', 'Čolić', 'Bošković', 'Radović'];
const FIRM_WORDS = ['Optika', 'Telekom gradnja', 'Mreža', 'Signal', 'Elektromontaža', 'Kabl', 'Trasa', 'Vlakno', 'Link', 'Spoj'];
const FIRM_CYR = ['Оптика', 'Телеком градња', 'Мрежа', 'Сигнал', 'Електромонтажа', 'Кабл', 'Траса', 'Влакно', 'Линк', 'Спој'];
const TOPIC_TEXTS = [
  'Oštećen optički kabl na trasi kod škole',
  'Nedostaje saglasnost vlasnika parcele za prolaz trase',
  'Šaht zatrpan posle asfaltiranja, potreban izlazak na teren',
  'Kašnjenje isporuke kabla i spojnica',
  'Izmena projekta zbog ukrštanja sa gasovodom',
  'Građevinska dozvola čeka dopunu dokumentacije',
  'Neusklađena dužina trase sa projektom',
  'Prekid radova zbog vremenskih uslova',
  'Zahtev za dodatnim priključcima domaćinstava',
  'Reklamacija na merenja OTDR',
  'Ćutanje uprave po zahtevu za prekopavanje puta',
  'Đubre i šut ostavljeni na gradilištu',
];
const COMMENT_TEXTS = [
  'Izašli smo na teren, stanje je kao u opisu.',
  'Dokumentacija je dopunjena i poslata.',
  'Čekamo odgovor nadzora.',
  'Kabl je zamenjen, merenja su u prilogu.',
  'Rok se pomera za dve nedelje zbog dozvola.',
  'Potrebna je saglasnost opštine.',
  'Šaht je očišćen i zatvoren.',
  'Izvođač je obavešten, radovi počinju u ponedeljak.',
];

/** Non-constraint indexes of a table, dropped before a bulk load; the returned statements rebuild them. */
async function dropIndexes(db, table) {
  // The definition, and a statistics target an index column was given (0023's letter index: 300; the path
  // of the log's search follows its estimates), which CREATE INDEX alone would not bring back.
  const { rows } = await db.query(
    `SELECT i.relname AS name, pg_get_indexdef(i.oid) AS def,
            coalesce((SELECT string_agg(format('ALTER INDEX %I ALTER COLUMN %s SET STATISTICS %s', i.relname, a.attnum, a.attstattarget), '; ')
                      FROM pg_attribute a WHERE a.attrelid = i.oid AND a.attstattarget > 0), '') AS stats
     FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid
     WHERE x.indrelid = $1::regclass AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = i.oid)`,
    [table],
  );
  for (const r of rows) await db.query(`DROP INDEX ${r.name}`);
  return rows.map((r) => (r.stats ? `${r.def}; ${r.stats}` : r.def));
}

/**
 * Creates the indexes `defs` (dropIndexes' answer) two at a time, on `db` and `second` (a second
 * connection, when given): an index build uses one core, and the machine has two. The trigram indexes
 * (the largest) go first, so the two connections finish close together.
 */
async function createIndexes(db, second, defs) {
  const queue = [...defs].sort((a, b) => Number(b.includes(' gin ')) - Number(a.includes(' gin ')));
  const work = async (c) => {
    for (let def = queue.shift(); def; def = queue.shift()) await c.query(def);
  };
  await Promise.all([work(db), ...(second ? [work(second)] : [])]);
}

/**
 * Fills the database behind `db` (a connected pg.Client, migrated and bootstrapped by the server) and
 * returns the row counts. `log(text)` reports each step with its time.
 */
export async function generate(db, log = console.log, second = null) {
  const t0 = Date.now();
  let step = Date.now();
  const done = (what) => {
    log(`  ${what}: ${((Date.now() - step) / 1000).toFixed(1)} s`);
    step = Date.now();
  };
  const S = SIZES;
  await db.query('SET synchronous_commit = off');
  await db.query("SET maintenance_work_mem = '256MB'");
  await db.query("SET work_mem = '64MB'");
  if (second) await second.query("SET maintenance_work_mem = '256MB'");

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
  const names = `f AS (SELECT ${sqlArray([...FIRST, ...FIRST_MORE])} AS a), l AS (SELECT ${sqlArray([...LAST, ...LAST_MORE, ...LAST_REST])} AS a)`;
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

  // Topics on random clusters, given to the cluster's contractor firm or one of its teams.
  // The per-cluster counts (migration 0025) are recounted once after the bulk inserts: each insert's statement
  // trigger would count every cluster's rows without the indexes dropped here (60 s for the comments).
  await db.query('ALTER TABLE topics DISABLE TRIGGER topics_counted_ins');
  await db.query('ALTER TABLE activity_comments DISABLE TRIGGER activity_comments_counted_ins');
  const topicIndexes = await dropIndexes(db, 'topics');
  await db.query(
    `WITH t AS (SELECT ${sqlArray(TOPIC_TEXTS)} AS a),
          u AS (SELECT array_agg(id) AS a FROM (SELECT id FROM users WHERE group_id IS NOT NULL LIMIT 5000) x)
     INSERT INTO topics (cluster_id, opis, group_id, rok, prioritet, status, created_by, created_at, updated_at)
     SELECT c.id, t.a[1 + i % array_length(t.a, 1)] || ' (' || i || ')',
            (SELECT g.id FROM bench_groups g WHERE g.firm = 1 + (c.n - 1) / $2::int ORDER BY g.n OFFSET i % 10 LIMIT 1),
            CASE WHEN i % 4 = 0 THEN NULL ELSE now() + ((i % 90) - 30) * interval '1 day' END,
            (ARRAY['nizak', 'srednji', 'visok'])[1 + i % 3], CASE WHEN i % 5 = 0 THEN 'zatvoren' ELSE 'otvoren' END,
            u.a[1 + i % array_length(u.a, 1)], now() - i * interval '13 minutes', now() - i * interval '11 minutes'
     FROM generate_series(1, $1::int) i JOIN bench_clusters c ON c.n = 1 + (i * 7919) % $3::int, t, u`,
    [S.topics, per, S.clusters],
  );
  await createIndexes(db, second, topicIndexes);
  const commentIndexes = await dropIndexes(db, 'topic_comments');
  // Numbered copies (temp tables with a key), so the comments below join by number, not by a scan per row.
  await db.query(`CREATE TEMP TABLE bench_topics AS
    SELECT id, group_id, created_by, row_number() OVER (ORDER BY created_at)::int AS r FROM topics`);
  await db.query('ALTER TABLE bench_topics ADD PRIMARY KEY (r); ANALYZE bench_topics');
  await db.query(
    `WITH x AS (SELECT ${sqlArray(COMMENT_TEXTS)} AS a), n AS (SELECT count(*)::int AS n FROM bench_topics)
     INSERT INTO topic_comments (topic_id, tekst, created_by, group_id, created_at)
     SELECT tp.id, x.a[1 + i % array_length(x.a, 1)], tp.created_by, tp.group_id, now() - i * interval '1 minute'
     FROM generate_series(1, $1::int) i CROSS JOIN n CROSS JOIN x JOIN bench_topics tp ON tp.r = 1 + i % n.n`,
    [S.topicComments],
  );
  await createIndexes(db, second, commentIndexes);
  done(`${S.topics} topics, ${S.topicComments} topic comments`);

  const activityCommentIndexes = await dropIndexes(db, 'activity_comments');
  await db.query(`CREATE TEMP TABLE bench_started AS
    SELECT id, row_number() OVER (ORDER BY id)::int AS r FROM activities WHERE status <> 'Nije započeta'`);
  await db.query('ALTER TABLE bench_started ADD PRIMARY KEY (r); ANALYZE bench_started');
  await db.query(`CREATE TEMP TABLE bench_people AS
    SELECT id, row_number() OVER (ORDER BY id)::int AS r FROM users WHERE group_id IS NOT NULL LIMIT 5000`);
  await db.query('ALTER TABLE bench_people ADD PRIMARY KEY (r); ANALYZE bench_people');
  await db.query(
    `WITH x AS (SELECT ${sqlArray(COMMENT_TEXTS)} AS a), n AS (SELECT count(*)::int AS n FROM bench_started)
     INSERT INTO activity_comments (activity_id, komentar, user_id, created_at)
     SELECT a.id, x.a[1 + i % array_length(x.a, 1)] || ' #' || i, p.id, now() - i * interval '3 minutes'
     FROM generate_series(1, $1::int) i CROSS JOIN n CROSS JOIN x
     JOIN bench_started a ON a.r = 1 + (i * 7) % n.n JOIN bench_people p ON p.r = 1 + i % 5000`,
    [S.activityComments],
  );
  await createIndexes(db, second, activityCommentIndexes);
  await db.query('ALTER TABLE topics ENABLE TRIGGER topics_counted_ins');
  await db.query('ALTER TABLE activity_comments ENABLE TRIGGER activity_comments_counted_ins');
  await db.query('SELECT trasa_cluster_list_recount(array(SELECT id FROM clusters))');
  done(`${S.activityComments} activity comments`);

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

  const inventory = await generateInventory(db, S.inventory, log, second);
  if (inventory) done(inventory);

  await db.query('VACUUM ANALYZE');
  done('VACUUM ANALYZE');

  const counts = {};
  for (const table of [
    'groups',
    'users',
    'settlements',
    'clusters',
    'cluster_settlements',
    'contracts',
    'activities',
    'topics',
    'topic_comments',
    'activity_comments',
    'audit_logs',
    'inventory_items',
  ]) {
    if (!(await db.query('SELECT to_regclass($1) IS NOT NULL AS ok', [table])).rows[0].ok) continue;
    counts[table] = (await db.query(`SELECT count(*)::int AS n FROM ${table}`)).rows[0].n;
  }
  counts.seconds = Math.round((Date.now() - t0) / 100) / 10;
  return counts;
}

/**
 * Inventory (migration 0009): 60 codebook types, 100 inventory contracts (30 clusters each, like the
 * general ones) and `n` items spread over the clusters, only when the tables exist. Returns what it made,
 * or '' when there is nothing to fill.
 */
async function generateInventory(db, n, log, second) {
  const exists = (await db.query(`SELECT to_regclass('inventory_items') IS NOT NULL AS ok`)).rows[0].ok;
  if (!exists) {
    log('  inventory: no inventory tables in this schema (migration 0009 not applied), skipped');
    return '';
  }
  await db.query(
    `INSERT INTO inventory_types (naziv, kratak_naziv, tip, trajanje_garancije, cena, valuta, cena_rsd, sifra, redni_broj, jedinica)
     SELECT (ARRAY['Optički kabl', 'Spojnica', 'Ormar', 'Razdelnik', 'Iskop rova', 'Polaganje cevi'])[1 + t % 6] || ' ' || t,
            'INV' || t, (ARRAY['Materijal', 'Oprema', 'Radovi'])[1 + t % 3], CASE WHEN t % 3 = 1 THEN 24 END,
            10 + t * 3.5, 'RSD', 10 + t * 3.5, 'S-' || lpad(t::text, 4, '0'), t, (ARRAY['m', 'kom', 'kom', 'kom', 'm', 'm'])[1 + t % 6]
     FROM generate_series(1, 60) t ON CONFLICT DO NOTHING`,
  );
  await db.query(
    `INSERT INTO inventory_contracts (naziv, broj, broj_key, datum_pocetka)
     SELECT 'Ugovor o isporuci opreme ' || j, 'INV-' || j || '/2025', lower('INV-' || j || '/2025'), current_date - 300 + j
     FROM generate_series(1, 100) j ON CONFLICT DO NOTHING`,
  );
  await db.query(
    `WITH k AS (SELECT id, substring(naziv FROM '(\\d+)$')::int AS j FROM inventory_contracts WHERE naziv LIKE 'Ugovor o isporuci opreme %')
     INSERT INTO inventory_contract_locations (contract_id, cluster_id)
     SELECT k.id, c.id FROM bench_clusters c JOIN k ON k.j = 1 + (c.n - 1) * 100 / (SELECT count(*) FROM bench_clusters) ON CONFLICT DO NOTHING`,
  );
  const indexes = await dropIndexes(db, 'inventory_items');
  await db.query(`CREATE TEMP TABLE bench_types AS SELECT id, row_number() OVER (ORDER BY sifra)::int AS r FROM inventory_types`);
  await db.query(
    `WITH nt AS (SELECT count(*)::int AS n FROM bench_types), nc AS (SELECT count(*)::int AS n FROM bench_clusters)
     INSERT INTO inventory_items (type_id, cluster_id, contract_id, kolicina, cena_rsd, datum_primopredaje, created_at)
     SELECT t.id, c.id, l.contract_id, 1 + (i * 37) % 500, 10 + (i * 13) % 9000, current_date - (i % 400), now() - i * interval '2 minutes'
     FROM generate_series(1, $1::int) i CROSS JOIN nt CROSS JOIN nc
     JOIN bench_types t ON t.r = 1 + i % nt.n
     JOIN bench_clusters c ON c.n = 1 + (i * 7) % nc.n
     LEFT JOIN LATERAL (SELECT contract_id FROM inventory_contract_locations x WHERE x.cluster_id = c.id LIMIT 1) l ON true`,
    [n],
  );
  await createIndexes(db, second, indexes);
  return `${n} inventory items (60 types, 100 inventory contracts)`;
}

/** Where bench:generate writes and bench reads: { databaseUrl } on DATABASE_URL's server, else { dataDir }. */
export function benchTarget() {
  if (process.env.DATABASE_URL) {
    const u = new URL(process.env.DATABASE_URL);
    u.pathname = `/${process.env.BENCH_DB || 'trasa_bench'}`;
    return { databaseUrl: u.toString(), name: process.env.BENCH_DB || 'trasa_bench' };
  }
  return { dataDir: path.resolve(process.env.BENCH_DATA_DIR || '.data-bench') };
}

/** Empties the target, starts the server on it (migrations, reference data), fills it, stops. */
export async function generateFresh(target = benchTarget()) {
  const started = Date.now();
  if (target.databaseUrl) {
    await adminQuery(process.env.DATABASE_URL, `DROP DATABASE IF EXISTS ${target.name} WITH (FORCE)`);
    await adminQuery(process.env.DATABASE_URL, `CREATE DATABASE ${target.name}`);
  } else {
    rmSync(target.dataDir, { recursive: true, force: true });
  }
  console.log(`generating into ${target.databaseUrl ?? target.dataDir} (scale ${scale})`);
  const server = await startBenchServer({}, target);
  const db = new pg.Client({ connectionString: server.dbUrl });
  const second = new pg.Client({ connectionString: server.dbUrl });
  try {
    await db.connect();
    await second.connect();
    console.log(`  server started, migrations and reference data: ${((Date.now() - started) / 1000).toFixed(1)} s`);
    const counts = await generate(db, console.log, second);
    const total = ((Date.now() - started) / 1000).toFixed(1);
    console.log(
      `made ${Object.entries(counts)
        .filter(([k]) => k !== 'seconds')
        .map(([k, v]) => `${k} ${v.toLocaleString('en')}`)
        .join(', ')} in ${counts.seconds} s of SQL, ${total} s in all`,
    );
    return counts;
  } finally {
    await db.end().catch(() => undefined);
    await second.end().catch(() => undefined);
    await server.stop();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  await generateFresh();
}
