// The audit log at 1,000,000 rows: `npm run build -w @trasa/server && node bench/logs.mjs`.
// Starts the built server on a fresh database (embedded, or a new one at DATABASE_URL), inserts
// 1,000,000 log rows of 56 groups (8 firms of 7) with one INSERT … SELECT generate_series, then loads
// the list, deep pages and searches as the Admin, a Rukovodilac (a firm: 7 groups) and a Zaposleni (one
// team): each case alone (20 requests in a row) and with autocannon at 10 connections. Target: page 1
// and a search p99 ≤ 50 ms, page 2,500 ≤ 100 ms; the my-profile baseline shows what the machine allows.
// BENCH_ROWS and BENCH_SECONDS change the size and the time per case.
// BENCH_DB=postgres://…/db: instead, a kept database made by bench/generate.mjs (a COPY of trasa_bench:
// 1,000,000 log rows of 1,000 groups of ~900 rows; the server migrates it) and its bench people, with
// rare and frequent searches per role and the CPU per request of the server and its PostgreSQL.
import os from 'node:os';
import autocannon from 'autocannon';
import pg from 'pg';
import { adminToken, BENCH_ADMIN, cpuMeter, startBenchServer } from './support.mjs';

const ROWS = Number(process.env.BENCH_ROWS || 1_000_000);
const duration = Number(process.env.BENCH_SECONDS || 10);
const connections = 10;

/**
 * The log's indexes (drizzle/0006_log_search.sql): dropped before the bulk insert and built after it,
 * which is several times faster than maintaining them row by row.
 */
const INDEXES = [
  'CREATE INDEX audit_logs_created_id_idx ON audit_logs USING btree (created_at, id) INCLUDE (group_id)',
  'CREATE INDEX audit_logs_group_created_idx ON audit_logs USING btree (group_id, created_at, id)',
  'CREATE INDEX audit_logs_search_idx ON audit_logs USING gin (search_text gin_trgm_ops)',
];

const sqlArray = (list) => `ARRAY[${list.map((s) => `'${s.replace(/'/g, "''")}'`).join(',')}]`;
const FIRST = ['Marko', 'Nikola', 'Stefan', 'Luka', 'Nemanja', 'Miloš', 'Đorđe', 'Dušan', 'Jelena', 'Milica', 'Ana', 'Jovana'];
const FIRST_MORE = ['Snežana', 'Željka', 'Ivana', 'Dragana'];
const LAST = ['Jovanović', 'Petrović', 'Nikolić', 'Marković', 'Đorđević', 'Stojanović', 'Ilić', 'Pavlović', 'Đukić', 'Kovačević'];
const LAST_MORE = ['Živković', 'Šarić', 'Ćirić', 'Tomić', 'Lukić', 'Popović', 'Savić', 'Čolić', 'Bošković', 'Radović'];
const PLACES = ['Šljivovica', 'Čajetina', 'Đurđevo', 'Žabari', 'Ćićevac', 'Sirogojno', 'Mokra Gora', 'Kremna', 'Zlatibor', 'Bajina Bašta'];
const PLACES_MORE = ['Kosjerić', 'Požega', 'Arilje', 'Ivanjica', 'Lučani', 'Guča', 'Čačak', 'Gornji Milanovac', 'Ljig', 'Mionica'];
const PLACES_REST = ['Valjevo', 'Ub', 'Lajkovac', 'Osečina', 'Ljubovija', 'Loznica', 'Krupanj', 'Mali Zvornik', 'Šabac', 'Bogatić'];
const PLACES_LAST = ['Vladimirci', 'Koceljeva', 'Knić', 'Rača', 'Topola', 'Aranđelovac', 'Žagubica', 'Kučevo', 'Despotovac', 'Ćuprija'];

/** Ten kinds of rows as the features write them (message, url), one in ten without a group. */
const FILL = `
  WITH f AS (SELECT ${sqlArray([...FIRST, ...FIRST_MORE])} AS a),
       l AS (SELECT ${sqlArray([...LAST, ...LAST_MORE])} AS a),
       s AS (SELECT ${sqlArray([...PLACES, ...PLACES_MORE, ...PLACES_REST, ...PLACES_LAST])} AS a),
       g AS (SELECT array_agg(id ORDER BY naziv) AS ids, array_agg(cirilica ORDER BY naziv) AS cyr FROM groups WHERE naziv LIKE 'Bench firma %'),
       x AS (
         SELECT i, f.a[1 + (i * 7) % 16] AS ime, l.a[1 + (i * 13 + i / 97) % 20] AS prezime, (i * 31) % 2000 AS person,
                s.a[1 + (i / 10) % 40] || ' ' || (1 + (i / 400) % 25) AS place, i % 10 AS kind,
                CASE WHEN (i / 10) % 10 = 0 THEN NULL ELSE 1 + (i * 53 + i / 1000) % 56 END AS gi
         FROM generate_series(1, $1::int) i, f, l, s
       ),
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
         now() - (($1::int - y.i) * interval '63 seconds')
  FROM y, g`;

