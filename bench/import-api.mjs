// A whole settlements import over HTTP, as the web sends it: `node bench/import-api.mjs [rows]`
// (build first). Writes an xlsx of settlement rows (~8 MB at 95,000 rows), POSTs it to
// /api/naselje/excel-import on a fresh server, then imports it again (every row now a "skipped"
// warning). Prints the time of each and the server's peak resident memory (VmHWM).
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { adminToken, startBenchServer } from './support.mjs';

const rows = Number(process.argv[2] || 95_000);
// IMPORT_WIDE=1: longer, unique names and municipalities (~7 MB at 100,000 rows), the spec's worst case.
const wide = process.env.IMPORT_WIDE === '1';
const noise = (i) =>
  wide ? ` ${(i * 2654435761).toString(36)} ${(i * 40503).toString(36)} Potok ${(i * 97).toString(36)} Brdo Ravnica` : '';
const dir = mkdtempSync(path.join(os.tmpdir(), 'trasa-import-api-'));
const file = path.join(dir, 'naselja.xlsx');
const writer = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: file, useSharedStrings: false, useStyles: false });
const sheet = writer.addWorksheet('Naselja');
sheet.addRow(['ID насеља', 'Назив насеља', 'Матични број', 'Општина', 'Број домаћинстава', 'Број школа', 'Јавни позив']).commit();
for (let i = 0; i < rows; i++) {
  sheet
    .addRow([
      `B-${700000 + i}`,
      `Naselje ${i} Šljivovica Đurđevo Gornje Donje Selo ${i * 7}${noise(i)}`,
      `${70000000 + i}`,
      `Opština ${i % 150}, Okrug ${i % 29}${noise(i + 1)}`,
      i % 900,
      i % 4,
      `JP-${i % 12}`,
    ])
    .commit();
}
await sheet.commit();
await writer.commit();
const bytes = readFileSync(file);
const mb = (statSync(file).size / 1024 / 1024).toFixed(1);

const server = await startBenchServer();
try {
  const token = await adminToken(server.base);
  const run = async () => {
    const form = new FormData();
    form.append('file', new Blob([bytes]), 'naselja.xlsx');
    const t = performance.now();
    const res = await fetch(`${server.base}/api/naselje/excel-import`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: form,
    });
    const body = await res.json();
    const ms = Math.round(performance.now() - t);
    if (!res.ok) throw new Error(`${res.status} ${JSON.stringify(body).slice(0, 300)}`);
    return { ms, doc: body.document, rss: server.rssMb() };
  };
  const before = server.rssMb();
  const first = await run();
  const second = await run();
  console.log(`xlsx ${mb} MB, ${rows} rows; server RSS before ${before} MB`);
  console.log(`first import: ${first.ms} ms, saved ${first.doc.uvezeno}, errors ${first.doc.neuspesno}; RSS after ${first.rss} MB`);
  console.log(`second import: ${second.ms} ms, saved ${second.doc.uvezeno}, skipped ${second.doc.preskoceno}; RSS after ${second.rss} MB`);
  console.log(`server peak RSS (VmHWM): ${server.peakMb()} MB`);
} finally {
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
}
