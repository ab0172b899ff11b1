// Throughput of the authenticated calls every screen makes, against the built server on a fresh
// embedded database (or a new database at DATABASE_URL): `npm run build && npm run bench`.
// Prints requests/s and latency percentiles per call, and the server's resident memory.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';

const port = Number(process.env.BENCH_PORT || 3200);
const base = `http://127.0.0.1:${port}`;
const duration = Number(process.env.BENCH_SECONDS || 10);
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'trasa-bench-'));
const env = {
  ...process.env,
  PORT: String(port),
  HOST: '127.0.0.1',
  DATA_DIR: dataDir,
  LOG_LEVEL: 'warn',
  ADMIN_EMAIL: 'bench@trasa.test',
  ADMIN_PASSWORD: 'BenchLozinka1',
};
let dbName;
if (process.env.DATABASE_URL) {
  dbName = `trasa_bench_${randomBytes(4).toString('hex')}`;
  const c = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await c.connect();
  await c.query(`CREATE DATABASE ${dbName}`);
  await c.end();
  const u = new URL(process.env.DATABASE_URL);
  u.pathname = `/${dbName}`;
  env.DATABASE_URL = u.toString();
}

const server = spawn(process.execPath, ['packages/server/dist/main.js'], { env, stdio: 'inherit' });
try {
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(`${base}/api/health`)).ok) break;
    } catch {}
    if (i > 240) throw new Error('server did not start');
    await new Promise((r) => setTimeout(r, 250));
  }
  const login = await fetch(`${base}/api/user/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'bench@trasa.test', lozinka: 'BenchLozinka1' }),
  });
  const { token } = await login.json();
  const rss = () => Math.round(Number(readFileSync(`/proc/${server.pid}/status`, 'utf8').match(/VmRSS:\s+(\d+)/)?.[1] ?? 0) / 1024);

  const cases = [
    {
      title: 'GET /api/user/my-profile (authenticate + load the actor)',
      url: '/api/user/my-profile',
      headers: { authorization: `Bearer ${token}` },
    },
    { title: 'GET /api/health (baseline: one query)', url: '/api/health' },
  ];
  console.log(`\n${duration} s per case, 20 connections, server on ${env.DATABASE_URL ? 'DATABASE_URL' : 'embedded PostgreSQL'}`);
  for (const c of cases) {
    const r = await autocannon({ url: base + c.url, headers: c.headers, connections: 20, duration });
    console.log(
      `${c.title}: ${Math.round(r.requests.average)} req/s, p50 ${r.latency.p50} ms, p99 ${r.latency.p99} ms, non-2xx ${r.non2xx}, server RSS ${rss()} MB`,
    );
  }
} finally {
  server.kill('SIGTERM');
  await new Promise((r) => server.once('exit', r));
  if (dbName) {
    const c = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await c.connect();
    await c.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
    await c.end();
  }
  rmSync(dataDir, { recursive: true, force: true });
}