async function login(base, email, password) {
  const res = await fetch(`${base}/api/user/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, lozinka: password }),
  });
  const body = await res.json();
  if (!body.token) throw new Error(`login ${email}: ${JSON.stringify(body)}`);
  return body.token;
}

const KEPT = process.env.BENCH_DB;
const server = await startBenchServer({}, KEPT ? { databaseUrl: KEPT, quiet: true } : {});
const base = server.base;
let db;
try {
  db = new pg.Client({ connectionString: server.dbUrl ?? KEPT });
  await db.connect();
  if (KEPT) {
    await keptDatabase();
  } else {
    await freshDatabase();
  }
} finally {
  await db?.end().catch(() => undefined);
  // Let the last requests autocannon left in flight finish before the server stops.
  await new Promise((r) => setTimeout(r, 1000));
  await server.stop();
}

/** The cases on a kept database (BENCH_DB): its bench Admin, Rukovodilac (10 groups) and Zaposleni (one team). */
async function keptDatabase() {
  const tokens = {
    Admin: await adminToken(base),
    Rukovodilac: await login(base, 'bench.rukovodilac@trasa.test', BENCH_ADMIN.password),
    Zaposleni: await login(base, 'bench.zaposleni@trasa.test', BENCH_ADMIN.password),
  };
  const search = (text, cyr) => `/api/search/log?eng=${encodeURIComponent(text)}&srb=${encodeURIComponent(cyr)}&page=1&limit=10`;
  const cases = [];
  for (const role of ['Admin', 'Rukovodilac', 'Zaposleni']) {
    cases.push(
      [role, 'page 1', '/api/log?page=1&limit=10'],
      [role, "search 'prijavio' (frequent)", search('prijavio', 'пријавио')],
      [role, "search 'marko.123' (rare)", search('marko.123', 'марко.123')],
      [role, "search '10.20.30' (an IP, rare)", search('10.20.30', '10.20.30')],
      [role, "search 'xyzq' (nothing)", search('xyzq', 'xyzq')],
      // Rare words whose every trigram is frequent (the trigram index reads long posting lists for
      // nothing): a surname and two settlements that no row holds, and the suite's 'cacak' (1.3 %).
      [role, "search 'Radovanović' (a surname, nothing)", search('Radovanović', 'Радовановић')],
      [role, "search 'Markovac' (a settlement, nothing)", search('Markovac', 'Марковац')],
      [role, "search 'Jovanovac' (a settlement, nothing)", search('Jovanovac', 'Јовановац')],
      [role, "search 'cacak' (1.3 %)", search('cacak', 'чачак')],
    );
  }
  await runCases(cases, tokens);
}

async function runCases(cases, tokens) {
  console.log(
    `\n${duration} s per case, ${connections} connections, server on ${KEPT ? 'BENCH_DB' : server.onEmbedded ? 'embedded PostgreSQL' : 'DATABASE_URL'}, load average ${os
      .loadavg()
      .map((n) => n.toFixed(1))
      .join(' ')}`,
  );
  // Alone: 20 requests one after another (the database and CPU cost of one request, little queueing);
  // then 10 connections for the throughput and the tail.
  for (const [role, title, url] of cases) {
    const headers = { authorization: `Bearer ${tokens[role]}` };
    const sample = await (await fetch(base + url, { headers })).json();
    const alone = [];
    for (let i = 0; i < 20; i++) {
      const t = performance.now();
      await (await fetch(base + url, { headers })).arrayBuffer();
      alone.push(performance.now() - t);
    }
    alone.sort((a, b) => a - b);
    const meter = await cpuMeter(db, server.pid);
    const r = await autocannon({ url: base + url, headers, connections, duration });
    const cpu = await meter(r.requests.total);
    const total = sample.logs ? `${sample.totalExact ? '' : '≈'}${sample.totalLogs}` : '-';
    console.log(
      `${role.padEnd(11)} ${title.padEnd(42)} alone p50 ${alone[10].toFixed(1).padStart(5)} ms | ${String(Math.round(r.requests.average)).padStart(5)} req/s  p50 ${String(r.latency.p50).padStart(3)} ms  p99 ${String(r.latency.p99).padStart(3)} ms  non-2xx ${r.non2xx}  rows ${sample.logs?.length ?? '-'} of ${total}  CPU/request Node ${cpu.node.toFixed(1)} ms, PostgreSQL ${cpu.postgres.toFixed(1)} ms, load ${os.loadavg()[0].toFixed(1)}`,
    );
  }
}

/** A fresh database filled with BENCH_ROWS rows of 56 groups (the default). */
async function freshDatabase() {
  let started = Date.now();
  const seconds = () => ((Date.now() - started) / 1000).toFixed(1);
  for (const name of ['audit_logs_created_id_idx', 'audit_logs_group_created_idx', 'audit_logs_search_idx']) {
    await db.query(`DROP INDEX IF EXISTS ${name}`);
  }
  await db.query(`
    INSERT INTO groups (naziv, kratak_naziv, cirilica, type_id)
    SELECT 'Bench firma ' || o, 'BF' || o, 'Бенч фирма ' || o, (SELECT id FROM group_types WHERE code = 'IZVODJAC')
    FROM generate_series(1, 8) o`);
  await db.query(`
    INSERT INTO groups (naziv, kratak_naziv, cirilica, type_id, parent_id)
    SELECT 'Bench firma ' || o || ' tim ' || t, 'BF' || o || 'T' || t, 'Бенч фирма ' || o || ' тим ' || t,
           (SELECT id FROM group_types WHERE code = 'IZVODJAC'), (SELECT id FROM groups WHERE naziv = 'Bench firma ' || o)
    FROM generate_series(1, 8) o, generate_series(1, 6) t`);
  await db.query(FILL, [ROWS]);
  console.log(`\ninserted ${ROWS} log rows in ${seconds()} s`);
  started = Date.now();
  for (const statement of INDEXES) await db.query(statement);
  await db.query('VACUUM ANALYZE audit_logs');
  await db.query('ANALYZE groups');
  const size = await db.query(
    `SELECT pg_size_pretty(pg_relation_size('audit_logs')) AS heap,
            (SELECT string_agg(indexrelname || ' ' || pg_size_pretty(pg_relation_size(indexrelid)), ', ' ORDER BY indexrelname)
               FROM pg_stat_user_indexes WHERE relname = 'audit_logs') AS indexes`,
  );
  console.log(`indexes built and analysed in ${seconds()} s; table ${size.rows[0].heap}; ${size.rows[0].indexes}`);

  // A Rukovodilac of firm 3 (its 7 groups) and a Zaposleni of one of its teams, with the bench Admin's password.
  await db.query(
    `INSERT INTO users (ime, prezime, email, email_potvrdjen, status, role_id, group_id, password_hash)
     SELECT v.ime, v.prezime, v.email, true, 'aktivan', (SELECT id FROM roles WHERE base_role = v.rola AND builtin),
            (SELECT id FROM groups WHERE naziv = v.grupa), (SELECT password_hash FROM users WHERE email = $1)
     FROM (VALUES ('Milan', 'Rukovodić', 'menadzer@firma3.rs', 'Rukovodilac', 'Bench firma 3'),
                  ('Petar', 'Zaposlić', 'zaposleni@firma3.rs', 'Zaposleni', 'Bench firma 3 tim 2')) v(ime, prezime, email, rola, grupa)`,
    [BENCH_ADMIN.email],
  );
  const tokens = {
    Admin: await adminToken(base),
    Rukovodilac: await login(base, 'menadzer@firma3.rs', BENCH_ADMIN.password),
    Zaposleni: await login(base, 'zaposleni@firma3.rs', BENCH_ADMIN.password),
  };
  const search = (text, cyr) => `/api/search/log?eng=${encodeURIComponent(text)}&srb=${encodeURIComponent(cyr)}&page=1&limit=10`;
  const cases = [
    ['Admin', 'baseline: GET /api/user/my-profile', '/api/user/my-profile'],
    ['Admin', 'page 1', '/api/log?page=1&limit=10'],
    ['Admin', 'page 2', '/api/log?page=2&limit=10'],
    ['Admin', 'page 2,500', '/api/log?page=2500&limit=10'],
    ['Admin', 'one group (/app/logovi/{naziv}) page 1', `/api/log?group=${encodeURIComponent('Бенч фирма 5 тим 4')}&page=1&limit=10`],
    ['Admin', "search 'prijavio' (10 % of rows)", search('prijavio', 'пријавио')],
    ['Admin', "search 'klaster sirogojno' (1 %)", search('klaster sirogojno', 'кластер сирогојно')],
    ['Admin', "search 'marko.123' (an e-mail, 0.05 %)", search('marko.123', 'марко.123')],
    ['Admin', "search '10.20.30' (an IP, 16 rows)", search('10.20.30', '10.20.30')],
    ['Admin', "search 'radova 17/2025' (a phrase, 0.3 %)", search('radova 17/2025', 'радова 17/2025')],
    ['Admin', "search 'Đorđević' (5 %)", search('Đorđević', 'Ђорђевић')],
    ['Admin', "search 'xyzq' (nothing)", search('xyzq', 'xyzq')],
    ['Rukovodilac', 'page 1 (7 groups)', '/api/log?page=1&limit=10'],
    ['Rukovodilac', 'page 2,500', '/api/log?page=2500&limit=10'],
    ['Rukovodilac', "search 'klaster'", search('klaster', 'кластер')],
    ['Zaposleni', 'page 1 (1 group)', '/api/log?page=1&limit=10'],
    ['Zaposleni', 'page 1,000', '/api/log?page=1000&limit=10'],
    ['Zaposleni', "search 'marko'", search('marko', 'марко')],
  ];
  await runCases(cases, tokens);
}
