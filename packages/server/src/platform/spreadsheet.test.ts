import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { crc32, deflateRawSync } from 'node:zlib';
import * as XLSX from '@e965/xlsx';
import ExcelJS from 'exceljs';
import Papa from 'papaparse';
import { afterAll, describe, expect, it } from 'vitest';
import { CsvRowCount, detectFormat, readSheet, SHEET_STATS, SHEET_TEXTS, type SheetRow } from './spreadsheet.js';
import { craftedXlsx } from './testXlsx.js';

const dir = await mkdtemp(path.join(os.tmpdir(), 'trasa-sheet-'));
afterAll(() => rm(dir, { recursive: true, force: true }));

async function all(file: string, name: string): Promise<SheetRow[]> {
  const rows: SheetRow[] = [];
  for await (const r of readSheet(file, await detectFormat(file, name))) rows.push(r);
  return rows;
}

/** A zip with one stored-deflated entry, written by hand (no zip library needed for a test file). */
function zipOf(name: string, content: Buffer): Buffer {
  const data = deflateRawSync(content, { level: 9 });
  const crc = crc32(content);
  const fileName = Buffer.from(name);
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  local.writeUInt16LE(20, 4);
  local.writeUInt16LE(8, 8);
  local.writeUInt32LE(crc, 14);
  local.writeUInt32LE(data.length, 18);
  local.writeUInt32LE(content.length, 22);
  local.writeUInt16LE(fileName.length, 26);
  const central = Buffer.alloc(46);
  central.writeUInt32LE(0x02014b50, 0);
  central.writeUInt16LE(20, 4);
  central.writeUInt16LE(20, 6);
  central.writeUInt16LE(8, 10);
  central.writeUInt32LE(crc, 16);
  central.writeUInt32LE(data.length, 20);
  central.writeUInt32LE(content.length, 24);
  central.writeUInt16LE(fileName.length, 28);
  const centralOffset = local.length + fileName.length + data.length;
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(1, 8);
  end.writeUInt16LE(1, 10);
  end.writeUInt32LE(central.length + fileName.length, 12);
  end.writeUInt32LE(centralOffset, 16);
  return Buffer.concat([local, fileName, data, central, fileName, end]);
}

