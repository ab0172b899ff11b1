import * as XLSX from '@e965/xlsx';
import { asTyped, IMPORTS, type ImportResponse, INVENTORY } from '@trasa/domain';
import { count, eq } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { beforeAll, describe, expect, it } from 'vitest';
import { said, useTestApp } from '../../../test/harness.js';
import { inventoryContractLocations, inventoryContracts, inventoryItems, inventoryTypes } from '../../db/schema-inventory.js';
import { createCluster, createGroup, createUser, tokenFor } from '../../seed/factories.js';
import { multipartBody, samplePdf } from '../contracts/testDocuments.js';

const t = useTestApp();
let client: string;
let contractor: string;
let school: { id: string };
let hidden: { id: string };

async function xlsx(rows: (string | number)[][]): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('Inventar');
  for (const r of rows) ws.addRow(r);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

function xls(rows: (string | number)[][]): Buffer {
  const wb = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(wb, XLSX.utils.aoa_to_sheet(rows), 'Inventar');
  return XLSX.write(wb, { type: 'buffer', bookType: 'xls' }) as Buffer;
}

async function upload(content: Buffer, name: string, lokacija = school.id, token = client) {
  const form = await multipartBody({}, [{ field: 'file', name, content }]);
  return t.call({ method: 'POST', url: `/api/inventory/import?lokacija=${lokacija}`, payload: form.payload, headers: form.headers, token });
}

const itemCount = async () =>
  (await t.db.select({ n: count() }).from(inventoryItems).where(eq(inventoryItems.clusterId, school.id)))[0]?.n ?? 0;

const HEADER = ['Šifra', 'Naziv', 'Količina', 'Datum primopredaje', 'Cena RSD', 'Broj ugovora'];

beforeAll(async () => {
  const nar = await createGroup(t.db, { type: 'NARUCILAC' });
  client = await tokenFor(t.ctx, await createUser(t.db, { role: 'Zaposleni', groupId: nar.id }));
  contractor = await tokenFor(t.ctx, await createUser(t.db, { role: 'Zaposleni', groupId: (await createGroup(t.db)).id }));
  school = await createCluster(t.db, { naziv: 'OŠ Uvoz', groupIds: [nar.id] });
  hidden = await createCluster(t.db, { naziv: 'OŠ Tuđa' });
  const [c] = await t.db
    .insert(inventoryContracts)
    .values({ naziv: 'Isporuka', broj: 'INV-7/2026', brojKey: 'inv-7/2026', datumPocetka: '2026-01-01' })
    .returning();
  await t.db.insert(inventoryContractLocations).values({ contractId: c?.id as string, clusterId: school.id });
  // An inventory contract the school is not on.
  await t.db
    .insert(inventoryContracts)
    .values({ naziv: 'Druga isporuka', broj: 'INV-8/2026', brojKey: 'inv-8/2026', datumPocetka: '2026-01-01' });
  await t.db.insert(inventoryTypes).values([
    { naziv: 'ONT terminal', tip: 'Oprema', cena: 5200, cenaRsd: 5200, sifra: 'OP-01' },
    { naziv: 'Optički kabl', tip: 'Materijal', cena: 0.85, valuta: 'EUR', cenaRsd: 99.6, sifra: 'MA-01', jedinica: 'm' },
    { naziv: 'Instalacioni radovi', tip: 'Radovi', cena: 15000, cenaRsd: 15000, sifra: 'RA-01' },
  ]);
});

