// Notifications, the Admin's activities in progress and the clusters list at 3,000 clusters × the whole
// catalogue (≈108,000 activity records): `npm run build -w @trasa/server && node bench/activities.mjs`.
// Starts the built server on a fresh database (embedded, or a new one at DATABASE_URL), generates the
// clusters and their activities at realistic stages straight in SQL (generate_series), an employee whose
// company is responsible for 300 clusters, then loads the calls with autocannon at 10 connections and
// prints requests/s, p50/p99 latency, the plans of the main queries and the machine's load (`uptime`).
import { execSync } from 'node:child_process';
import autocannon from 'autocannon';
import pg from 'pg';
import { adminToken, BENCH_ADMIN, startBenchServer } from './support.mjs';

const CLUSTERS = Number(process.env.BENCH_CLUSTERS || 3000);
const PER_COMPANY = 300;
const duration = Number(process.env.BENCH_SECONDS || 10);
const connections = 10;
const EMPLOYEE = 'bench.zaposleni@trasa.test';

// Serbian places, with the letters the search folds; the number keeps cluster names unique.
const PLACES = [
  'Čačak',
  'Šabac',
  'Niš',
  'Užice',
  'Kraljevo',
  'Kruševac',
  'Požarevac',
  'Smederevo',
  'Leskovac',
  'Vranje',
  'Zaječar',
  'Pirot',
  'Đurđevo',
  'Sombor',
  'Subotica',
  'Valjevo',
  'Loznica',
  'Ivanjica',
  'Raška',
  'Priboj',
];
const sqlArray = (list) => `ARRAY[${list.map((s) => `'${s.replace(/'/g, "''")}'`).join(',')}]`;

