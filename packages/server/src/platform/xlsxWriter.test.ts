import { PassThrough } from 'node:stream';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { sheetNameOf, writeXlsx } from './xlsxWriter.js';

async function written(name: string): Promise<string[]> {
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise((r) => out.on('end', r));
  await writeXlsx(
    out,
    name,
    [{ header: 'Naziv', width: 10 }],
    (async function* () {
      yield [['a']];
    })(),
  );
  out.end();
  await done;
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(Buffer.concat(chunks) as unknown as ArrayBuffer);
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
