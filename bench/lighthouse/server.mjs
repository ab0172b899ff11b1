// The built server on a fresh, demo-seeded database for bench/lighthouse.mjs, and the Admin's sign-in.
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import pg from 'pg';
import { ADMIN, CHROME, EMPLOYEE, SERVER_DIST, WEB_DIST } from './config.mjs';

/**
 * A port for a server, its embedded PostgreSQL or Chromium: with E2E_PORT the next free one of the ten from
 * it (E2E_PORT … E2E_PORT + 9, the range the runner was given), otherwise one the system picks.
 */
let nextPort = Number(process.env.E2E_PORT) || 0;
export async function freePort() {
  const first = Number(process.env.E2E_PORT) || 0;
  if (!first) return listenOn(0);
  while (nextPort < first + 10) {
    const port = nextPort++;
    try {
      return await listenOn(port);
    } catch {}
  }
  throw new Error(`no free port in ${first}–${first + 9}`);
}

function listenOn(wanted) {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(wanted, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

/** The measuring Chromium, headless, its DevTools port from freePort() when E2E_PORT is given. */
export async function launchChrome() {
  return chromeLauncher.launch({
    chromePath: CHROME,
    ...(process.env.E2E_PORT ? { port: await freePort() } : {}),
    chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run'],
  });
}

async function query(url, text) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

/** The built server on a fresh, demo-seeded database; returns its base URL and stop(). */
export async function startServer(serverDist = SERVER_DIST, webDist = WEB_DIST) {
  // BENCH_PORT: a port of one's own on a shared machine; else any free one.
  const port = Number(process.env.BENCH_PORT) || (await freePort());
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'trasa-lighthouse-'));
  const env = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    APP_URL: `http://127.0.0.1:${port}`,
    ADMIN_EMAIL: 'admin@trasa.test',
    ADMIN_PASSWORD: 'AdminLozinka1',
    LOG_LEVEL: 'warn',
    WEB_DIST: webDist,
  };
  let dbName;
  if (process.env.DATABASE_URL) {
    dbName = `trasa_lighthouse_${randomBytes(4).toString('hex')}`;
    await query(process.env.DATABASE_URL, `CREATE DATABASE ${dbName}`);
    const url = new URL(process.env.DATABASE_URL);
    url.pathname = `/${dbName}`;
    env.DATABASE_URL = url.toString();
  } else {
    env.EMBEDDED_PG_PORT = String(await freePort());
  }
  const cleanUp = async () => {
    if (dbName) await query(process.env.DATABASE_URL, `DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
    rmSync(dataDir, { recursive: true, force: true });
  };
  const seeded = spawnSync(process.execPath, [path.join(serverDist, 'seed-demo.js')], { env, stdio: ['ignore', 'ignore', 'inherit'] });
  if (seeded.status !== 0) {
    await cleanUp();
    throw new Error('the demo seed failed');
  }
  const server = spawn(process.execPath, [path.join(serverDist, 'main.js')], { env, stdio: ['ignore', 'ignore', 'inherit'] });
  const base = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (server.exitCode === null && server.signalCode === null) {
      server.kill('SIGTERM');
      await new Promise((r) => server.once('exit', r));
    }
    await cleanUp();
  };
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(`${base}/api/health`)).ok) break;
    } catch {}
    if (i > 480) {
      await stop();
      throw new Error('the server did not start');
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  return { base, stop };
}

export async function signIn(base, who = ADMIN) {
  const res = await fetch(`${base}/api/user/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(who),
  });
  const token = (await res.json())?.token;
  if (!token) throw new Error(`sign-in as ${who.email} failed: ${res.status}`);
  return token;
}

/**
 * The tokens of those the pages are measured as, and the ids the detail pages name (`:cluster`, `:activity`):
 * the first cluster of the Admin's list and the first activity of the activities in progress (the demo
 * seed's nearest deadline).
 */
export async function sessionsOf(base) {
  const tokens = { admin: await signIn(base, ADMIN), employee: await signIn(base, EMPLOYEE) };
  const get = async (path) => {
    const res = await fetch(`${base}/api${path}`, { headers: { authorization: `Bearer ${tokens.admin}` } });
    if (!res.ok) throw new Error(`GET ${path}: ${res.status}`);
    return res.json();
  };
  const cluster = (await get('/location?page=1&limit=1')).locations?.[0]?._id;
  const activity = (await get('/activity/in-progress?page=1&limit=1')).activities?.[0]?._id;
  if (!cluster || !activity) throw new Error('the demo seed has no cluster or no activity in progress');
  return { tokens, ids: { cluster, activity } };
}

/** A page's address with the ids filled in. */
export function pathOf(page, ids) {
  return page.path.replace(/:(\w+)/g, (_, name) => ids[name] ?? `:${name}`);
}
