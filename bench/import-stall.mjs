// Other requests while imports over the row limit run. Against the server on a fresh database, for each
// import kind (users as a Rukovodilac; settlements, clusters and inventory as the Admin): GET
// /api/user/my-profile at PROFILE_RATE a second (40), open-loop, for QUIET_SECONDS alone (5: the quiet
// p99), then while two imports of a 100,001-row file are posted at once (one runs, the other waits its
// turn: imports run one at a time), until both are answered — IMPORT_PAIRS such pairs one after another
// (20: a csv refusal takes a tenth of a second, and the p99 of fewer than ~100 requests is their slowest one). Passes when my-profile's p99
// under the imports stays within 3× the same run's quiet p99. IMPORT_FORMAT=xlsx posts xlsx files
// instead of csv (the limit is then found by the reader, after parsing the 100,000 rows before it).
//   node bench/import-stall.mjs [users,settlements,clusters,inventory]

import { randomBytes, scryptSync } from 'node:crypto';
import http from 'node:http';
import ExcelJS from 'exceljs';
import pg from 'pg';
import { adminToken, startBenchServer } from './support.mjs';

const kinds = (process.argv[2] || 'users,settlements,clusters,inventory').split(',');
const rows = Number(process.env.IMPORT_ROWS || 100_001);
const format = process.env.IMPORT_FORMAT === 'xlsx' ? 'xlsx' : 'csv';
const profileRate = Number(process.env.PROFILE_RATE || 40);
const quietSeconds = Number(process.env.QUIET_SECONDS || 5);
const pairs = Number(process.env.IMPORT_PAIRS || 20);
const LIMIT_RATIO = 3;
const MANAGER = { email: 'rukovodilac@bench.test', password: 'Rukovodilac-Lozinka-7' };

const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });

/** One request; resolves with its status, time in ms and body (never rejects: a failure is status 0). */
function call(base, method, path, { body, headers = {} } = {}) {
  const started = performance.now();
  return new Promise((resolve) => {
    const req = http.request(`${base}${path}`, { method, agent, headers }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, ms: performance.now() - started, body: Buffer.concat(chunks).toString('utf8') }),
      );
    });
    req.setTimeout(120_000, () => req.destroy(new Error('timeout')));
    req.on('error', () => resolve({ status: 0, ms: performance.now() - started, body: '' }));
    if (body) req.write(body);
    req.end();
  });
}

/** Fires `send` `rate` times a second until `done()` says stop (or for `ms`), not waiting for answers. */
async function openLoop(rate, { ms = Infinity, done = () => false }, send) {
  const pending = [];
  const start = performance.now();
  for (let i = 0; ; i++) {
    const due = start + (i * 1000) / rate;
    if (due - start >= ms || done()) break;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    pending.push(send(i));
  }
  return Promise.all(pending);
}

const pct = (values, p) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
};
const ms = (v) => `${Math.round(v)} ms`;

/** The stored form of the server's scrypt hashes (platform/passwords.ts). */
function hash(password) {
  const salt = randomBytes(16);
  const N = 2 ** 17;
  const key = scryptSync(password.normalize('NFKC'), salt, 32, { N, r: 8, p: 1, maxmem: 256 * N * 8 + 16 * 1024 * 1024 });
  return `scrypt$17$8$1$${salt.toString('base64')}$${key.toString('base64')}`;
}

/** Each kind's route, header and row (i from 1); rows are valid, so only the limit refuses the file. */
const KINDS = {
  users: { path: () => '/api/user/excel-import', header: ['Ime', 'Prezime', 'Email'], row: (i) => [`I${i}`, `P${i}`, `u${i}@b.rs`] },
  settlements: {
    path: () => '/api/naselje/excel-import',
    header: ['ID', 'Naziv', 'Opština', 'Broj domaćinstava'],
    row: (i) => [`BS-${i}`, `Naselje ${i}`, `Opština ${i % 150}`, String(i % 900)],
  },
  clusters: {
    path: () => '/api/location/excel-import',
    header: ['Klaster', 'ID', 'Naziv', 'Usputno naselje'],
    row: (i) => [`Klaster ${Math.ceil(i / 10)}`, `BK-${i}`, `Naselje ${i}`, i % 10 === 0 ? 'da' : 'ne'],
  },
  inventory: {
    path: (setup) => `/api/inventory/import?lokacija=${setup.location}`,
    header: ['Šifra', 'Količina', 'Datum primopredaje'],
    row: (i) => ['OP-01', String(1 + (i % 9)), `${1 + (i % 28)}.${1 + (i % 12)}.2026`],
  },
};

