import { randomBytes } from 'node:crypto';
import { PassThrough } from 'node:stream';
import * as XLSX from '@e965/xlsx';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { type Cell, columnLetters, type SheetColumn, sheetNameOf, writeXlsx } from './xlsxWriter.js';

async function xlsxOf(name: string, columns: SheetColumn[], rows: Cell[][]): Promise<Buffer> {
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise((r) => out.on('end', r));
  await writeXlsx(
    out,
    name,
    columns,
    (async function* () {
      for (let i = 0; i < rows.length; i += 7) yield rows.slice(i, i + 7);
    })(),
  );
  out.end();
  await done;
  return Buffer.concat(chunks);
}

async function written(name: string): Promise<string[]> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load((await xlsxOf(name, [{ header: 'Naziv', width: 10 }], [['a']])) as unknown as ArrayBuffer);
  return wb.worksheets.map((s) => s.name);
}

describe('sheet names', () => {
  it('lose the characters Excel forbids and keep at most 31 characters', async () => {
    const names = await written('Izveštaj: 2026/11 \\ [škole]? * Zlatiborski okrug i ostali');
    expect(names).toHaveLength(1);
    const [name = ''] = names;
    expect(name).not.toMatch(/[:\\/?*[\]]/);
    expect(name.length).toBeLessThanOrEqual(31);
    expect(name).toBe(sheetNameOf('Izveštaj: 2026/11 \\ [škole]? * Zlatiborski okrug i ostali'));
    expect(name.startsWith('Izveštaj 2026 11')).toBe(true);
  });

  it('never end empty, with an apostrophe at an edge, or as the reserved History', () => {
    expect(sheetNameOf('::??')).toBe('Podaci');
    expect(sheetNameOf("'Topics'")).toBe('Topics');
    expect(sheetNameOf('History')).toBe('Podaci');
    // 31 UTF-16 units, a surrogate pair never cut in half
    const cut = sheetNameOf(`${'a'.repeat(30)}😀b`);
    expect(cut).toBe('a'.repeat(30));
    expect(sheetNameOf('Teme')).toBe('Teme');
  });
});

describe('the workbook', () => {
  it('opens in exceljs and SheetJS with its header, widths, frozen row, texts made safe and numbers as numbers', async () => {
    const columns = Array.from({ length: 100 }, (_, i) => ({ header: i === 0 ? 'Назив' : `Kolona ${i + 1}`, width: 8 + (i % 5) }));
    const texts = [
      'Насеље Ђурђево',
      'Šljivovica ćčžđ',
      "=cmd|' /C calc'!A0",
      '+1',
      '-2',
      '@SUM(A1)',
      'a\u0001b\u0008c\u001f',
      '\u0002=1',
      '<b>&amp;"x"</b>',
      ' razmak ',
    ];
    const rows: Cell[][] = Array.from({ length: 30 }, (_, r) =>
      Array.from({ length: 100 }, (_, c) => (c === 1 ? r * 1.5 : c === 2 ? null : c === 3 ? '' : `${texts[(r + c) % texts.length]}`)),
    );
    const file = await xlsxOf('Naselja: test', columns, rows);

    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(file as unknown as ArrayBuffer);
    const sheet = wb.worksheets[0];
    if (!sheet) throw new Error('no sheet');
    expect(sheet.name).toBe('Naselja test');
    expect(sheet.getRow(1).getCell(1).value).toBe('Назив');
    expect(sheet.getRow(1).getCell(1).font?.bold).toBe(true);
    expect(sheet.getRow(1).getCell(100).value).toBe('Kolona 100');
    expect(sheet.getColumn(1).width).toBe(8);
    expect(sheet.getColumn(100).width).toBe(12);
    expect(sheet.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });
    expect(sheet.rowCount).toBe(31);
    const x = XLSX.read(file, { type: 'buffer' });
    expect(x.SheetNames).toEqual(['Naselja test']);
    const ws = x.Sheets['Naselja test'];
    if (!ws) throw new Error('no sheet');
    expect(ws['!ref']).toBe(`A1:${columnLetters(99)}31`);
    for (let r = 0; r < 30; r++) {
      const row = sheet.getRow(r + 2);
      expect(row.getCell(2).value).toBe(r * 1.5);
      expect(ws[`B${r + 2}`]).toMatchObject({ t: 'n', v: r * 1.5 });
      expect(row.getCell(3).value).toBeNull();
      expect(row.getCell(4).value).toBeNull();
      expect(ws[`C${r + 2}`]).toBeUndefined();
      for (let c = 4; c < 100; c++) {
        const written = texts[(r + c) % texts.length] ?? '';
        const expected =
          { 'a\u0001b\u0008c\u001f': 'abc', '\u0002=1': "'=1" }[written] ?? (/^[=+\-@]/.test(written) ? `'${written}` : written);
        expect(row.getCell(c + 1).value).toBe(expected);
        expect(ws[`${columnLetters(c)}${r + 2}`]).toMatchObject({ t: 's', v: expected });
      }
    }
    // No cell is a formula in either reader.
    expect(Object.values(ws).some((cell) => typeof cell === 'object' && cell !== null && 'f' in cell)).toBe(false);
  });

  it('stops, reading no more rows, when the reader goes away', async () => {
    const out = new PassThrough();
    let batches = 0;
    const rows = (async function* () {
      for (;;) {
        batches += 1;
        yield Array.from({ length: 1000 }, (_, i) => [`Насеље ${i} ${randomBytes(100).toString('base64')}`, i]);
      }
    })();
    // Nobody reads: the buffers fill (texts that hardly compress), then the response is destroyed.
    setTimeout(() => out.destroy(), 300);
    await writeXlsx(
      out,
      'Test',
      [
        { header: 'Naziv', width: 10 },
        { header: 'Broj', width: 5 },
      ],
      rows,
    );
    const seen = batches;
    await new Promise((r) => setTimeout(r, 100));
    expect(batches).toBe(seen);
    expect(batches).toBeLessThan(200);
  });

  it('names columns past Z as Excel does', () => {
    expect([0, 25, 26, 51, 52, 701, 702].map(columnLetters)).toEqual(['A', 'Z', 'AA', 'AZ', 'BA', 'ZZ', 'AAA']);
  });
});

describe('number cells', () => {
  it("are numbers with the column's number format: money, amounts, quantities, counts", async () => {
    const wb = new ExcelJS.Workbook();
    const body = await xlsxOf(
      'Brojevi',
      [
        { header: 'Ukupno RSD', width: 12, format: 'money' },
        { header: 'Cena', width: 12, format: 'amount' },
        { header: 'Količina', width: 12, format: 'quantity' },
        { header: 'Stavki', width: 12, format: 'count' },
        { header: 'Bez formata', width: 12 },
      ],
      [[58320, 5200.5, 1250.5, 12500, 0.25]],
    );
    await wb.xlsx.load(body as unknown as ArrayBuffer);
    const row = wb.worksheets[0]?.getRow(2);
    const cells = [1, 2, 3, 4, 5].map((c) => row?.getCell(c));
    expect(cells.map((c) => c?.type)).toEqual(Array(5).fill(ExcelJS.ValueType.Number));
    expect(cells.map((c) => c?.value)).toEqual([58320, 5200.5, 1250.5, 12500, 0.25]);
    expect(cells.map((c) => c?.numFmt)).toEqual(['#,##0.00', '#,##0.00', '#,##0.###', '#,##0', '#,##0.###']);
    // The header stays bold text.
    expect(wb.worksheets[0]?.getRow(1).getCell(1).font?.bold).toBe(true);
  });
});
