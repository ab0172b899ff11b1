// Starts the built Trasa for the browser journeys: a fresh database (a temporary DATA_DIR with the
// embedded PostgreSQL, or a new database on the server at DATABASE_URL), the demo seed, then the server.
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';

const port = process.env.E2E_PORT || '3100';
// E2E_DIST: a build made aside (scripts/build-aside.sh NAME → .build/NAME), so several can run at once.
const serverDist = process.env.E2E_DIST ? path.resolve(process.env.E2E_DIST, 'server') : 'packages/server/dist';
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'trasa-e2e-'));
const env = {
  ...process.env,
  PORT: port,
  HOST: '127.0.0.1',
  DATA_DIR: dataDir,
  APP_URL: `http://127.0.0.1:${port}`,
  ADMIN_EMAIL: 'admin@trasa.test',
  ADMIN_PASSWORD: 'AdminLozinka1',
  LOG_LEVEL: 'warn',
  ...(process.env.E2E_DIST ? { WEB_DIST: path.resolve(process.env.E2E_DIST, 'web') } : {}),
};

let dbName;
if (process.env.DATABASE_URL) {
  dbName = `trasa_e2e_${randomBytes(4).toString('hex')}`;
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  await client.query(`CREATE DATABASE ${client.escapeIdentifier(dbName)}`);
  await client.end();
  const url = new URL(process.env.DATABASE_URL);
  url.pathname = `/${dbName}`;
  env.DATABASE_URL = url.toString();
}

const seeded = spawnSync(process.execPath, [path.join(serverDist, 'seed-demo.js')], { env, stdio: 'inherit' });
if (seeded.status !== 0) process.exit(seeded.status ?? 1);

const server = spawn(process.execPath, [path.join(serverDist, 'main.js')], { env, stdio: 'inherit' });

let stopping = false;
async function stop() {
  if (stopping) return;
  stopping = true;
  if (server.exitCode === null) {
    server.kill('SIGTERM');
    await new Promise((r) => server.once('exit', r));
  }
  if (dbName) {
    const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await client.connect();
    await client.query(`DROP DATABASE IF EXISTS ${client.escapeIdentifier(dbName)} WITH (FORCE)`);
    await client.end();
  }
  rmSync(dataDir, { recursive: true, force: true });
  process.exit(0);
}
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
server.on('exit', (code) => {
  if (!stopping) {
    console.error(`server exited with ${code}`);
    process.exit(1);
  }
});
