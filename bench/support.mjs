// What every benchmark needs: the built server on a fresh database — a temporary DATA_DIR with the
// embedded PostgreSQL, or a new database on the server at DATABASE_URL — and a way to stop it and
// leave nothing behind. Loopback only.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';

export const BENCH_ADMIN = { email: 'bench@trasa.test', password: 'BenchLozinka1' };

/** BENCH_PORTS=first-last: the servers a bench starts take their ports from that range only. */
const PORT_RANGE = (() => {
  const m = /^(\d+)-(\d+)$/.exec(process.env.BENCH_PORTS ?? '');
  return m ? { next: Number(m[1]), last: Number(m[2]) } : null;
})();

function tryPort(port) {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', (e) => (port !== 0 && e.code === 'EADDRINUSE' ? resolve(null) : reject(e)));
    srv.listen(port, '127.0.0.1', () => {
      const { port: got } = srv.address();
      srv.close(() => resolve(got));
    });
  });
}

/** A free loopback port: any, or the next free one of BENCH_PORTS (round the range). */
async function freePort() {
  if (!PORT_RANGE) return tryPort(0);
  const { last } = PORT_RANGE;
  const first = Number(/^(\d+)/.exec(process.env.BENCH_PORTS)[1]);
  for (let tries = 0; tries <= last - first; tries++) {
    const port = PORT_RANGE.next;
    PORT_RANGE.next = port >= last ? first : port + 1;
    const got = await tryPort(port);
    if (got) return got;
  }
  throw new Error(`BENCH_PORTS ${process.env.BENCH_PORTS}: no free port`);
}

export async function adminQuery(url, text) {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    await c.query(text);
  } finally {
    await c.end();
  }
}

/**
 * Starts packages/server/dist/main.js (or `target.main`, or BENCH_SERVER_MAIN: e.g. a build beside it) and
 * waits until it is healthy. `extraEnv` adds to the server's environment. Returns its base URL, a URL to its database
 * (to load data directly), the server's pid (to read its memory) and `stop()`.
 *
 * `target` keeps the database instead of a fresh one (bench/generate.mjs): `{ dataDir }` (the embedded
 * PostgreSQL in that directory) or `{ databaseUrl }` (that database as it is); `stop()` leaves it.
 * `{ quiet: true }` drops the server's standard output.
 */
