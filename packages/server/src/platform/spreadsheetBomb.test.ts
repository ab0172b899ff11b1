import { count } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { said, useTestApp } from '../../test/harness.js';
import { settlements } from '../db/schema-clusters.js';
import { multipartBody } from '../features/contracts/testDocuments.js';
import { createUser, tokenFor } from '../seed/factories.js';
import { SHEET_STATS, SHEET_TEXTS } from './spreadsheet.js';
import { craftedXlsx } from './testXlsx.js';

const t = useTestApp();
let adminToken: string;

beforeAll(async () => {
  adminToken = await tokenFor(t.ctx, await createUser(t.db, { role: 'Admin' }));
});

async function upload(content: Buffer, name: string) {
  const form = await multipartBody({}, [{ field: 'file', name, content }]);
  return t.call({ method: 'POST', url: '/api/naselje/excel-import', payload: form.payload, headers: form.headers, token: adminToken });
}

const settlementCount = async () => (await t.db.select({ n: count() }).from(settlements))[0]?.n ?? 0;

describe('an xlsx whose parts lie about their size (issue 12, finding 8)', () => {
  const rows = [
    ['ID насеља', 'Назив насеља'],
    ['BOMB-1', 'Мокра Гора'],
  ];

  it('reads the same workbook when its sizes are honest', async () => {
    const res = await upload(craftedXlsx(rows, { filler: 100_000 }), 'naselja.xlsx');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().document.uvezeno).toBe(1);
  });

  it('answers 400 with the too-large message, inflating no more than the part declared', async () => {
    const before = await settlementCount();
    // 60 MB of shared strings in a ~60 KB upload, declared as 900 KB (ratio under 200:1, total far
    // under 300 MB: the declared sizes pass every check).
    const declared = 900 * 1024;
    const file = craftedXlsx([rows[0] ?? [], ['BOMB-2', 'Kremna']], { filler: 60 * 1024 * 1024, declaredStringsSize: declared });
    expect(file.length).toBeLessThan(declared / 3);
    const inflatedBefore = SHEET_STATS.inflatedBytes;
    const res = await upload(file, 'bomba.xlsx');
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().message).toBe(said(SHEET_TEXTS.bomb));
    const inflated = SHEET_STATS.inflatedBytes - inflatedBefore;
    expect(inflated).toBeLessThan(declared + 256 * 1024);
    expect(await settlementCount()).toBe(before);
  });
});
