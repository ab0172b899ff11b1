import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { embeddedUrl, freePort, socketDirFor } from './platform/embeddedPostgres.js';

/**
 * `npm start` as a newcomer runs it: no DATABASE_URL, so the server starts its embedded PostgreSQL
 * under DATA_DIR. Stopping, restarting on the same data and recovering from a killed server.
 */
const dataDir = await mkdtemp(path.join(os.tmpdir(), 'trasa-startup-'));
const serverDir = path.resolve(import.meta.dirname, '..');
let port = 0;
const running: ChildProcess[] = [];

function start(env: Record<string, string> = {}): { child: ChildProcess; output: () => string } {
  let out = '';
  const { DATABASE_URL: _ignored, ...rest } = process.env;
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: serverDir,
    env: { ...rest, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (c) => (out += c));
  child.stderr?.on('data', (c) => (out += c));
  running.push(child);
  return { child, output: () => out };
}

async function healthy(timeoutMs = 60_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    try {
      const res = await fetch(`http://127.0.0.1:${port}/api/health`);
      if (res.ok) return;
    } catch {}
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error('server did not become healthy');
}

function exited(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve(child.exitCode);
    child.once('exit', (code) => resolve(code));
  });
}

async function login(email: string, lozinka: string): Promise<number> {
  const res = await fetch(`http://127.0.0.1:${port}/api/user/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, lozinka }),
  });
  return res.status;
}

const pidFile = path.join(dataDir, 'pg', 'postmaster.pid');

afterAll(async () => {
  for (const c of running) if (c.exitCode === null) c.kill('SIGTERM');
  await Promise.all(running.map(exited));
  // A PostgreSQL orphaned by a failed assertion is stopped too.
  if (existsSync(pidFile)) {
    const pid = Number((await readFile(pidFile, 'utf8')).split('\n')[0]);
    try {
      process.kill(pid, 'SIGINT');
    } catch {}
    await new Promise((r) => setTimeout(r, 1000));
  }
  await rm(dataDir, { recursive: true, force: true });
});

describe('start-up on the embedded PostgreSQL', () => {
  it('creates the first Admin, stops cleanly, reuses the data and recovers from a killed server', { timeout: 240_000 }, async () => {
    port = await freePort();

    // First start, no ADMIN_*: generated credentials are printed once.
    const first = start();
    await healthy();
    const printed = first.output().match(/e-mail: (\S+)\s+password: (\S+)/);
    expect(printed).not.toBeNull();
    const [, email = '', password = ''] = printed ?? [];
    expect(await login(email, password)).toBe(200);

    // The server reaches its PostgreSQL over the Unix socket in the data directory (cheaper per statement
    // than loopback TCP); TCP on 127.0.0.1 stays open for tools, as this check's own connection shows.
    const pgPort = Number((await readFile(pidFile, 'utf8')).split('\n')[3]);
    const pgData = path.join(dataDir, 'pg');
    expect(socketDirFor(pgData, pgPort)).toBe(pgData);
    expect(existsSync(path.join(pgData, `.s.PGSQL.${pgPort}`))).toBe(true);
    const pgPassword = (await readFile(path.join(dataDir, 'pg-password'), 'utf8')).trim();
    const viaTcp = new pg.Client({ connectionString: embeddedUrl(pgPassword, pgPort, null, 'trasa') });
    await viaTcp.connect();
    try {
      const { rows } = await viaTcp.query<{ over_socket: boolean; n: number }>(
        `select client_addr is null as over_socket, count(*)::int as n from pg_stat_activity
         where backend_type = 'client backend' and datname = 'trasa' and pid <> pg_backend_pid() group by 1`,
      );
      expect(rows).toEqual([{ over_socket: true, n: expect.any(Number) }]);
      const own = await viaTcp.query<{ addr: string }>('select host(inet_client_addr()) as addr');
      expect(own.rows[0]?.addr).toBe('127.0.0.1');
    } finally {
      await viaTcp.end();
    }
    // A path the socket can't have (too long for a socket's 107 bytes, or a list separator) keeps TCP only.
    expect(socketDirFor(`/tmp/${'x'.repeat(100)}`, pgPort)).toBeNull();
    expect(socketDirFor('/tmp/a,b', pgPort)).toBeNull();
    expect(embeddedUrl('p/w', 5, '/tmp/d x')).toBe('postgres://postgres:p%2Fw@127.0.0.1:5/postgres?host=%2Ftmp%2Fd%20x');

    first.child.kill('SIGTERM');
    expect(await exited(first.child)).toBe(0);
    expect(existsSync(pidFile)).toBe(false);

    // Second start on the same data: same Admin, nothing printed, ADMIN_* ignored as an Admin exists.
    const second = start({ ADMIN_EMAIL: 'drugi@primer.rs', ADMIN_PASSWORD: 'Lozinka123' });
    await healthy();
    expect(await login(email, password)).toBe(200);
    expect(await login('drugi@primer.rs', 'Lozinka123')).toBe(401);
    expect(second.output()).not.toMatch(/password:/);

    // A second server on the same DATA_DIR refuses to start and leaves the running one alone.
    const intruder = start({ PORT: String(await freePort()) });
    expect(await exited(intruder.child)).toBe(1);
    expect(intruder.output()).toContain('in use by a running Trasa server');
    expect(await login(email, password)).toBe(200);

    // A crash: the server dies, its PostgreSQL keeps running and holding the data directory.
    second.child.kill('SIGKILL');
    await exited(second.child);
    expect(existsSync(pidFile)).toBe(true);

    const third = start();
    await healthy();
    expect(await login(email, password)).toBe(200);
    third.child.kill('SIGINT');
    expect(await exited(third.child)).toBe(0);
    expect(existsSync(pidFile)).toBe(false);
  });
});
