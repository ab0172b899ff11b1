import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from './platform/embeddedPostgres.js';
import { ORPHAN_MIN_AGE_MS } from './platform/orphans.js';
import { minimalPdf } from './seed/demoContracts.js';

/**
 * Crash safety (docs/decisions.md "Crash safety of stored files"): the server (`node --import tsx
 * src/main.ts`) on its embedded PostgreSQL in a temporary DATA_DIR takes a stream of writes — contracts
 * created, documents uploaded to them — from several clients at once, with an upload and an import
 * caught mid-stream, when the server and its PostgreSQL are both killed with SIGKILL. After a restart
 * every acknowledged write is there, and the start-up sweep leaves no file without its row and no row
 * without its file (the interrupted upload's and import's files are removed, and the sweep says so).
 */
const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'trasa-crash-'));
const serverDir = path.resolve(import.meta.dirname, '..');
const ADMIN = { email: 'admin@crash.test', lozinka: 'Krah-Test-2026' };
const running: ChildProcess[] = [];
let port = 0;

function start(): { child: ChildProcess; output: () => string } {
  let out = '';
  const { DATABASE_URL: _ignored, ...rest } = process.env;
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: serverDir,
    env: {
      ...rest,
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.lozinka,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (c) => (out += c));
  child.stderr?.on('data', (c) => (out += c));
  running.push(child);
  return { child, output: () => out };
}

async function healthy(timeoutMs = 90_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/api/health`)).ok) return;
    } catch {}
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error('server did not become healthy');
}

function exited(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
  });
}

const pidFile = path.join(dataDir, 'pg', 'postmaster.pid');
async function postmaster(): Promise<{ pid: number; port: number }> {
  const lines = (await fs.readFile(pidFile, 'utf8')).split('\n');
  return { pid: Number(lines[0]), port: Number(lines[3]) };
}

async function api(token: string, method: string, url: string, body?: unknown) {
  const res = await fetch(`http://127.0.0.1:${port}${url}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body !== undefined && { 'content-type': 'application/json' }) },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  return { status: res.status, json: (await res.json().catch(() => null)) as Record<string, unknown> | null };
}

async function upload(token: string, contractId: string, name: string) {
  const form = new FormData();
  form.append('naziv', `Ugovor ${name}`);
  form.append('datumPocetka', '2026-01-15');
  form.append('rokTrajanja', '365');
  form.append('fajl0', new Blob([minimalPdf([name])], { type: 'application/pdf' }), `${name}.pdf`);
  const res = await fetch(`http://127.0.0.1:${port}/api/contract/contract/${contractId}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  const json = (await res.json().catch(() => null)) as { contract?: { fajlovi?: { _id: string; originalnoIme: string }[] } } | null;
  return { status: res.status, files: json?.contract?.fajlovi ?? [] };
}

/** A multipart upload that sends its head and part of its file, then hangs (until the server dies). */
function hangingUpload(token: string, url: string, field: string, filename: string, head: Buffer): http.ClientRequest {
  const boundary = '----trasacrash';
  const req = http.request({
    host: '127.0.0.1',
    port,
    method: 'POST',
    path: url,
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': `multipart/form-data; boundary=${boundary}`,
      'content-length': String(10 * 1024 * 1024),
    },
  });
  req.on('error', () => undefined);
  req.write(
    `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
  );
  req.write(head);
  return req;
}

