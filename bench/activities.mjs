// Notifications, the Admin's activities in progress and the clusters list at 3,000 clusters × the whole
// catalogue (≈108,000 activity records): `npm run build -w @trasa/server && node bench/activities.mjs`.
// Starts the built server on a fresh database (embedded, or a new one at DATABASE_URL), generates the
// clusters and their activities at realistic stages straight in SQL (generate_series), an employee whose
// company is responsible for 300 clusters, then loads the calls with autocannon at 10 connections and
// prints requests/s, p50/p99 latency, the statements one request sends (recorded by bench/capture-sql.mjs)
// with their EXPLAIN ANALYZE times, and the machine's load (`uptime`). Then it finishes A2 on 200 clusters
// (each starts A3 and A4): 10 at a time (the load figure) and one after the other (issue 9's "a finish
// that starts successors takes ≤ 30 ms at p99").
//   BENCH_ONLY=notifications,finish   only the cases whose title contains one of the words
//   BENCH_PROFILE=/tmp/prof           the server's CPU profile is written there on exit (bench/cpu-profile.mjs)
//   BENCH_PLANS=1                     print the plan of every recorded statement (not only those over 2 ms)
import { execSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { adminToken, BENCH_ADMIN, cpuMeter as cpuMeterOf, startBenchServer } from './support.mjs';

const CLUSTERS = Number(process.env.BENCH_CLUSTERS || 3000);
const PER_COMPANY = 300;
const duration = Number(process.env.BENCH_SECONDS || 10);
const connections = 10;
const EMPLOYEE = 'bench.zaposleni@trasa.test';
const only = (process.env.BENCH_ONLY || '')
  .split(',')
  .map((s) => s.trim().toLowerCase())
  .filter(Boolean);
const wanted = (title) => only.length === 0 || only.some((w) => title.toLowerCase().includes(w));

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

const scratch = mkdtempSync(path.join(os.tmpdir(), 'trasa-bench-act-'));
const sqlLog = path.join(scratch, 'sql.jsonl');
const preload = `--import ${path.resolve('bench/capture-sql.mjs')}`;
const profile = process.env.BENCH_PROFILE ? ` --import ${path.resolve('bench/cpu-profile.mjs')}` : '';
const server = await startBenchServer({
  BENCH_SQL_LOG: sqlLog,
  NODE_OPTIONS: `${preload}${profile}`,
  ...(process.env.BENCH_PROFILE && { BENCH_PROFILE: path.resolve(process.env.BENCH_PROFILE) }),
});
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
      `clusters list: ${clusterList.totalResults} clusters, ${clusterList.aktivne} in progress`,
  );

  // What one request sends (bench/capture-sql.mjs in the server, switched on around the request by
  // SIGUSR2): the number of statements, and each SELECT once more under EXPLAIN ANALYZE on the bench's
  // own connection (its time; its plan past 2 ms, or always with BENCH_PLANS).
  const record = async (send) => {
    rmSync(sqlLog, { force: true });
    process.kill(server.pid, 'SIGUSR2');
    await new Promise((r) => setTimeout(r, 50));
    try {
      await send();
    } finally {
      process.kill(server.pid, 'SIGUSR2');
      await new Promise((r) => setTimeout(r, 50));
    }
    try {
      return readFileSync(sqlLog, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l));
    } catch {
      return [];
    }
  };
  // CPU time per request of the server and of its PostgreSQL connections (bench/support.mjs).
  const cpuMeter = async () => {
    const meter = await cpuMeterOf(db, server.pid);
    return async (requests) => {
      const { node, postgres, backends } = await meter(requests);
      return `CPU per request: Node ${node.toFixed(2)} ms, PostgreSQL ${postgres.toFixed(2)} ms (${backends} backends)`;
    };
  };
  // PREPARE the text, EXPLAIN EXECUTE it with the values written as literals under force_generic_plan.
  const literal = (v) =>
    v === null || v === undefined ? 'NULL' : db.escapeLiteral(Array.isArray(v) ? `{${v.map((x) => `"${x}"`).join(',')}}` : String(v));
  const explainGeneric = async (st) => {
    try {
      await db.query('SET plan_cache_mode = force_generic_plan');
      await db.query(`PREPARE bench_generic AS ${st.text}`);
      const args = st.values.length > 0 ? `(${st.values.map(literal).join(', ')})` : '';
      return (await db.query(`EXPLAIN (ANALYZE, BUFFERS) EXECUTE bench_generic${args}`)).rows.map((row) => row['QUERY PLAN']);
    } catch (err) {
      return [`(not explained: ${err.message})`, ''];
    } finally {
      await db.query('DEALLOCATE ALL').catch(() => undefined);
      await db.query('RESET plan_cache_mode').catch(() => undefined);
    }
  };
  const explain = async (title, statements) => {
    const kinds = statements.map((st) => st.text.trim().split(/\s+/)[0].toLowerCase());
    console.log(`\n${title}: ${statements.length} statements (${kinds.join(', ')})`);
    for (const st of statements) {
      // Reads only: a step's locking and writing statements would act again.
      if (
        !/^\s*(select|with)\b/i.test(st.text) ||
        /\b(insert|update|delete)\b|\bfor (update|share|no key update|key share)\b/i.test(st.text)
      ) {
        continue;
      }
      const plan = await db.query(`EXPLAIN (ANALYZE, BUFFERS) ${st.text}`, st.values).then(
        (r) => r.rows.map((row) => row['QUERY PLAN']),
        (err) => [`(not explained: ${err.message})`, ''],
      );
      const planning = Number(plan.find((l) => l.startsWith('Planning Time'))?.match(/([\d.]+) ms/)?.[1] ?? 0);
      const ms = Number(plan.at(-1).match(/([\d.]+) ms/)?.[1] ?? 0);
      const label = st.name ? `[${st.name}] ` : '';
      console.log(
        `  ${ms.toFixed(2).padStart(7)} ms (+ planning ${planning.toFixed(2)})  ${label}${st.text.replace(/\s+/g, ' ').slice(0, 150)}`,
      );
      if (ms > 2 || process.env.BENCH_PLANS) console.log(plan.map((l) => `      ${l.slice(0, 200)}`).join('\n'));
      if (st.name) {
        // A named statement may run on PostgreSQL's generic plan after five runs on a connection: explain that one too.
        const generic = await explainGeneric(st);
        const gms = Number(generic.at(-1)?.match(/([\d.]+) ms/)?.[1] ?? 0);
        console.log(`  ${gms.toFixed(2).padStart(7)} ms generic plan of [${st.name}]`);
        if (gms > 2 || process.env.BENCH_PLANS) console.log(generic.map((l) => `      ${l.slice(0, 200)}`).join('\n'));
      }
    }
  };

  const cases = [
    { title: 'baseline: GET /api/user/my-profile (authenticate + load the actor)', url: '/api/user/my-profile', headers: employee },
    { title: 'employee: GET /api/activity/notifications page 1', url: '/api/activity/notifications?page=1&limit=10', headers: employee },
    {
      title: "employee: GET /api/search/notification 'čačak'/'чачак'",
      url: `/api/search/notification?${search}&page=1&limit=10`,
      headers: employee,
    },
    {
      title: 'employee: GET /api/activity/:id (detail with connected)',
      url: `/api/activity/${notices.activities[0]._id}`,
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
  for (const c of cases.filter((c) => wanted(c.title))) {
    await explain(c.title, await record(() => get(c.url, c.headers)));
  }
  console.log('');
  for (const c of cases.filter((c) => wanted(c.title))) {
    const cpu = await cpuMeter();
    const r = await autocannon({ url: base + c.url, headers: c.headers, connections, duration });
    console.log(
      `${c.title}: ${Math.round(r.requests.average)} req/s, p50 ${r.latency.p50} ms, p99 ${r.latency.p99} ms, non-2xx ${r.non2xx}; ${await cpu(r.requests.total)}`,
    );
  }

  // Finishing an activity that starts successors (issue 9: ≤ 30 ms p99): company 1's first 200 clusters
  // are put at A2 in progress with its date given; the employee (a contractor, responsible for A2)
  // finishes each once over HTTP; every finish starts A3 and A4 in the same transaction. First 10 at a
  // time (the figure under load), then the clusters are put back at A2 and finished one after the other
  // by the one user (the issue's figure: a single finish's latency).
  if (wanted('finish')) {
    const FINISHES = 200;
    const putAtA2 = () =>
      db.query(
        `WITH c AS (SELECT id FROM clusters WHERE substring(naziv FROM '(\\d+)$')::int BETWEEN 1 AND $1)
         UPDATE activities a SET
           status = CASE a.code WHEN 'A1' THEN 'Završena' WHEN 'A2' THEN 'U toku' ELSE 'Nije započeta' END,
           datum_pocetka = CASE WHEN a.code IN ('A1', 'A2') THEN current_date - 3 END,
           datum_zavrsetka = CASE WHEN a.code = 'A1' THEN current_date - 3 END,
           rok_zavrsetka = CASE a.code WHEN 'A1' THEN current_date + 12 WHEN 'A2' THEN current_date + 7 END,
           podaci = CASE WHEN a.code = 'A2'
             THEN jsonb_build_array(jsonb_build_object('key', 'Datum', 'naziv', 'Datum', 'vrednost', to_char(current_date - 1, 'YYYY-MM-DD')))
             ELSE '[]'::jsonb END,
           version = 0, returned = 0, faults = NULL, recheck = false
         FROM c WHERE a.cluster_id = c.id`,
        [FINISHES],
      );
    await putAtA2();
    await db.query('VACUUM ANALYZE activities');
    const targets = (
      await db.query(
        `SELECT a.id FROM activities a JOIN clusters c ON c.id = a.cluster_id
         WHERE a.code = 'A2' AND substring(c.naziv FROM '(\\d+)$')::int BETWEEN 1 AND $1`,
        [FINISHES],
      )
    ).rows.map((r) => r.id);
    const finishOne = async (id, took) => {
      const t0 = performance.now();
      const res = await fetch(`${base}/api/activity/activity-status/`, {
        method: 'POST',
        headers: { ...employee, 'content-type': 'application/json' },
        body: JSON.stringify({ status: 'Završena', activityId: id }),
      });
      await res.text();
      took.push(performance.now() - t0);
      return res.ok;
    };
    const successorsStarted = async () =>
      (
        await db.query(
          `SELECT count(*)::int AS n FROM activities a JOIN clusters c ON c.id = a.cluster_id
           WHERE a.code IN ('A3', 'A4') AND a.status = 'U toku' AND substring(c.naziv FROM '(\\d+)$')::int BETWEEN 1 AND $1`,
          [FINISHES],
        )
      ).rows[0].n;
    const summary = (took) => {
      took.sort((x, y) => x - y);
      const pct = (q) => took[Math.min(took.length - 1, Math.floor(q * took.length))].toFixed(1);
      return `p50 ${pct(0.5)} ms, p99 ${pct(0.99)} ms, max ${took.at(-1).toFixed(1)} ms`;
    };

    // 10 at a time; the first finish is recorded (its statements, outside the timing).
    const loaded = [];
    let failed = 0;
    const statements = await record(async () => {
      if (!(await finishOne(targets[0], []))) failed++;
    });
    let next = 1;
    let cpu = await cpuMeter();
    await Promise.all(
      Array.from({ length: connections }, async () => {
        while (next < targets.length) if (!(await finishOne(targets[next++], loaded))) failed++;
      }),
    );
    console.log(
      `employee: POST /api/activity/activity-status/ finishing A2 (starts A3, A4) × ${loaded.length + 1}, ${connections} at a time: ${summary(loaded)}, failed ${failed}, successors started ${await successorsStarted()} (expected ${2 * FINISHES}); ${await cpu(loaded.length)}`,
    );

    // One at a time, the same clusters put back at A2.
    await putAtA2();
    await db.query('VACUUM ANALYZE activities');
    const single = [];
    failed = 0;
    cpu = await cpuMeter();
    for (const id of targets) if (!(await finishOne(id, single))) failed++;
    console.log(
      `employee: the same finish × ${single.length}, one at a time: ${summary(single)}, failed ${failed}, successors started ${await successorsStarted()} (expected ${2 * FINISHES}); ${await cpu(single.length)}`,
    );
    await explain('one finish (A2, starts A3 and A4)', statements);
  }

  console.log(`\nuptime: ${execSync('uptime').toString().trim()}`);
} finally {
  if (process.env.BENCH_PAUSE) {
    console.log(`database kept for inspection while paused: ${server.dbUrl}`);
    await new Promise((r) => setTimeout(r, Number(process.env.BENCH_PAUSE) * 1000));
  }
  await db?.end().catch(() => undefined);
  await new Promise((r) => setTimeout(r, 1000));
  await server.stop();
  rmSync(scratch, { recursive: true, force: true });
}
