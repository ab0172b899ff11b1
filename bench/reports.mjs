import os from 'node:os';
import autocannon from 'autocannon';
import pg from 'pg';
import { adminToken, cpuMeter as cpuMeterOf, startBenchServer } from './support.mjs';

const CLUSTERS = Number(process.env.BENCH_CLUSTERS || 3_000);
const duration = Number(process.env.BENCH_SECONDS || 8);
const connections = Number(process.env.BENCH_CONNECTIONS || 10);
// BENCH_ACCEPT_ENCODING (e.g. br): sent as Accept-Encoding, as a browser does (default: none, plain answers).
const acceptEncoding = process.env.BENCH_ACCEPT_ENCODING || '';
// BENCH_CALLS: only the calls whose path contains one of these comma-separated parts (e.g. ijo-takse,compare).
const only = (process.env.BENCH_CALLS || '').split(',').filter(Boolean);

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
    `INSERT INTO contracts (kind, naziv, broj, datum_pocetka, rok_trajanja) VALUES ('contract', 'Bench ugovor', 'B-1', '2025-01-01', 900)`,
  );
  await db.query(`INSERT INTO ijo_holders (naziv, odgovoran) VALUES ('Bench EPS', 'Izvođač'), ('Bench Putevi', 'Naručilac')`);
  await db.query(`INSERT INTO settlements (code, naziv) SELECT 'B-' || i, 'Naselje ' || i FROM generate_series(1, $1::int) i`, [
    CLUSTERS * 2,
  ]);
  await db.query(`INSERT INTO clusters (naziv) SELECT 'Klaster ' || i FROM generate_series(1, $1::int) i`, [CLUSTERS]);
  await db.query(`
    WITH c AS (SELECT id, row_number() OVER (ORDER BY naziv) AS n FROM clusters),
         s AS (SELECT id, row_number() OVER (ORDER BY code) AS n FROM settlements WHERE code LIKE 'B-%')
    INSERT INTO cluster_settlements (cluster_id, settlement_id, usputno, position)
    SELECT c.id, s.id, false, (s.n % 2)::int FROM c JOIN s ON (s.n - 1) / 2 + 1 = c.n`);
  await db.query(`
    WITH c AS (SELECT id, row_number() OVER (ORDER BY naziv) AS n FROM clusters),
         g AS (SELECT id, row_number() OVER (ORDER BY naziv) AS n FROM groups WHERE naziv LIKE 'Bench izvođač %')
    INSERT INTO cluster_groups (cluster_id, group_id) SELECT c.id, g.id FROM c JOIN g ON g.n = 1 + c.n % 200`);
  await db.query(
    `INSERT INTO contract_clusters (contract_id, cluster_id, kind) SELECT (SELECT id FROM contracts WHERE broj = 'B-1'), id, 'contract' FROM clusters`,
  );
  // Every catalogue activity per cluster; the first `done` (by position) finished, the next in progress.
  await db.query(`
    WITH c AS (SELECT id, (row_number() OVER (ORDER BY naziv)) % 37 AS done FROM clusters)
    INSERT INTO activities (cluster_id, code, position, status, datum_pocetka, datum_zavrsetka, rok_zavrsetka, podaci)
    SELECT c.id, k.code, k.position,
      CASE WHEN k.position < c.done THEN 'Završena' WHEN k.position = c.done THEN 'U toku' ELSE 'Nije započeta' END,
      CASE WHEN k.position <= c.done THEN date '2025-06-01' + k.position * 7 END,
      CASE WHEN k.position < c.done THEN date '2025-06-01' + k.position * 7 + (k.position % 9) END,
      CASE WHEN k.position <= c.done THEN date '2025-06-01' + k.position * 7 + coalesce(k.rok, 30) END,
      CASE
        WHEN k.code = 'A7' AND k.position <= c.done THEN jsonb_build_array(
          jsonb_build_object('key', 'Ijos', 'naziv', 'IJO', 'vrednost', (SELECT string_agg(id::text, ',' ORDER BY naziv) FROM ijo_holders)),
          jsonb_build_object('key', 'A7IjoChecked', 'naziv', '', 'vrednost', (SELECT min(id::text) FROM ijo_holders)),
          jsonb_build_object('key', 'A7Taksa', 'naziv', '', 'vrednost', '1500.5', 'ref', (SELECT min(id::text) FROM ijo_holders)))
        WHEN k.code IN ('A9', 'A12') THEN jsonb_build_array(jsonb_build_object('key', 'DuzinaTrase', 'naziv', '', 'vrednost', (100 + c.done * 7)::text))
        WHEN k.code = 'A1' THEN (SELECT jsonb_agg(jsonb_build_object('key', 'DuzinaTrase', 'naziv', '', 'vrednost', '1234.5', 'ref', cs.settlement_id::text))
          FROM cluster_settlements cs WHERE cs.cluster_id = c.id)
        ELSE '[]'::jsonb END
    FROM c CROSS JOIN activity_catalogue k`);
  // VACUUM as autovacuum would after a bulk insert: the visibility map lets counts be index-only scans.
  await db.query('VACUUM ANALYZE');
  const [{ n }] = (await db.query('SELECT count(*)::int AS n FROM activities')).rows;
  console.log(`\ninserted ${CLUSTERS} clusters, ${n} activities in ${((Date.now() - started) / 1000).toFixed(1)} s`);

  const admin = await adminToken(base);
  const headers = { authorization: `Bearer ${admin}` };
  // An employee of one contractor group (about 1/200 of the clusters): the visibility path.
  const roleId = (await db.query(`SELECT id FROM roles WHERE base_role = 'Zaposleni' AND builtin`)).rows[0].id;
  const group = (await db.query(`SELECT id FROM groups WHERE naziv = 'Bench izvođač 7'`)).rows[0].id;
  const hash = (await db.query(`SELECT password_hash FROM users WHERE email = 'bench@trasa.test'`)).rows[0].password_hash;
  await db.query(
    `INSERT INTO users (ime, prezime, email, role_id, status, email_potvrdjen, group_id, password_hash) VALUES ('Bench', 'Zaposleni', 'zaposleni@trasa.test', $1, 'aktivan', true, $2, $3)`,
    [roleId, group, hash],
  );
  const login = await fetch(`${base}/api/user/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'zaposleni@trasa.test', lozinka: 'BenchLozinka1' }),
  });
  const employee = { authorization: `Bearer ${(await login.json()).token}` };

  const backfill = Date.now();
  const res = await fetch(`${base}/api/report/backfill-snapshots?days=2`, { method: 'POST', headers });
  const backfilled = (await res.json()).results;
  console.log(`backfill of 2 days (${backfilled.map((r) => r.date).join(', ')}): ${res.status} in ${Date.now() - backfill} ms`);
  if (process.env.BENCH_HOLD) {
    console.log(`holding ${server.dbUrl} (admin token ${admin}); Ctrl-C ends`);
    await new Promise((r) => process.once('SIGINT', r));
  }
  /** Until no statement of the server runs on the bench's database (twice in a row, 100 ms apart). */
  const drained = async () => {
    for (let quiet = 0, i = 0; quiet < 2 && i < 300; i++) {
      const [{ n }] = (
        await db.query(
          `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND state <> 'idle' AND pid <> pg_backend_pid()`,
        )
      ).rows;
      quiet = n === 0 ? quiet + 1 : 0;
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  // CPU time per request of the server and of its PostgreSQL connections (bench/support.mjs).
  const cpuMeter = async () => {
    const meter = await cpuMeterOf(db, server.pid);
    return async (requests) => {
      const { node, postgres } = await meter(requests);
      return `CPU/request Node ${node.toFixed(1)} ms, PostgreSQL ${postgres.toFixed(1)} ms`;
    };
  };
  // The two days the backfill stored (the server's calendar, Europe/Belgrade: between 23:00 and 24:00 UTC
  // the UTC dates named only one of them, and the comparisons measured half their answer).
  const [today, yesterday] = backfilled.map((r) => r.date);

  const calls = [
    '/api/report/summary',
    '/api/report/finished?page=1&limit=10',
    '/api/report/A7?page=1&limit=10',
    '/api/report/A7?page=1&limit=10&eng=klaster%2012&srb=%D0%BA%D0%BB%D0%B0%D1%81%D1%82%D0%B5%D1%80%2012',
    '/api/report/ijo-takse?page=1&limit=10',
    '/api/report/ijo-takse',
    '/api/report/ijo-takse?page=1&limit=10&sort=imaoc&order=desc',
    '/api/report/ijo-takse?page=400&limit=10&sort=taksa',
    '/api/report/duzine/A1?page=1&limit=10',
    '/api/report/duzine/A1?page=500&limit=10&sort=duzina&order=desc',
    '/api/report/duzine/A9?page=1&limit=10',
    '/api/report/duzine/A12?page=1&limit=10&sort=klaster&order=desc',
    `/api/report/compare?type=summaryReport&dateA=${yesterday}&dateB=${today}`,
    `/api/report/compare?type=ijoTaxesReport&dateA=${yesterday}&dateB=${today}`,
    `/api/report/compare?type=finishedReport&dateA=${yesterday}&dateB=${today}`,
  ];
  const logins = [
    ['admin', headers],
    ['employee', employee],
  ];
  for (const [who, plain] of process.env.BENCH_HOLD ? [] : logins) {
    const h = acceptEncoding ? { ...plain, 'accept-encoding': acceptEncoding } : plain;
    for (const path of calls.filter((c) => only.length === 0 || only.some((o) => c.includes(o)))) {
      const sample = await fetch(`${base}${path}`, { headers: h });
      const size = (await sample.arrayBuffer()).byteLength;
      // On the wire (fetch decodes): the compressed length when the server compressed.
      // (a streamed compressed answer has no Content-Length: its size is not shown)
      const length = sample.headers.get('content-length');
      const encoded = sample.headers.get('content-encoding');
      const wire = encoded ? ` (${encoded}${length ? ` ${Math.round(Number(length) / 1024)} KB` : ''})` : '';
      const meter = await cpuMeter();
      const r = await autocannon({ url: `${base}${path}`, headers: h, connections, duration });
      await drained();
      const cpu = await meter(r.requests.total);
      console.log(
        `${who} ${path.split('&dateA')[0]}: ${sample.status}, ${Math.round(size / 1024)} KB${wire}, ${Math.round(r.requests.average)} req/s, p50 ${r.latency.p50} ms, p99 ${r.latency.p99} ms, non-2xx ${r.non2xx}, ${cpu}, load ${os.loadavg()[0].toFixed(1)}`,
      );
    }
  }
} finally {
  await db?.end();
  await server.stop();
}
