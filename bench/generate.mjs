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
import { existsSync, rmSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import { clustersAndActivities } from './generate/clusters.mjs';
import { topicsAndComments } from './generate/comments.mjs';
import { generateInventory } from './generate/inventory.mjs';
import { holdersAndLogs } from './generate/logs.mjs';
import { BENCH_USERS, groupsAndUsers } from './generate/people.mjs';
import { SIZES, scale } from './generate/sizes.mjs';
import { adminQuery, BENCH_ADMIN, startBenchServer } from './support.mjs';

// Each step of the fill is a module of bench/generate/; the suite and the other cases import from here.
export { BENCH_USERS } from './generate/people.mjs';
export { SIZES } from './generate/sizes.mjs';

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

  const steps = { S, done, second };
  await groupsAndUsers(db, steps);
  const per = await clustersAndActivities(db, steps);
  await topicsAndComments(db, steps, per);
  await holdersAndLogs(db, steps);

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

/** Generates into `target` (generateFresh) unless it holds a generated database already. */
export async function ensureGenerated(target = benchTarget()) {
  let hasData = false;
  try {
    if (target.databaseUrl) {
      const c = new pg.Client({ connectionString: target.databaseUrl });
      await c.connect();
      hasData = (await c.query('SELECT count(*)::int AS n FROM users')).rows[0].n > 40_000;
      await c.end();
    } else {
      hasData = existsSync(path.join(target.dataDir, 'pg-password'));
    }
  } catch {}
  if (!hasData) {
    console.log('no generated database yet: running bench:generate first');
    await generateFresh(target);
  }
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  await generateFresh();
}