async function fileOf(kind) {
  const { header, row } = KINDS[kind];
  if (format === 'csv') {
    const lines = [header.join(',')];
    for (let i = 1; i <= rows; i++) lines.push(row(i).join(','));
    return Buffer.from(lines.join('\r\n'), 'utf8');
  }
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('Podaci');
  ws.addRow(header);
  for (let i = 1; i <= rows; i++) ws.addRow(row(i));
  return Buffer.from(await wb.xlsx.writeBuffer());
}

/** A multipart body with one `file` part. */
function multipart(content, name) {
  const boundary = `----bench${randomBytes(8).toString('hex')}`;
  const head = Buffer.from(
    `--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="${name}"\r\ncontent-type: application/octet-stream\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return { body: Buffer.concat([head, content, tail]), type: `multipart/form-data; boundary=${boundary}` };
}

const server = await startBenchServer({}, { quiet: true });
let failed = false;
try {
  const base = server.base;
  const db = new pg.Client({ connectionString: server.dbUrl });
  await db.connect();
  const group = await db.query(
    `insert into groups (naziv, kratak_naziv, type_id) values ('Bench Izvođač', 'BI', (select id from group_types where code = 'IZVODJAC'))
     returning id`,
  );
  await db.query(
    `insert into users (ime, prezime, email, email_potvrdjen, role_id, group_id, status, password_hash)
     values ('Bench', 'Rukovodilac', $1, true, (select id from roles where base_role = 'Rukovodilac' and builtin limit 1), $2, 'aktivan', $3)`,
    [MANAGER.email, group.rows[0].id, hash(MANAGER.password)],
  );
  const location = (await db.query(`insert into clusters (naziv) values ('Bench škola') returning id`)).rows[0].id;
  await db.end();
  const admin = await adminToken(base);
  const login = await call(base, 'POST', '/api/user/login', {
    body: JSON.stringify({ email: MANAGER.email, lozinka: MANAGER.password }),
    headers: { 'content-type': 'application/json' },
  });
  const manager = JSON.parse(login.body).token;
  if (!admin || !manager) throw new Error(`setup sign-in failed: ${login.status}`);
  const profile = () => call(base, 'GET', '/api/user/my-profile', { headers: { authorization: `Bearer ${admin}` } });

  console.log(
    `\nimport stall: ${rows.toLocaleString('en')}-row ${format} files, ${profileRate} my-profile/s, server on ${server.onEmbedded ? 'embedded PostgreSQL' : 'DATABASE_URL'}`,
  );
  for (const kind of kinds) {
    if (!KINDS[kind]) throw new Error(`unknown kind ${kind}`);
    const file = await fileOf(kind);
    const token = kind === 'users' ? manager : admin;
    const { body, type } = multipart(file, `${kind}.${format}`);
    const post = () =>
      call(base, 'POST', KINDS[kind].path({ location }), { body, headers: { authorization: `Bearer ${token}`, 'content-type': type } });

    const rssBefore = server.rssMb();
    const quiet = (await openLoop(profileRate, { ms: quietSeconds * 1000 }, profile)).map((r) => r.ms);
    let done = false;
    const loaded = openLoop(profileRate, { done: () => done }, profile);
    const answers = [];
    for (let i = 0; i < pairs; i++) answers.push(...(await Promise.all([post(), post()])));
    done = true;
    const under = (await loaded).map((r) => r.ms);
    const quietP99 = pct(quiet, 99);
    const p99 = pct(under, 99);
    const ok = p99 <= LIMIT_RATIO * quietP99;
    failed ||= !ok;
    const statuses = [
      ...new Set(answers.map((r) => `${r.status}${r.status === 200 ? '' : ` (${JSON.parse(r.body || '{}').message ?? ''})`}`)),
    ];
    const times = answers.map((r) => r.ms);
    console.log(
      `${kind} (${(file.length / 1024 / 1024).toFixed(1)} MB): ${answers.length} imports ${statuses.join(', ')}, answered in ${ms(Math.min(...times))}–${ms(Math.max(...times))};` +
        ` my-profile quiet p99 ${ms(quietP99)}, under the imports p50 ${ms(pct(under, 50))} p99 ${ms(p99)} max ${ms(Math.max(...under))}` +
        ` (${under.length} requests) = ${(p99 / quietP99).toFixed(1)}× quiet — ${ok ? 'PASS' : 'FAIL'}; RSS ${rssBefore} → ${server.rssMb()} MB`,
    );
  }
  console.log(`server peak RSS (VmHWM): ${server.peakMb()} MB`);
} finally {
  agent.destroy();
  await server.stop();
}
process.exitCode = failed ? 1 : 0;