async function waitFor(check: () => Promise<boolean>, what: string, timeoutMs = 20_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

const list = (dir: string) => fs.readdir(path.join(dataDir, dir)).catch(() => [] as string[]);

afterAll(async () => {
  for (const c of running) if (c.exitCode === null && c.signalCode === null) c.kill('SIGTERM');
  await Promise.all(running.map(exited));
  if (existsSync(pidFile)) {
    try {
      process.kill((await postmaster()).pid, 'SIGINT');
    } catch {}
    await new Promise((r) => setTimeout(r, 1000));
  }
  await fs.rm(dataDir, { recursive: true, force: true });
});

describe('crash safety', () => {
  it('keeps every acknowledged write and no file without its row after SIGKILL of the server and PostgreSQL', {
    timeout: 300_000,
  }, async () => {
    port = await freePort();
    const first = start();
    await healthy();
    const login = await fetch(`http://127.0.0.1:${port}/api/user/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(ADMIN),
    });
    expect(login.status).toBe(200);
    const { token } = (await login.json()) as { token: string };

    // The stream: four clients, each creating contracts and uploading a document to each, until the kill.
    const acked = { contracts: new Set<string>(), files: new Map<string, string>() };
    let stop = false;
    const client = async (n: number) => {
      for (let i = 0; !stop; i++) {
        const name = `K${n}-${i}`;
        try {
          const created = await api(token, 'POST', '/api/contract', {
            naziv: `Ugovor ${name}`,
            broj: `${name}/26`,
            datumPocetka: '2026-01-15',
            rokTrajanja: 365,
          });
          if (created.status !== 201) continue;
          const id = String(created.json?.document);
          acked.contracts.add(id);
          const up = await upload(token, id, name);
          if (up.status === 200) for (const f of up.files) acked.files.set(f._id, id);
        } catch {
          return; // the server is gone
        }
      }
    };
    const clients = [0, 1, 2, 3].map(client);
    await waitFor(async () => acked.files.size >= 8, 'the first acknowledged uploads', 60_000);

    // An upload and an import caught mid-stream: their files exist, no row names them.
    const filesBefore = new Set(await list('files'));
    const hangingDoc = hangingUpload(
      token,
      `/api/contract/contract/${[...acked.contracts][0]}`,
      'fajl0',
      'prekinut.pdf',
      minimalPdf(['Prekinut']).subarray(0, 200),
    );
    const hangingImport = hangingUpload(token, '/api/user/excel-import', 'file', 'korisnici.csv', Buffer.from('ime,prezime,email\n'));
    await waitFor(async () => (await list('files')).some((f) => !filesBefore.has(f)), 'the interrupted upload on disk');
    await waitFor(async () => (await list('tmp')).some((f) => f.startsWith('import-')), 'the interrupted import on disk');

    // Both killed at once, mid-stream.
    const pgPid = (await postmaster()).pid;
    first.child.kill('SIGKILL');
    process.kill(pgPid, 'SIGKILL');
    stop = true;
    await exited(first.child);
    await Promise.all(clients);
    hangingDoc.destroy();
    hangingImport.destroy();
    await waitFor(async () => {
      try {
        process.kill(pgPid, 0);
        return false;
      } catch {
        return true;
      }
    }, 'PostgreSQL to die');
    expect(acked.contracts.size).toBeGreaterThan(0);

    // The restart comes later than the sweep's age limit (another server may be uploading the young files).
    const past = new Date(Date.now() - ORPHAN_MIN_AGE_MS - 60_000);
    for (const dir of ['files', 'tmp'])
      for (const f of await list(dir)) await fs.utimes(path.join(dataDir, dir, f), past, past).catch(() => undefined);
    const leftovers = { files: await list('files'), tmp: (await list('tmp')).filter((f) => f.startsWith('import-')) };

    const second = start();
    await healthy();

    const { port: pgPort } = await postmaster();
    const password = (await fs.readFile(path.join(dataDir, 'pg-password'), 'utf8')).trim();
    const db = new pg.Client({ connectionString: `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${pgPort}/trasa` });
    await db.connect();
    try {
      // Every acknowledged write is there.
      const contracts = new Set(
        (await db.query<{ id: string }>("select id::text from contracts where kind = 'contract'")).rows.map((r) => r.id),
      );
      for (const id of acked.contracts) expect(contracts.has(id), `acknowledged contract ${id}`).toBe(true);
      const rows = (
        await db.query<{ id: string; contract: string; name: string }>(
          'select id::text, contract_id::text as contract, stored_name as name from contract_files',
        )
      ).rows;
      const byId = new Map(rows.map((r) => [r.id, r]));
      for (const [fileId, contractId] of acked.files)
        expect(byId.get(fileId)?.contract, `acknowledged document ${fileId}`).toBe(contractId);

      // No row without its file, no file without its row.
      const onDisk = new Set(await list('files'));
      const named = new Set(rows.map((r) => r.name));
      expect(rows.filter((r) => !onDisk.has(r.name))).toEqual([]);
      expect([...onDisk].filter((f) => !named.has(f))).toEqual([]);
      expect((await list('tmp')).filter((f) => f.startsWith('import-'))).toEqual([]);

      // The sweep removed the interrupted upload's and import's files, and said so.
      const removed = leftovers.files.filter((f) => !named.has(f));
      expect(removed.length).toBeGreaterThanOrEqual(1);
      expect(leftovers.tmp.length).toBeGreaterThanOrEqual(1);
      console.info(
        `crash: ${acked.contracts.size} contracts and ${acked.files.size} documents acknowledged before the kill, all there after the restart; the sweep removed ${removed.length} file(s) and ${leftovers.tmp.length} import temp file(s)`,
      );
      expect(second.output()).toContain(
        `removed ${removed.length} stored file(s) no row references and ${leftovers.tmp.length} temporary file(s)`,
      );
    } finally {
      await db.end();
    }

    // The documents download after the restart.
    const login2 = await fetch(`http://127.0.0.1:${port}/api/user/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(ADMIN),
    });
    const token2 = ((await login2.json()) as { token: string }).token;
    const [fileId, contractId] = [...acked.files][0] ?? [];
    const download = await fetch(`http://127.0.0.1:${port}/api/files/contract/${contractId}/${fileId}`, {
      headers: { authorization: `Bearer ${token2}` },
    });
    expect(download.status).toBe(200);
    expect(
      Buffer.from(await download.arrayBuffer())
        .subarray(0, 5)
        .toString('latin1'),
    ).toBe('%PDF-');

    second.child.kill('SIGTERM');
    await exited(second.child);
  });
});
