// Exports of 100,000 rows: `npm run build -w @trasa/server && node bench/exports.mjs`.
// Starts the built server on a fresh database (embedded, or a new one at DATABASE_URL), inserts 100,000
// settlements (Cyrillic and Latin names, ten columns) with one INSERT … SELECT generate_series, then
// downloads GET /api/export/settlements as xlsx and as PDF over HTTP, reading the body as it comes, and
// samples the server's RSS (/proc/<pid>/status) every 20 ms. Targets: xlsx ≤ 5 s with RSS rising
// ≤ 300 MB; PDF ≤ 30 s with ≤ 500 MB. The xlsx is read back (streaming) to count its rows.
// BENCH_ROWS changes the size.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import ExcelJS from 'exceljs';
import pg from 'pg';
import { adminToken, startBenchServer } from './support.mjs';

const ROWS = Number(process.env.BENCH_ROWS || 100_000);

const FILL = `
  INSERT INTO settlements (code, naziv, maticni_broj, opstine, operator, javni_poziv, broj_domacinstava, broj_skola,
    broj_indirektno_pokrivenih_domacinstava, broj_indirektno_pokrivenih_skola)
  SELECT 'B' || i,
         CASE WHEN i % 2 = 0 THEN 'Насеље ' || i || ' Ђурђево' ELSE 'Naselje ' || i || ' Šljivovica' END,
         lpad((700000 + i)::text, 8, '0'),
         ARRAY[CASE WHEN i % 3 = 0 THEN 'Чајетина' ELSE 'Bajina Bašta' END],
         CASE WHEN i % 2 = 0 THEN 'Telekom' ELSE 'SBB' END,
         'JP-' || (i % 7),
         i % 500, i % 7, i % 90, i % 3
  FROM generate_series(1, $1::int) i`;

/** The server's pid: the process listening for `base` (its environment holds PORT=<port>). */
function serverPid(base) {
  const port = new URL(base).port;
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      const env = readFileSync(`/proc/${pid}/environ`, 'latin1').split('\0');
      if (env.includes(`PORT=${port}`) && readFileSync(`/proc/${pid}/cmdline`, 'latin1').includes('main.js')) return pid;
    } catch {}
  }
  return null;
}

/** CPU seconds (user + system) the process has used: the figure a loaded machine does not inflate. */
function cpuSeconds(pid) {
  if (!pid) return Number.NaN;
  const fields = readFileSync(`/proc/${pid}/stat`, 'latin1').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

async function download(base, token, format, pidStatus, pid) {
  const cpuBefore = cpuSeconds(pid);
  const before = pidStatus();
  let peak = before;
  const timer = setInterval(() => {
    peak = Math.max(peak, pidStatus());
  }, 20);
  const started = performance.now();
  const res = await fetch(`${base}/api/export/settlements?format=${format}`, { headers: { authorization: `Bearer ${token}` } });
  if (!res.ok) throw new Error(`${format}: ${res.status} ${await res.text()}`);
  const chunks = [];
  let bytes = 0;
  for await (const chunk of res.body) {
    chunks.push(chunk);
    bytes += chunk.length;
  }
  const seconds = (performance.now() - started) / 1000;
  clearInterval(timer);
  peak = Math.max(peak, pidStatus());
  const cpu = cpuSeconds(pid) - cpuBefore;
  return {
    format,
    seconds,
    cpu,
    bytes,
    rssBefore: before,
    rssPeak: peak,
    rise: peak - before,
    body: Buffer.concat(chunks),
    name: res.headers.get('content-disposition'),
  };
}

async function countXlsxRows(buffer) {
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(Readable.from([buffer]), {
    sharedStrings: 'ignore',
    styles: 'ignore',
    worksheets: 'emit',
  });
  let rows = 0;
  for await (const sheet of reader) for await (const _row of sheet) rows += 1;
  return rows - 1;
}

const server = await startBenchServer();
try {
  const db = new pg.Client({ connectionString: server.dbUrl });
  await db.connect();
  const t0 = performance.now();
  await db.query(FILL, [ROWS]);
  await db.query('ANALYZE settlements');
  await db.end();
  console.log(`inserted ${ROWS} settlements in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  const token = await adminToken(server.base);
  const rss = () => server.rssMb();
  // A warm-up (fonts, code paths) on a small list, like a running server.
  await fetch(`${server.base}/api/export/groups?format=pdf`, { headers: { authorization: `Bearer ${token}` } }).then((r) =>
    r.arrayBuffer(),
  );
  await fetch(`${server.base}/api/export/groups?format=xlsx`, { headers: { authorization: `Bearer ${token}` } }).then((r) =>
    r.arrayBuffer(),
  );
  const results = [];
  for (const format of ['xlsx', 'pdf']) {
    const r = await download(server.base, token, format, rss, serverPid(server.base));
    const check =
      format === 'xlsx'
        ? `${await countXlsxRows(r.body)} rows`
        : `${/\/Type \/Pages\s*\/Count (\d+)/.exec(r.body.toString('latin1'))?.[1]} pages`;
    if (process.env.BENCH_KEEP) writeFileSync(path.join(os.tmpdir(), `bench-export.${format}`), r.body);
    results.push({ ...r, check });
    console.log(
      `${format}: ${r.seconds.toFixed(2)} s (server CPU ${r.cpu.toFixed(2)} s), ${(r.bytes / 1e6).toFixed(1)} MB, ${check}; server RSS ${r.rssBefore} → peak ${r.rssPeak} MB (+${r.rise} MB)`,
    );
  }
  console.log(
    `machine: ${os.cpus().length} CPUs, load ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}; ${server.onEmbedded ? 'embedded PostgreSQL' : 'DATABASE_URL'}`,
  );
  const xlsx = results[0];
  const pdf = results[1];
  const ok = xlsx.seconds <= 5 && xlsx.rise <= 300 && pdf.seconds <= 30 && pdf.rise <= 500;
  console.log(ok ? 'within targets' : 'OUTSIDE targets (xlsx ≤ 5 s / +300 MB, PDF ≤ 30 s / +500 MB)');
} finally {
  await server.stop();
}
