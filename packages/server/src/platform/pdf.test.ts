import { writeFile } from 'node:fs/promises';
import { PassThrough } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { describe, expect, it } from 'vitest';
import { writePdf } from './pdf.js';
import type { Cell } from './xlsxWriter.js';

async function* rowsOf(n: number): AsyncGenerator<Cell[][]> {
  for (let start = 0; start < n; start += 1000) {
    const batch: Cell[][] = [];
    for (let i = start; i < Math.min(n, start + 1000); i++)
      batch.push([i + 1, `Насеље ${i} Đurđevo`, 'Šid, Бачка Паланка', 'Ćirilica i latinica: ЉЊЏ ljnjdž', i * 3, null]);
    yield batch;
  }
}

describe('writePdf', () => {
  it('pages the rows with the header repeated, in Cyrillic and Latin', async () => {
    const out = new PassThrough();
    const done = buffer(out);
    const columns = ['ID', 'Назив', 'Општина', 'Напомена', 'Број', 'Празно'].map((header, i) => ({ header, width: i === 0 ? 6 : 20 }));
    await writePdf(out, 'Насеља — test', columns, rowsOf(200));
    const pdf = await done;
    if (process.env.PDF_OUT) await writeFile(process.env.PDF_OUT, pdf);
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    const pages = Number(/\/Type \/Pages\s*\/Count (\d+)/.exec(pdf.toString('latin1'))?.[1]);
    // A landscape A4 page holds 39 rows of 7.5 pt under the title and the header.
    expect(pages).toBe(Math.ceil(200 / 39));
  });
});
