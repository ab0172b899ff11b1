import { deflateRawSync } from 'node:zlib';
import { asTyped, CODEBOOKS, IMPORTS } from '@trasa/domain';
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { said } from '../../../test/harness.js';
import { settlements } from '../../db/schema-clusters.js';
import { SHEET_TEXTS } from '../../platform/spreadsheet.js';
import { samplePdf } from '../contracts/testDocuments.js';
import {
  adminToken,
  csv,
  employeeToken,
  imported,
  SETTLEMENT_HEADER,
  settlementCount,
  setupImports,
  t,
  upload,
  xls,
  xlsx,
  zipWithDeflated,
} from './importsSetup.js';

setupImports();
describe('POST /api/naselje/excel-import', () => {
  it('saves the valid rows, reports every row, and a second import of the same file changes nothing', async () => {
    const file = csv([
      SETTLEMENT_HEADER,
      ['IMP-S-1', '  Mokra Gora ', '70300', 'Užice, Čajetina', 'Telekom', 'JP-1', '120', '1'],
      ['', 'Bez ID-a', '', '', '', '', '', ''],
      ['IMP-S-2', 'Kremna', '', 'Užice', '', '', '-4', ''],
      ['IMP-S-3', 'Šargan', '', '', '', '', 'dvadeset', ''],
      ['IMP-S-4', 'Bioska', '', '', '', '', '', '0'],
      ['IMP-S-4', 'Bioska druga', '', '', '', '', '', ''],
    ]);
    const before = await settlementCount();
    const doc = await imported('naselje', file, 'naselja.csv');
    expect(doc.importReport.map((r) => [r.red, r.naziv, r.success])).toEqual([
      [2, 'Mokra Gora', true],
      [3, 'Bez ID-a', false],
      [4, 'Kremna', false],
      [5, 'Šargan', false],
      [6, 'Bioska', true],
      [7, 'Bioska druga', false],
    ]);
    expect(doc.importReport[1]?.errors).toEqual([said(IMPORTS.rowError(asTyped('3'), CODEBOOKS.settlementIdRequired))]);
    expect(doc.importReport[2]?.errors).toEqual([said(IMPORTS.rowError(asTyped('IMP-S-2'), CODEBOOKS.numberMin))]);
    expect(doc.importReport[3]?.errors).toEqual([said(IMPORTS.rowError(asTyped('IMP-S-3'), CODEBOOKS.numberIfGiven))]);
    // The duplicate names the settlement it clashes with (the first row's), not itself.
    expect(doc.importReport[5]?.errors).toEqual([
      said(IMPORTS.rowError(asTyped('IMP-S-4'), CODEBOOKS.duplicateSettlement(`${asTyped('Bioska')} (${asTyped('IMP-S-4')}, ред 6)`))),
    ]);
    expect(doc).toMatchObject({ ukupno: 6, uvezeno: 2, preskoceno: 0, neuspesno: 4 });
    expect(await settlementCount()).toBe(before + 2);
    const [mokra] = await t.db.select().from(settlements).where(eq(settlements.code, 'IMP-S-1'));
    expect(mokra).toMatchObject({ naziv: 'Mokra Gora', opstine: ['Užice', 'Čajetina'], brojDomacinstava: 120, brojSkola: 1 });

    const again = await imported('naselje', file, 'naselja.csv');
    expect(await settlementCount()).toBe(before + 2);
    expect(again).toMatchObject({ uvezeno: 0, preskoceno: 2, neuspesno: 4 });
    expect(again.importReport[0]?.warnings).toEqual([said(IMPORTS.exists(`Насеље „${asTyped('Mokra Gora')}“ (${asTyped('IMP-S-1')})`))]);
    const [after] = await t.db.select().from(settlements).where(eq(settlements.code, 'IMP-S-1'));
    expect(after?.updatedAt).toEqual(mokra?.updatedAt);
  });

  it('reads xlsx and legacy xls, with the Cyrillic headers of the template', async () => {
    const rows = (code: string) => [
      ['ID насеља', 'Назив насеља', 'Општина', 'Број школа'],
      [code, 'Златибор', 'Чајетина', 2],
    ];
    expect((await imported('naselje', await xlsx(rows('IMP-X-1')), 'naselja.xlsx')).uvezeno).toBe(1);
    expect((await imported('naselje', xls(rows('IMP-X-2')), 'naselja.xls')).uvezeno).toBe(1);
    const saved = await t.db.select().from(settlements).where(sql`${settlements.code} in ('IMP-X-1', 'IMP-X-2')`);
    expect(saved.map((s) => [s.naziv, s.opstine, s.brojSkola])).toEqual([
      ['Златибор', ['Чајетина'], 2],
      ['Златибор', ['Чајетина'], 2],
    ]);
  });

  it('refuses a file over 10,000,000 bytes, a file of another type, a zip bomb and a sheet without its columns, saving nothing', async () => {
    const before = await settlementCount();
    const huge = Buffer.concat([csv([SETTLEMENT_HEADER]), Buffer.alloc(10_000_000, 0x20)]);
    const big = await upload('naselje', huge, 'velika.csv');
    expect(big.statusCode).toBe(413);
    expect(big.json()).toEqual({ message: said(IMPORTS.tooLarge) });

    const pdf = await upload('naselje', samplePdf(), 'naselja.xlsx');
    expect(pdf.statusCode).toBe(400);
    expect(pdf.json().message).toBe(said(SHEET_TEXTS.unsupported));

    // 200 MB of zeros declared in a few hundred kilobytes.
    const zeros = Buffer.alloc(200 * 1024 * 1024);
    const deflated = deflateRawSync(zeros, { level: 9 });
    const bombRes = await upload('naselje', zipWithDeflated('xl/worksheets/sheet1.xml', deflated, zeros.length), 'bomba.xlsx');
    expect(bombRes.statusCode).toBe(400);
    expect(bombRes.json().message).toBe(said(SHEET_TEXTS.bomb));

    const noColumn = await upload('naselje', csv([['Naziv'], ['Samo naziv']]), 'naselja.csv');
    expect(noColumn.statusCode).toBe(400);
    expect(noColumn.json().message).toBe(said(IMPORTS.missingColumn('ID насеља')));

    const json = await t.call({ method: 'POST', url: '/api/naselje/excel-import', payload: { file: 'x' }, token: adminToken });
    expect(json.statusCode).toBe(400);
    expect(json.json().message).toBe(said(IMPORTS.failed));
    expect(await settlementCount()).toBe(before);
  });

  it('is the Admin’s only', async () => {
    const res = await upload('naselje', csv([SETTLEMENT_HEADER, ['IMP-E-1', 'Tuđe', '', '', '', '', '', '']]), 'n.csv', employeeToken);
    expect(res.statusCode).toBe(403);
    expect((await t.db.select().from(settlements).where(eq(settlements.code, 'IMP-E-1'))).length).toBe(0);
  });
});

/** A zip of one deflated entry whose header declares `size` bytes uncompressed. */
