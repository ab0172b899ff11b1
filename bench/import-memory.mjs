// Peak memory and time of reading a large spreadsheet with the import reader
// (packages/server/src/platform/spreadsheet.ts): `node --import tsx bench/import-memory.mjs [rows]`.
// Writes an xlsx of settlement-like rows with exceljs' streaming writer, then reads it back in a
// separate process so the reading's peak RSS is measured alone.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

if (process.argv[2] === '--read') {
  const { readSheet, detectFormat } = await import('../packages/server/src/platform/spreadsheet.ts');
  const file = process.argv[3];
  const t = performance.now();
  let rows = 0;
  for await (const _ of readSheet(file, await detectFormat(file, file))) rows++;
  const ms = Math.round(performance.now() - t);
  console.log(JSON.stringify({ rows, ms, maxRssMb: Math.round(process.resourceUsage().maxRSS / 1024) }));
  process.exit(0);
}

const ExcelJS = (await import('exceljs')).default;
const rows = Number(process.argv[2] || 95_000); // the reader refuses more than 100,000 rows
const dir = mkdtempSync(path.join(os.tmpdir(), 'trasa-import-bench-'));
const file = path.join(dir, 'naselja.xlsx');
const writer = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: file, useSharedStrings: false, useStyles: false });
const sheet = writer.addWorksheet('Naselja');
sheet.addRow(['id', 'naziv', 'maticniBroj', 'opstina', 'brojDomacinstava', 'brojSkola', 'javniPoziv']).commit();
for (let i = 0; i < rows; i++) {
  sheet
    .addRow([
      `${700000 + i}`,
      `Naselje ${i} Šljivovica Đurđevo Gornje Donje Selo ${i * 7}`,
      `${70000000 + i}`,
      `Opština ${i % 150}, ${Math.random().toString(36).slice(2)}`,
      i % 900,
      i % 4,
      `JP-${i % 12} ${Math.random().toString(36).slice(2)}${Math.random().toString(36).slice(2)}`,
    ])
    .commit();
}
await sheet.commit();
await writer.commit();
const mb = (statSync(file).size / 1024 / 1024).toFixed(1);
const read = spawnSync(process.execPath, ['--import', 'tsx', import.meta.filename, '--read', file], { encoding: 'utf8' });
if (read.status !== 0) throw new Error(read.stderr);
const result = JSON.parse(read.stdout.trim().split('\n').pop() || '{}');
console.log(`xlsx ${mb} MB, ${result.rows} rows: read in ${result.ms} ms, peak RSS ${result.maxRssMb} MB`);
rmSync(dir, { recursive: true, force: true });
