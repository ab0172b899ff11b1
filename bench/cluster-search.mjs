// Cluster search by settlement and group names (issue 14): `npm run build -w @trasa/server && node bench/cluster-search.mjs`.
// Starts the built server on a fresh database, inserts BENCH_CLUSTERS clusters (default 5,000), each with
// four settlements and a responsible group, then loads GET /api/search/location as the Admin with a
// settlement name, a group name and a cluster name. Prints requests/s, p50/p99, the matches and the
// plans of the queries (the EXISTS subqueries over the trigram indexes of settlements and groups).
import autocannon from 'autocannon';
import pg from 'pg';
import { adminToken, startBenchServer } from './support.mjs';

const CLUSTERS = Number(process.env.BENCH_CLUSTERS || 5_000);
const duration = Number(process.env.BENCH_SECONDS || 10);

const VILLAGES = ['Sirogojno', 'Rožanstvo', 'Jablanica', 'Šljivovica', 'Ljubiš', 'Gostilje', 'Drežnik', 'Kremna', 'Mokra Gora', 'Đurđevac'];
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
    FROM generate_series(1, 200) g`);
  await db.query(
    `INSERT INTO settlements (code, naziv) SELECT 'B-' || i, (${sqlArray(VILLAGES)})[1 + i % 10] || ' ' || i FROM generate_series(1, $1::int) i`,
    [CLUSTERS * 4],
  );
  await db.query(`INSERT INTO clusters (naziv) SELECT 'Klaster ' || i FROM generate_series(1, $1::int) i`, [CLUSTERS]);
  await db.query(`
    WITH c AS (SELECT id, row_number() OVER (ORDER BY naziv) AS n FROM clusters),
         s AS (SELECT id, row_number() OVER (ORDER BY code) AS n FROM settlements WHERE code LIKE 'B-%')
    INSERT INTO cluster_settlements (cluster_id, settlement_id, usputno, position)
    SELECT c.id, s.id, (s.n % 4 = 0), (s.n % 4)::int FROM c JOIN s ON (s.n - 1) / 4 + 1 = c.n`);
  await db.query(`
    WITH c AS (SELECT id, row_number() OVER (ORDER BY naziv) AS n FROM clusters),
         g AS (SELECT id, row_number() OVER (ORDER BY naziv) AS n FROM groups WHERE naziv LIKE 'Bench izvođač %')
    INSERT INTO cluster_groups (cluster_id, group_id) SELECT c.id, g.id FROM c JOIN g ON g.n = 1 + c.n % 200`);
  await db.query('ANALYZE clusters; ANALYZE settlements; ANALYZE groups; ANALYZE cluster_settlements; ANALYZE cluster_groups');
  console.log(`\ninserted ${CLUSTERS} clusters, ${CLUSTERS * 4} settlements in ${((Date.now() - started) / 1000).toFixed(1)} s`);

  const token = await adminToken(base);
  const headers = { authorization: `Bearer ${token}` };
  const searches = [
    ['settlement', 'sirogojno 12', 'сирогојно 12'],
    ['group', 'izvođač 17', 'извођач 17'],
    ['cluster', 'klaster 42', 'кластер 42'],
  ];
  for (const [what, eng, srb] of searches) {
    const q = new URLSearchParams({ eng, srb, page: '1', limit: '10' });
    const sample = await (await fetch(`${base}/api/search/location?${q}`, { headers })).json();
    console.log(`by ${what} '${eng}': ${sample.totalResults} matches, first: ${sample.locations[0]?.naziv}`);
  }

  // The server's two queries for one term (an Admin sees every cluster).
  const match = `(c.search_text LIKE '%' || trasa_fold($1) || '%'
    OR c.id IN (SELECT cs.cluster_id FROM cluster_settlements cs JOIN settlements s ON s.id = cs.settlement_id
                WHERE s.search_text LIKE '%' || trasa_fold($1) || '%')
    OR c.id IN (SELECT cg.cluster_id FROM cluster_groups cg JOIN groups g ON g.id = cg.group_id
                WHERE g.search_text LIKE '%' || trasa_fold($1) || '%'))`;
  for (const [title, text] of [
    ['count', `SELECT count(*) FILTER (WHERE ${match}) FROM clusters c`],
    ['page', `SELECT c.id FROM clusters c WHERE ${match} ORDER BY c.naziv COLLATE trasa_sr, c.id LIMIT 10`],
  ]) {
    const plan = await db.query(`EXPLAIN (ANALYZE, COSTS OFF) ${text}`, ['sirogojno 12']);
    console.log(`\nEXPLAIN ANALYZE of the ${title} query:\n${plan.rows.map((r) => r['QUERY PLAN']).join('\n')}`);
  }
  console.log('');

  for (const [what, eng, srb] of searches) {
    const url = `${base}/api/search/location?${new URLSearchParams({ eng, srb, page: '1', limit: '10' })}`;
    const r = await autocannon({ url, headers, connections: 20, duration });
    console.log(
      `search by ${what}: ${Math.round(r.requests.average)} req/s, p50 ${r.latency.p50} ms, p99 ${r.latency.p99} ms, non-2xx ${r.non2xx}`,
    );
  }
  const list = await autocannon({ url: `${base}/api/location?page=1&limit=10`, headers, connections: 20, duration });
  console.log(
    `GET /api/location (no search): ${Math.round(list.requests.average)} req/s, p50 ${list.latency.p50} ms, p99 ${list.latency.p99} ms`,
  );
} finally {
  await db?.end().catch(() => undefined);
  await new Promise((r) => setTimeout(r, 1000));
  await server.stop();
}