describe('spreadsheet import reader', () => {
  it('reads an xlsx by its header, with Cyrillic, numbers and dates', async () => {
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('Naselja');
    ws.addRow(['id', 'naziv', 'brojSkola', 'datum']);
    ws.addRow(['70017', 'Мокра Гора', 2, new Date('2026-03-01T00:00:00Z')]);
    ws.addRow([]);
    ws.addRow(['70018', { richText: [{ text: 'Kre' }, { text: 'mna' }] }, 1, null]);
    const file = path.join(dir, 'a.xlsx');
    await wb.xlsx.writeFile(file);
    expect(await all(file, 'naselja.XLSX')).toEqual([
      { row: 2, values: { id: '70017', naziv: 'Мокра Гора', brojSkola: '2', datum: '2026-03-01' } },
      { row: 4, values: { id: '70018', naziv: 'Kremna', brojSkola: '1', datum: '' } },
    ]);
  });

  it('reads a csv with a BOM, semicolons and quoted commas', async () => {
    const file = path.join(dir, 'a.csv');
    await writeFile(file, '\uFEFFid;naziv;opstina\r\n1;Šljivovica;"Čajetina, Užice"\r\n\r\n2;Đurinci;Mladenovac\r\n');
    expect(await all(file, 'a.csv')).toEqual([
      { row: 2, values: { id: '1', naziv: 'Šljivovica', opstina: 'Čajetina, Užice' } },
      { row: 4, values: { id: '2', naziv: 'Đurinci', opstina: 'Mladenovac' } },
    ]);
  });

  it('reads a legacy xls', async () => {
    const wb = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(
      wb,
      XLSX.utils.aoa_to_sheet([
        ['email', 'ime'],
        ['ana@primer.rs', 'Ana'],
      ]),
      'Korisnici',
    );
    const file = path.join(dir, 'a.xls');
    await writeFile(file, XLSX.write(wb, { type: 'buffer', bookType: 'biff8' }) as Buffer);
    expect(await detectFormat(file, 'korisnici.xls')).toBe('xls');
    expect(await all(file, 'korisnici.xls')).toEqual([{ row: 2, values: { email: 'ana@primer.rs', ime: 'Ana' } }]);
  });

  it('refuses a zip bomb before inflating it', async () => {
    const file = path.join(dir, 'bomb.xlsx');
    await writeFile(file, zipOf('xl/worksheets/sheet1.xml', Buffer.alloc(50 * 1024 * 1024, 0x20)));
    await expect(all(file, 'bomb.xlsx')).rejects.toThrow(SHEET_TEXTS.bomb);
  });

  it('counts what is actually inflated: a part lying about its size stops at the size it declared (issue 12)', async () => {
    const rows = [
      ['id', 'naziv'],
      ['1', 'Мокра Гора'],
    ];
    const honest = path.join(dir, 'honest.xlsx');
    await writeFile(honest, craftedXlsx(rows, { filler: 200_000 }));
    expect(await all(honest, 'honest.xlsx')).toEqual([{ row: 2, values: { id: '1', naziv: 'Мокра Гора' } }]);

    // 60 MB of shared strings declared as 900 KB: the declared sizes pass every check.
    const declared = 900 * 1024;
    const lying = craftedXlsx(rows, { filler: 60 * 1024 * 1024, declaredStringsSize: declared });
    expect(lying.length).toBeLessThan(declared / 3);
    const file = path.join(dir, 'lying.xlsx');
    await writeFile(file, lying);
    const before = SHEET_STATS.inflatedBytes;
    await expect(all(file, 'lying.xlsx')).rejects.toThrow(SHEET_TEXTS.bomb);
    const inflated = SHEET_STATS.inflatedBytes - before;
    expect(inflated).toBeGreaterThan(declared);
    expect(inflated).toBeLessThan(declared + 256 * 1024);
  });

  it('reads the first sheet of the workbook only, never inflating the others', async () => {
    const wb = new ExcelJS.Workbook();
    wb.addWorksheet('Prvi').addRows([['id'], ['1']]);
    const second = wb.addWorksheet('Drugi');
    for (let i = 0; i < 20_000; i++) second.addRow([i, i * 2, i * 3, i * 4]);
    const file = path.join(dir, 'two.xlsx');
    await wb.xlsx.writeFile(file);
    const before = SHEET_STATS.inflatedBytes;
    expect(await all(file, 'two.xlsx')).toEqual([{ row: 2, values: { id: '1' } }]);
    // the second sheet alone is over 1.5 MB of XML
    expect(SHEET_STATS.inflatedBytes - before).toBeLessThan(100_000);
  });

  it('decides the format by content, not by the name', async () => {
    const fake = path.join(dir, 'fake.xlsx');
    await writeFile(fake, 'id,naziv\n1,x\n');
    await expect(detectFormat(fake, 'fake.xlsx')).rejects.toThrow(SHEET_TEXTS.unsupported);
    const binary = path.join(dir, 'bin.csv');
    await writeFile(binary, Buffer.from([0x25, 0x50, 0x44, 0x46, 0x00, 0x01]));
    await expect(detectFormat(binary, 'bin.csv')).rejects.toThrow(SHEET_TEXTS.unsupported);
    const broken = path.join(dir, 'broken.xlsx');
    await writeFile(broken, Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.alloc(100, 1)]));
    await expect(all(broken, 'broken.xlsx')).rejects.toThrow(SHEET_TEXTS.unreadable);
  });

  it('takes only the names the spec allows (csv, xlsx, xls), whatever the content', async () => {
    const text = path.join(dir, 'tabela.txt');
    await writeFile(text, 'id,naziv\n1,x\n');
    await expect(detectFormat(text, 'tabela.txt')).rejects.toThrow(SHEET_TEXTS.unsupported);
    const wb = new ExcelJS.Workbook();
    wb.addWorksheet('x').addRow(['id']);
    const xlsx = path.join(dir, 'tabela-xlsx');
    await wb.xlsx.writeFile(xlsx);
    for (const name of ['tabela.zip', 'tabela', 'tabela.xlsx.exe'])
      await expect(detectFormat(xlsx, name), name).rejects.toThrow(SHEET_TEXTS.unsupported);
    // An xlsx saved under .xls is still read (spreadsheet programs open it so).
    expect(await detectFormat(xlsx, 'tabela.xls')).toBe('xlsx');
  });

  it('reads a long csv chunk by chunk as papaparse reads it whole, and counts its rows so while it uploads', async () => {
    // Quoted cells with separators and line ends, across the reader's 64 KB chunks; blank rows between.
    const lines = ['id;naziv;napomena'];
    for (let i = 1; i <= 6000; i++) {
      lines.push(`${i};"Naselje ${i}; ""staro""";"red\r\n${'x'.repeat(i % 40)}"`);
      if (i % 500 === 0) lines.push(';;', '');
    }
    const text = lines.join('\r\n');
    const file = path.join(dir, 'long.csv');
    await writeFile(file, text);
    const expected = Papa.parse<string[]>(text, { skipEmptyLines: false })
      .data.map((cells, i) => ({ row: i + 1, cells }))
      .filter(({ cells }) => cells.some((c) => c.trim() !== ''))
      .slice(1)
      .map(({ row, cells }) => ({ row, values: { id: cells[0], naziv: cells[1], napomena: cells[2]?.trim() } }));
    expect(expected).toHaveLength(6000);
    expect(await all(file, 'long.csv')).toEqual(expected);

    const upload = (maxRows: number) => {
      const count = new CsvRowCount({ maxRows, message: 'previše' });
      const bytes = Buffer.from(text);
      for (let at = 0; at < bytes.length; at += 1000) count.push(bytes.subarray(at, at + 1000));
      count.end();
    };
    expect(() => upload(6000)).not.toThrow();
    expect(() => upload(5999)).toThrow('previše');
  });

  it('needs a header row', async () => {
    const file = path.join(dir, 'empty.csv');
    await writeFile(file, '\n\n');
    await expect(all(file, 'empty.csv')).rejects.toThrow(SHEET_TEXTS.noHeader);
  });
});