const server = await startBenchServer();
const base = server.base;
let db;
try {
  db = new pg.Client({ connectionString: server.dbUrl });
  await db.connect();
  const started = Date.now();
  const companies = Math.ceil(CLUSTERS / PER_COMPANY);

  // Contractor companies (IZVODJAC), each with a team; supervision; one general contract per company.
  await db.query(
    `INSERT INTO groups (naziv, kratak_naziv, cirilica, type_id)
     SELECT 'Bench izvođač ' || g, 'BI' || g, 'Бенч извођач ' || g, (SELECT id FROM group_types WHERE code = 'IZVODJAC')
     FROM generate_series(1, $1::int) g`,
    [companies],
  );
  await db.query(`
    INSERT INTO groups (naziv, kratak_naziv, cirilica, type_id, parent_id)
    SELECT g.naziv || ' tim', g.kratak_naziv || 'T', g.cirilica || ' тим', g.type_id, g.id FROM groups g WHERE g.naziv LIKE 'Bench izvođač %'`);
  await db.query(`
    INSERT INTO groups (naziv, kratak_naziv, cirilica, type_id)
    VALUES ('Bench nadzor', 'BN', 'Бенч надзор', (SELECT id FROM group_types WHERE code = 'NADZOR'))`);
  await db.query(
    `INSERT INTO contracts (kind, naziv, broj, status, datum_pocetka, rok_trajanja)
     SELECT 'contract', 'Bench ugovor ' || g, 'B-' || g || '/2025', 'U toku', current_date - 400, 900 FROM generate_series(1, $1::int) g`,
    [companies],
  );

  // Clusters: company k is responsible for clusters (k-1)*300+1 … k*300, under contract k; supervision for all.
  await db.query(
    `WITH p AS (SELECT ${sqlArray(PLACES)} AS a)
     INSERT INTO clusters (naziv) SELECT p.a[1 + i % array_length(p.a, 1)] || ' ' || lpad(i::text, 4, '0') FROM generate_series(1, $1::int) i, p`,
    [CLUSTERS],
  );
  await db.query(
    `WITH c AS (SELECT id, substring(naziv FROM '(\\d+)$')::int AS n FROM clusters),
          g AS (SELECT id, substring(naziv FROM 'Bench izvođač (\\d+)$')::int AS k FROM groups WHERE naziv ~ '^Bench izvođač \\d+$'),
          k AS (SELECT id, substring(naziv FROM 'Bench ugovor (\\d+)$')::int AS k FROM contracts WHERE naziv LIKE 'Bench ugovor %')
     INSERT INTO cluster_groups (cluster_id, group_id) SELECT c.id, g.id FROM c JOIN g ON g.k = 1 + (c.n - 1) / $1
     UNION ALL SELECT c.id, (SELECT id FROM groups WHERE naziv = 'Bench nadzor') FROM c`,
    [PER_COMPANY],
  );
  await db.query(
    `WITH c AS (SELECT id, substring(naziv FROM '(\\d+)$')::int AS n FROM clusters),
          k AS (SELECT id, substring(naziv FROM 'Bench ugovor (\\d+)$')::int AS k FROM contracts WHERE naziv LIKE 'Bench ugovor %')
     INSERT INTO contract_clusters (contract_id, cluster_id, kind) SELECT k.id, c.id, 'contract' FROM c JOIN k ON k.k = 1 + (c.n - 1) / $1`,
    [PER_COMPANY],
  );

  // Activities at a stage per cluster: the catalogue's first t entries finished (in catalogue order, which
  // follows the flow), those whose predecessors all finished in progress, the rest not started. t = -1
  // is a cluster not started, t = 36 a finished one. Started dates spread over the deadline so every
  // colour occurs; klizno entries have no deadline.
  await db.query(`
    WITH stage AS (SELECT id AS cluster_id, floor(random() * 38)::int - 1 AS t FROM clusters),
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
  // The index proposed for the next migration (docs/decisions.md "Notifications and the in-progress
  // list"): the in-progress partial index carrying cluster_id and code, so the lists filter by
  // visibility and responsibility without reading the table. BENCH_PROPOSED_INDEX=1 measures with it.
  if (process.env.BENCH_PROPOSED_INDEX) {
    await db.query(`CREATE INDEX activities_in_progress_cover_idx ON activities (rok_zavrsetka, id) INCLUDE (cluster_id, code)
      WHERE status = 'U toku'`);
  }
  for (const table of ['activities', 'clusters', 'cluster_groups', 'contract_clusters', 'groups'])
    await db.query(`VACUUM ANALYZE ${table}`);

  // The employee: a member of company 1's team (sees its 300 clusters); the bench Admin's password.
  await db.query(
    `INSERT INTO users (ime, prezime, email, email_potvrdjen, status, role_id, group_id, password_hash)
     SELECT 'Bench', 'Zaposleni', $1, true, 'aktivan', (SELECT id FROM roles WHERE base_role = 'Zaposleni' AND builtin),
            (SELECT id FROM groups WHERE naziv = 'Bench izvođač 1 tim'), password_hash
     FROM users WHERE email = $2`,
    [EMPLOYEE, BENCH_ADMIN.email],
  );
  const counts = (
    await db.query(`SELECT count(*)::int AS all, count(*) FILTER (WHERE status = 'U toku')::int AS running,
      count(*) FILTER (WHERE status = 'U toku' AND rok_zavrsetka < current_date)::int AS late FROM activities`)
  ).rows[0];
  console.log(
    `\n${CLUSTERS} clusters, ${counts.all} activities (${counts.running} in progress, ${counts.late} late) in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );

  const admin = { authorization: `Bearer ${await adminToken(base)}` };
  const login = await fetch(`${base}/api/user/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: EMPLOYEE, lozinka: BENCH_ADMIN.password }),
  });
  const employee = { authorization: `Bearer ${(await login.json()).token}` };
  const get = async (url, headers) => {
    const res = await fetch(base + url, { headers });
    if (!res.ok) throw new Error(`${url}: ${res.status} ${await res.text()}`);
    return res.json();
  };
  const notices = await get('/api/activity/notifications?page=1&limit=10', employee);
  const inProgress = await get('/api/activity/in-progress?page=1&limit=10', admin);
  const lastPage = Math.max(1, Math.ceil(inProgress.totalResults / 10));
  const search = `eng=${encodeURIComponent('čačak')}&srb=${encodeURIComponent('чачак')}`;
  const found = await get(`/api/search/notification?${search}&page=1&limit=10`, employee);
  const clusterList = await get('/api/location?page=1&limit=10', admin);
  console.log(
    `employee: ${notices.totalResults} notifications (first ${notices.activities[0]?.kratakNaziv} ${notices.activities[0]?.boja}), ` +
      `${found.totalResults} for 'čačak'; Admin: ${inProgress.totalResults} in progress (${lastPage} pages of 10); ` +
      `clusters list: ${clusterList.totalResults} clusters, ${clusterList.aktivne} in progress` +
      (process.env.BENCH_PROPOSED_INDEX ? '; with the proposed index' : ''),
  );

  // Plans of the page and count queries the server runs (same shape; bound values inlined).
  const inProgressWhere = `status = 'U toku'`;
  const explained = [
    [
      'in-progress page 1 (ids)',
      `SELECT id FROM activities WHERE ${inProgressWhere} ORDER BY rok_zavrsetka ASC NULLS LAST, id LIMIT 10 OFFSET 0`,
    ],
    [
      'in-progress page 2,500 (ids)',
      `SELECT id FROM activities WHERE ${inProgressWhere} ORDER BY rok_zavrsetka ASC NULLS LAST, id LIMIT 10 OFFSET 24990`,
    ],
    ['in-progress count', `SELECT count(*) FROM (SELECT 1 FROM activities WHERE ${inProgressWhere} LIMIT 100000) x`],
    [
      'clusters list aktivne',
      `SELECT count(*) FILTER (WHERE clusters.id IN (SELECT a.cluster_id FROM activities a WHERE a.status = 'U toku')
         OR (EXISTS (SELECT 1 FROM activities a WHERE a.cluster_id = clusters.id AND a.status = 'Završena')
           AND EXISTS (SELECT 1 FROM activities a WHERE a.cluster_id = clusters.id AND a.status = 'Nije započeta'))) FROM clusters`,
    ],
    [
      'notifications page (ids) for the employee',
      `SELECT id FROM activities WHERE status = 'U toku'
         AND cluster_id IN (SELECT cluster_id FROM cluster_groups WHERE group_id IN (SELECT id FROM groups WHERE naziv LIKE 'Bench izvođač 1%'))
         AND code IN (SELECT code FROM activity_catalogue WHERE odgovoran && ARRAY['IZVODJAC'])
       ORDER BY rok_zavrsetka ASC NULLS LAST, id LIMIT 10`,
    ],
  ];
  for (const [title, text] of explained) {
    const plan = await db.query(`EXPLAIN (ANALYZE, COSTS OFF, BUFFERS) ${text}`);
    console.log(`\nEXPLAIN ANALYZE, ${title}:\n${plan.rows.map((r) => r['QUERY PLAN']).join('\n')}`);
  }
  console.log('');

  const cases = [
    { title: 'baseline: GET /api/user/my-profile (authenticate + load the actor)', url: '/api/user/my-profile', headers: employee },
    { title: 'employee: GET /api/activity/notifications page 1', url: '/api/activity/notifications?page=1&limit=10', headers: employee },
    {
      title: "employee: GET /api/search/notification 'čačak'/'чачак'",
      url: `/api/search/notification?${search}&page=1&limit=10`,
      headers: employee,
    },
    { title: 'Admin: GET /api/activity/in-progress page 1', url: '/api/activity/in-progress?page=1&limit=10', headers: admin },
    { title: 'Admin: GET /api/activity/in-progress page 2,500', url: '/api/activity/in-progress?page=2500&limit=10', headers: admin },
    {
      title: `Admin: GET /api/activity/in-progress last page (${lastPage})`,
      url: `/api/activity/in-progress?page=${lastPage}&limit=10`,
      headers: admin,
    },
    { title: 'Admin: in-progress, red only', url: '/api/activity/in-progress?page=1&limit=10&boja=red', headers: admin },
    { title: "Admin: in-progress, search 'čačak'", url: `/api/activity/in-progress?${search}&page=1&limit=10`, headers: admin },
    { title: 'Admin: GET /api/location page 1 (status per row, aktivne)', url: '/api/location?page=1&limit=10', headers: admin },
    {
      title: 'Admin: GET /api/location/:id (36 activities)',
      url: `/api/location/${clusterList.locations[0]._id}`,
      headers: admin,
    },
  ];
  console.log(
    `${duration} s per case, ${connections} connections, server on ${server.onEmbedded ? 'embedded PostgreSQL' : 'DATABASE_URL'}`,
  );
  for (const c of cases) {
    const r = await autocannon({ url: base + c.url, headers: c.headers, connections, duration });
    console.log(
      `${c.title}: ${Math.round(r.requests.average)} req/s, p50 ${r.latency.p50} ms, p99 ${r.latency.p99} ms, non-2xx ${r.non2xx}`,
    );
  }

  // Finishing an activity that starts successors (issue 9: ≤ 30 ms p99): company 1's first 200 clusters
  // are put at A2 in progress with its date given; the employee (a contractor, responsible for A2)
  // finishes each once over HTTP, 10 at a time; every finish starts A3 and A4 in the same transaction.
  const FINISHES = 200;
  await db.query(
    `WITH c AS (SELECT id FROM clusters WHERE substring(naziv FROM '(\\d+)$')::int BETWEEN 1 AND $1)
     UPDATE activities a SET
       status = CASE a.code WHEN 'A1' THEN 'Završena' WHEN 'A2' THEN 'U toku' ELSE 'Nije započeta' END,
       datum_pocetka = CASE WHEN a.code IN ('A1', 'A2') THEN current_date - 3 END,
       datum_zavrsetka = CASE WHEN a.code = 'A1' THEN current_date - 3 END,
       rok_zavrsetka = CASE a.code WHEN 'A1' THEN current_date + 12 WHEN 'A2' THEN current_date + 7 END,
       podaci = CASE WHEN a.code = 'A2'
         THEN jsonb_build_array(jsonb_build_object('key', 'Datum', 'naziv', 'Datum', 'vrednost', to_char(current_date - 1, 'YYYY-MM-DD')))
         ELSE '[]'::jsonb END,
       version = 0, returned = 0, faults = NULL
     FROM c WHERE a.cluster_id = c.id`,
    [FINISHES],
  );
  const targets = (
    await db.query(
      `SELECT a.id FROM activities a JOIN clusters c ON c.id = a.cluster_id
       WHERE a.code = 'A2' AND substring(c.naziv FROM '(\\d+)$')::int BETWEEN 1 AND $1`,
      [FINISHES],
    )
  ).rows.map((r) => r.id);
  const took = [];
  let failed = 0;
  let next = 0;
  const finishOne = async (id) => {
    const t0 = performance.now();
    const res = await fetch(`${base}/api/activity/activity-status/`, {
      method: 'POST',
      headers: { ...employee, 'content-type': 'application/json' },
      body: JSON.stringify({ status: 'Završena', activityId: id }),
    });
    await res.text();
    took.push(performance.now() - t0);
    if (!res.ok) failed++;
  };
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (next < targets.length) await finishOne(targets[next++]);
    }),
  );
  took.sort((a, b) => a - b);
  const pct = (q) => took[Math.min(took.length - 1, Math.floor(q * took.length))].toFixed(1);
  const successors = (
    await db.query(
      `SELECT count(*)::int AS n FROM activities a JOIN clusters c ON c.id = a.cluster_id
       WHERE a.code IN ('A3', 'A4') AND a.status = 'U toku' AND substring(c.naziv FROM '(\\d+)$')::int BETWEEN 1 AND $1`,
      [FINISHES],
    )
  ).rows[0].n;
  console.log(
    `employee: POST /api/activity/activity-status/ finishing A2 (starts A3, A4) × ${took.length}, ${connections} at a time: p50 ${pct(0.5)} ms, p99 ${pct(0.99)} ms, failed ${failed}, successors started ${successors} (expected ${2 * FINISHES})`,
  );

  console.log(`\nuptime: ${execSync('uptime').toString().trim()}`);
} finally {
  if (process.env.BENCH_PAUSE) {
    console.log(`database kept for inspection while paused: ${server.dbUrl}`);
    await new Promise((r) => setTimeout(r, Number(process.env.BENCH_PAUSE) * 1000));
  }
  await db?.end().catch(() => undefined);
  await new Promise((r) => setTimeout(r, 1000));
  await server.stop();
}
