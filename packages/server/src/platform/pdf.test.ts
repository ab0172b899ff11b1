import { writeFile } from 'node:fs/promises';
import { PassThrough } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { describe, expect, it } from 'vitest';
import { writePdf } from './pdf.js';
import { pdfNumber } from './pdfText.js';
import { objectsOf, textsOf } from './testPdf.js';
import type { Cell } from './xlsxWriter.js';

async function* rowsOf(
  n: number,
  row = (i: number): Cell[] => [i + 1, `Насеље ${i} Đurđevo`, 'Šid, Бачка Паланка', 'Ćirilica i latinica: ЉЊЏ ljnjdž', i * 3, null],
) {
  for (let start = 0; start < n; start += 1000) {
    const batch: Cell[][] = [];
    for (let i = start; i < Math.min(n, start + 1000); i++) batch.push(row(i));
    yield batch;
  }
}

async function pdfOf(title: string, headers: string[], widths: number[], rows: AsyncGenerator<Cell[][]>): Promise<Buffer> {
  const out = new PassThrough();
  const done = buffer(out);
  await writePdf(
    out,
    title,
    headers.map((header, i) => ({ header, width: widths[i] ?? 10 })),
    rows,
  );
  return done;
}

describe('writePdf', () => {
  it('pages the rows with the header repeated, in Cyrillic and Latin', async () => {
    const pdf = await pdfOf(
      'Насеља — test',
      ['ID', 'Назив', 'Општина', 'Напомена', 'Број', 'Празно'],
      [6, 20, 20, 20, 20, 20],
      rowsOf(200),
    );
    if (process.env.PDF_OUT) await writeFile(process.env.PDF_OUT, pdf);
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    const pages = Number(/\/Type \/Pages\s*\/Count (\d+)/.exec(pdf.toString('latin1'))?.[1]);
    // A landscape A4 page holds 39 rows of 7.5 pt under the title and the header.
    expect(pages).toBe(Math.ceil(200 / 39));
    const texts = textsOf(pdf);
    expect(texts).toHaveLength(pages);
    texts.forEach((page, p) => {
      // The title, the page number, the header, then the rows' cells in order (the empty one left out).
      expect(page.slice(0, 8)).toEqual(['Насеља — test', String(p + 1), 'ID', 'Назив', 'Општина', 'Напомена', 'Број', 'Празно']);
      const rows = Math.min(39, 200 - p * 39);
      expect(page).toHaveLength(8 + rows * 5);
      for (let r = 0; r < rows; r++) {
        const i = p * 39 + r;
        expect(page.slice(8 + r * 5, 13 + r * 5)).toEqual([
          String(i + 1),
          `Насеље ${i} Đurđevo`,
          'Šid, Бачка Паланка',
          'Ćirilica i latinica: ЉЊЏ ljnjdž',
          String(i * 3),
        ]);
      }
    });
  });

  it('cuts a text longer than its column with an ellipsis, and sets kerned pairs whole', async () => {
    const long = 'Wave To AVATAR Yo — Ђурђевдан у Бачкој Тополи, Šljivovica; '.repeat(3);
    const pdf = await pdfOf(
      'Kratko',
      ['A', 'B'],
      [10, 30],
      rowsOf(3, (i) => [`AV Ta ${i}`, long]),
    );
    const [page = []] = textsOf(pdf);
    expect(page.slice(0, 4)).toEqual(['Kratko', '1', 'A', 'B']);
    expect(page.filter((_, k) => k >= 4 && k % 2 === 0)).toEqual(['AV Ta 0', 'AV Ta 1', 'AV Ta 2']);
    for (const cut of page.filter((_, k) => k >= 4 && k % 2 === 1)) {
      expect(cut.endsWith('…')).toBe(true);
      expect(cut.length).toBeGreaterThan(40);
      expect(long.startsWith(cut.slice(0, -1))).toBe(true);
    }
    // 'AV' kerns in DejaVu Sans: the row's operator carries an adjustment between the glyphs.
    const contents = [...objectsOf(pdf).values()].map((o) => o.stream?.toString('latin1') ?? '').filter((c) => c.includes(' TJ'));
    expect(contents).toHaveLength(1);
    expect(contents[0]).toMatch(/\[<[0-9a-f]{4}> \d+(\.\d+)? <[0-9a-f]{4}/);
  });

  it('writes numbers as Serbs do: money with two decimals and RSD, quantities with a decimal comma', async () => {
    const out = new PassThrough();
    const done = buffer(out);
    await writePdf(
      out,
      'Brojevi',
      [
        { header: 'Ukupno', width: 12, format: 'money' },
        { header: 'Količina', width: 12, format: 'quantity' },
        { header: 'Cena', width: 12, format: 'amount' },
        { header: 'Stavki', width: 12, format: 'count' },
        { header: 'Bez formata', width: 12 },
      ],
      rowsOf(1, () => [58320, 1250.5, 5200, 12500, 0.25]),
    );
    const [page = []] = textsOf(await done);
    expect(page.slice(7)).toEqual(['58.320,00 RSD', '1.250,5', '5.200,00', '12.500', '0,25']);
  });

  it('writes numbers without exponents', () => {
    expect([1, 0.004, -0.004, 12.345, 1e-7, 595.28].map(pdfNumber)).toEqual(['1', '0', '0', '12.35', '0', '595.28']);
  });
});