export async function startBenchServer(extraEnv = {}, target = {}) {
  const port = await freePort();
  const dataDir = target.dataDir ?? mkdtempSync(path.join(os.tmpdir(), 'trasa-bench-'));
  const env = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    ADMIN_EMAIL: BENCH_ADMIN.email,
    ADMIN_PASSWORD: BENCH_ADMIN.password,
    ...extraEnv,
  };
  let dbName;
  if (target.databaseUrl) {
    env.DATABASE_URL = target.databaseUrl;
  } else if (target.dataDir) {
    delete env.DATABASE_URL;
    env.EMBEDDED_PG_PORT = String(await freePort());
  } else if (process.env.DATABASE_URL) {
    dbName = `trasa_bench_${randomBytes(4).toString('hex')}`;
    await adminQuery(process.env.DATABASE_URL, `CREATE DATABASE ${dbName}`);
    const u = new URL(process.env.DATABASE_URL);
    u.pathname = `/${dbName}`;
    env.DATABASE_URL = u.toString();
  } else {
    env.EMBEDDED_PG_PORT = String(await freePort());
  }
  // The build when there is one, else the sources.
  const main =
    target.main ||
    process.env.BENCH_SERVER_MAIN ||
    (existsSync('packages/server/dist/main.js') ? 'packages/server/dist/main.js' : 'packages/server/src/main.ts');
  // A .ts entry (packages/server/src/main.ts) runs from the sources through tsx, without a build.
  const args = main.endsWith('.ts') ? ['--import', 'tsx', main] : [main];
  // target.quiet: the server's standard output (its request log) is dropped; errors still show.
  const server = spawn(process.execPath, args, { env, stdio: ['ignore', target.quiet ? 'ignore' : 'inherit', 'inherit'] });
  const base = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (server.exitCode === null && server.signalCode === null) {
      server.kill('SIGTERM');
      await new Promise((r) => server.once('exit', r));
    }
    if (dbName) await adminQuery(process.env.DATABASE_URL, `DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
    // A kept embedded PostgreSQL's folder stays; a temporary DATA_DIR (files, the secret) goes.
    if (!target.dataDir) rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    for (let i = 0; ; i++) {
      try {
        if ((await fetch(`${base}/api/health`)).ok) break;
      } catch {}
      // 5 minutes: the first start on a kept 1,000,000-row database runs its new migrations (0020 builds
      // an index over the log: ~1 minute on a loaded machine).
      if (i > 1200) throw new Error('server did not start');
      await new Promise((r) => setTimeout(r, 250));
    }
  } catch (e) {
    await stop();
    throw e;
  }
  // The bare pool reaches the embedded PostgreSQL as the server does: over its Unix socket when it has one.
  const socketDir = path.join(dataDir, 'pg');
  const viaSocket = existsSync(path.join(socketDir, `.s.PGSQL.${env.EMBEDDED_PG_PORT}`));
  const dbUrl =
    env.DATABASE_URL ??
    `postgres://postgres:${encodeURIComponent(readFileSync(path.join(dataDir, 'pg-password'), 'utf8').trim())}@127.0.0.1:${env.EMBEDDED_PG_PORT}/trasa${viaSocket ? `?host=${encodeURIComponent(socketDir)}` : ''}`;
  const rssMb = () => Math.round(Number(readFileSync(`/proc/${server.pid}/status`, 'utf8').match(/VmRSS:\s+(\d+)/)?.[1] ?? 0) / 1024);
  const peakMb = () => Math.round(Number(readFileSync(`/proc/${server.pid}/status`, 'utf8').match(/VmHWM:\s+(\d+)/)?.[1] ?? 0) / 1024);
  return { base, dbUrl, rssMb, peakMb, stop, pid: server.pid, onEmbedded: !env.DATABASE_URL };
}

/** A bearer token of the bench Admin. */
export async function adminToken(base) {
  const res = await fetch(`${base}/api/user/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: BENCH_ADMIN.email, lozinka: BENCH_ADMIN.password }),
  });
  return (await res.json()).token;
}

/** A process's CPU time in clock ticks (/proc utime + stime); 0 once it is gone. */
function cpuTicks(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return 0;
  }
}

/**
 * CPU time per request of the server (Node) and of its PostgreSQL connections (the backends of `db`'s
 * database, read from /proc): what the machine's load changes least. Start it before a load; the function
 * it returns gives the milliseconds per request since then. A connection the pool opened meanwhile counts whole.
 * `applicationName`: only the backends of that application_name (the server's PGAPPNAME), when another
 * server shares the database.
 */
export async function cpuMeter(db, serverPid, applicationName) {
  const backendPids = async () =>
    (
      await db.query(
        `SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()${applicationName ? ' AND application_name = $1' : ''}`,
        applicationName ? [applicationName] : [],
      )
    ).rows.map((r) => r.pid);
  const before = new Map((await backendPids()).map((pid) => [pid, cpuTicks(pid)]));
  const node0 = cpuTicks(serverPid);
  const tick = 1000 / 100; // ms per clock tick (getconf CLK_TCK)
  return async (requests) => {
    const n = Math.max(1, requests);
    const after = await backendPids();
    const pgTicks = after.reduce((t, pid) => t + cpuTicks(pid) - (before.get(pid) ?? 0), 0);
    return { node: ((cpuTicks(serverPid) - node0) * tick) / n, postgres: (pgTicks * tick) / n, backends: after.length };
  };
}