describe('inventory import', () => {
  it('imports the good rows, reports each bad one, and a second import changes nothing', async () => {
    const rows = [
      HEADER,
      ['OP-01', '', '2', '2026-04-01', '', ''],
      ['', 'optički KABL', '120,5', '02.04.2026', '99,6', 'inv - 7/2026'],
      ['', 'Инсталациони радови', '1', '2026-04-03', '', ''],
      ['XX-99', '', '1', '2026-04-01', '', ''],
      ['OP-01', '', 'dva', '2026-04-05', '', ''],
      ['OP-01', '', '1', '31.02.2026', '', ''],
      ['MA-01', '', '5', '2026-04-06', '', 'INV-404'],
      ['OP-01', '', '3', '2026-04-01', '', ''],
      ['MA-01', '', '6', '2026-04-07', '', 'INV-8/2026'],
    ];
    const res = await upload(await xlsx(rows), 'inventar.xlsx');
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as ImportResponse;
    expect(body.message).toBe(said(IMPORTS.success));
    const doc = body.document;
    expect(doc).toMatchObject({ ukupno: 9, uvezeno: 3, neuspesno: 5, preskoceno: 1 });
    const byRow = new Map(doc.importReport.map((r) => [r.red, r]));
    expect(byRow.get(2)?.success).toBe(true);
    expect(byRow.get(3)?.success).toBe(true);
    expect(byRow.get(4)?.success).toBe(true); // Cyrillic name of a Latin codebook entry
    expect(byRow.get(5)?.errors.join()).toContain(said(INVENTORY.importRowUnknownType(asTyped('XX-99'))));
    expect(byRow.get(6)?.errors.join()).toContain(said(INVENTORY.mustBeNumber));
    expect(byRow.get(7)?.errors.join()).toContain(said(INVENTORY.invalidDate));
    // A number no inventory contract has, and one of a contract the location is not on.
    expect(byRow.get(8)?.errors.join()).toContain(said(INVENTORY.importRowNoSuchContract(asTyped('INV-404'))));
    expect(byRow.get(8)?.errors.join()).not.toContain('nije povezan');
    expect(byRow.get(10)?.errors.join()).toContain(said(INVENTORY.importRowUnknownContract(asTyped('INV-8/2026'))));
    // Same location, type and date as row 2 within the file: skipped.
    expect(byRow.get(9)).toMatchObject({ success: false, errors: [], warnings: [said(INVENTORY.importRowSameFile)] });
    expect(await itemCount()).toBe(3);
    const items = await t.db.select().from(inventoryItems).where(eq(inventoryItems.clusterId, school.id));
    const cable = items.find((i) => Number(i.kolicina) === 120.5);
    expect(cable).toMatchObject({ cenaRsd: 99.6, datumPrimopredaje: '2026-04-02' });
    expect(items.find((i) => Number(i.kolicina) === 2)?.cenaRsd).toBe(5200); // the codebook's price

    const again = (await upload(await xlsx(rows), 'inventar.xlsx')).json() as ImportResponse;
    expect(again.document.uvezeno).toBe(0);
    expect(again.document.importReport.find((r) => r.red === 2)?.warnings).toEqual([said(INVENTORY.importRowDuplicate)]);
    expect(await itemCount()).toBe(3);
  });

  it('two imports of one file at once record its rows once', async () => {
    const before = await itemCount();
    const file = await xlsx([HEADER, ['OP-01', '', '1', '2026-08-01', '', ''], ['RA-01', '', '1', '2026-08-01', '', '']]);
    const [a, b] = await Promise.all([upload(file, 'isti.xlsx'), upload(file, 'isti.xlsx')]);
    const imported = [a, b].map((r) => (r.json() as ImportResponse).document.uvezeno).sort();
    expect(imported).toEqual([0, 2]);
    expect(await itemCount()).toBe(before + 2);
    // A quantity of nothing is a row error.
    const zero = (await upload(await xlsx([HEADER, ['OP-01', '', '0', '2026-08-02', '', '']]), 'nula.xlsx')).json() as ImportResponse;
    expect(zero.document.importReport[0]?.errors.join()).toContain(said(INVENTORY.quantityPositive));
  });

  it('reads csv and legacy xls too', async () => {
    const csv = Buffer.from(`${HEADER.join(',')}\nOP-01,,1,2026-05-01,,\n`);
    expect(((await upload(csv, 'inventar.csv')).json() as ImportResponse).document.uvezeno).toBe(1);
    const legacy = xls([HEADER, ['RA-01', '', 1, '2026-05-02', '', '']]);
    expect(((await upload(legacy, 'inventar.xls')).json() as ImportResponse).document.uvezeno).toBe(1);
    expect(await itemCount()).toBe(7);
  });

  it('refuses an oversize file with the spec text, a wrong file, missing columns, a foreign location; nothing changes', async () => {
    const before = await itemCount();
    // A real csv of 10,000,000 bytes and more: rows the import would otherwise read.
    const line = 'OP-01,,1,2026-06-01,,\n';
    const big = Buffer.from(`${HEADER.join(',')}\n${line.repeat(Math.ceil(10_000_001 / line.length))}`);
    expect(big.length).toBeGreaterThan(10_000_000);
    const over = await upload(big, 'veliki.csv');
    expect(over.statusCode).toBe(413);
    expect(over.json().message).toBe(said(INVENTORY.importTooLarge));
    const pdf = await upload(samplePdf(), 'inventar.xlsx');
    expect(pdf.statusCode).toBe(400);
    const noCols = await upload(await xlsx([['Naziv'], ['ONT terminal']]), 'inventar.xlsx');
    expect(noCols.statusCode).toBe(400);
    expect((await upload(await xlsx([HEADER]), 'inventar.xlsx', hidden.id)).statusCode).toBe(404);
    expect((await upload(await xlsx([HEADER]), 'inventar.xlsx', school.id, contractor)).statusCode).toBe(403);
    expect(await itemCount()).toBe(before);
  });

  it('offers a template whose header the import reads', async () => {
    const res = await t.call({ method: 'GET', url: '/api/inventory/download-template', token: client });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toContain(INVENTORY.importTemplateName);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const sheet = wb.worksheets[0];
    if (!sheet) throw new Error('the template has no sheet');
    expect((sheet.getRow(1).values as string[]).slice(1)).toEqual(HEADER);
    expect(wb.getWorksheet('Šifarnik')?.rowCount).toBe(4);
  });

  it('reads the Serbian spelling of an amount with thousands dots; refuses a mixed or too precise one', async () => {
    const before = await itemCount();
    const rows = [
      HEADER,
      ['MA-01', '', '1.250,5', '2026-09-01', '2.500,50', ''],
      ['MA-01', '', '1', '2026-09-02', '2,500.50', ''],
      ['MA-01', '', '1', '2026-09-03', '15.000', ''],
      ['MA-01', '', '1,2,5', '2026-09-04', '', ''],
    ];
    const doc = ((await upload(await xlsx(rows), 'inventar.xlsx')).json() as ImportResponse).document;
    const byRow = new Map(doc.importReport.map((r) => [r.red, r]));
    expect(byRow.get(2)?.success).toBe(true);
    expect(byRow.get(3)?.errors.join()).toContain(said(INVENTORY.mustBeNumber));
    expect(byRow.get(4)?.errors.join()).toContain(said(INVENTORY.invalidNumber));
    expect(byRow.get(5)?.errors.join()).toContain(said(INVENTORY.mustBeNumber));
    expect(await itemCount()).toBe(before + 1);
    const items = await t.db.select().from(inventoryItems).where(eq(inventoryItems.datumPrimopredaje, '2026-09-01'));
    expect(items.map((i) => [Number(i.kolicina), Number(i.cenaRsd)])).toEqual([[1250.5, 2500.5]]);
  });
});
