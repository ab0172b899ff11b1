// Transliteration-aware user search at 50,000 users: `npm run build -w @trasa/server && node bench/users-search.mjs`.
// Starts the built server on a fresh embedded database (or a new database at DATABASE_URL), inserts
// 50,000 users with Serbian names in one INSERT … SELECT generate_series, then loads
// GET /api/search/user?eng=djordj&srb=дјордј as the Admin. Prints requests/s, p50/p99 latency, the
// number of matches and the plan of the query (which must use the trigram index users_search_idx).
import autocannon from 'autocannon';
import pg from 'pg';
import { adminToken, startBenchServer } from './support.mjs';

const USERS = Number(process.env.BENCH_USERS || 50_000);
const duration = Number(process.env.BENCH_SECONDS || 10);

// Common Serbian first and last names; the last names include the diacritics the search folds.
const FIRST = [
  'Marko',
  'Nikola',
  'Stefan',
  'Luka',
  'Nemanja',
  'Miloš',
  'Đorđe',
  'Dušan',
  'Aleksandar',
  'Vuk',
  'Uroš',
  'Filip',
  'Jelena',
  'Milica',
  'Ana',
  'Jovana',
  'Marija',
  'Ivana',
  'Dragana',
  'Tijana',
  'Katarina',
  'Snežana',
  'Gordana',
  'Željka',
];
const LAST = [
  'Jovanović',
  'Petrović',
  'Nikolić',
  'Marković',
  'Đorđević',
  'Stojanović',
  'Ilić',
  'Stanković',
  'Pavlović',
  'Milošević',
  'Đukić',
  'Kovačević',
  'Živković',
  'Šarić',
  'Ćirić',
  'Tomić',
  'Lukić',
  'Popović',
  'Savić',
  'Mitrović',
  'Đurić',
  'Obradović',
  'Lazić',
  'Ristić',
  'Vasić',
  'Simić',
  'Čolić',
  'Bošković',
  'Radović',
  'Nedeljković',
  'Janković',
  'Kostić',
];
const sqlArray = (list) => `ARRAY[${list.map((s) => `'${s.replace(/'/g, "''")}'`).join(',')}]`;

const server = await startBenchServer();
const base = server.base;
let db;
try {
  db = new pg.Client({ connectionString: server.dbUrl });
  await db.connect();

  const started = Date.now();
  await db.query(`
    INSERT INTO groups (naziv, kratak_naziv, cirilica, type_id)
    SELECT 'Bench izvođač ' || g, 'BI' || g, 'Бенч извођач ' || g, (SELECT id FROM group_types WHERE code = 'IZVODJAC')
    FROM generate_series(1, 20) g`);
  await db.query(
    `
    WITH f AS (SELECT ${sqlArray(FIRST)} AS a), l AS (SELECT ${sqlArray(LAST)} AS a),
         g AS (SELECT array_agg(id ORDER BY naziv) AS a FROM groups WHERE naziv LIKE 'Bench izvođač %'),
         r AS (SELECT id FROM roles WHERE base_role = 'Zaposleni' AND builtin)
    INSERT INTO users (ime, prezime, email, email_potvrdjen, status, role_id, group_id, password_hash)
    SELECT n.ime, n.prezime,
           replace(translate(lower(n.ime || '.' || n.prezime), 'čćšž', 'ccsz'), 'đ', 'dj') || '.' || i || '@firma.rs',
           true, 'aktivan', (SELECT id FROM r), g.a[1 + i % 20], '!'
    FROM generate_series(1, $1::int) i, f, l, g,
         LATERAL (SELECT f.a[1 + (i * 7) % array_length(f.a, 1)] AS ime,
                         l.a[1 + (i * 13 + i / 97) % array_length(l.a, 1)] AS prezime) n`,
    [USERS],
  );
  await db.query('ANALYZE users; ANALYZE groups');
  console.log(`\ninserted ${USERS} users in ${((Date.now() - started) / 1000).toFixed(1)} s`);

  const token = await adminToken(base);
  const headers = { authorization: `Bearer ${token}` };
  const query = `eng=djordj&srb=${encodeURIComponent('дјордј')}&page=1&limit=10`;
  const sample = await (await fetch(`${base}/api/search/user?${query}`, { headers })).json();
  console.log(`search 'djordj' / 'дјордј': ${sample.totalResults} matches, first: ${sample.users[0]?.ime} ${sample.users[0]?.prezime}`);

  // The plan of the page query the server runs for this search (same conditions, bound parameters).
  // The two queries the server runs for this search (same conditions, bound parameters, and the
  // planner setting the search sets in its transaction).
  const match = `u.deleted_at IS NULL AND u.search_text LIKE '%' || trasa_fold($1) || '%'`;
  const explained = [
    ['count', `SELECT count(*) FROM users u WHERE ${match}`],
    ['page', `SELECT u.id FROM users u JOIN roles r ON r.id = u.role_id WHERE ${match} ORDER BY u.prezime, u.ime, u.id LIMIT 10`],
  ];
  await db.query('BEGIN');
  await db.query('SET LOCAL enable_seqscan = off');
  for (const [title, text] of explained) {
    const plan = await db.query(`EXPLAIN (ANALYZE, COSTS OFF) ${text}`, ['djordj']);
    const planText = plan.rows.map((r) => r['QUERY PLAN']).join('\n');
    console.log(`\nEXPLAIN ANALYZE of the ${title} query:\n${planText}`);
  }
  await db.query('COMMIT');
  console.log('');

  const cases = [
    { title: `GET /api/search/user?${decodeURIComponent(query)}`, url: `/api/search/user?${query}` },
    { title: 'GET /api/user?page=1&limit=10 (the plain list, for comparison)', url: '/api/user?page=1&limit=10' },
  ];
  console.log(
    `${duration} s per case, 20 connections, ${USERS} users, server on ${server.onEmbedded ? 'embedded PostgreSQL' : 'DATABASE_URL'}`,
  );
  for (const c of cases) {
    const r = await autocannon({ url: base + c.url, headers, connections: 20, duration });
    console.log(
      `${c.title}: ${Math.round(r.requests.average)} req/s, p50 ${r.latency.p50} ms, p99 ${r.latency.p99} ms, non-2xx ${r.non2xx}`,
    );
  }
} finally {
  await db?.end().catch(() => undefined);
  // Let the last requests autocannon left in flight finish before the server stops.
  await new Promise((r) => setTimeout(r, 1000));
  await server.stop();
}
