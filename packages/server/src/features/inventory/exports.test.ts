import ExcelJS from 'exceljs';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/harness.js';
import {
  inventoryContractFiles,
  inventoryContractLocations,
  inventoryContracts,
  inventoryItems,
  inventoryTypes,
} from '../../db/schema-inventory.js';
import { textsOf } from '../../platform/testPdf.js';
import { createCluster, createGroup, createUser, tokenFor } from '../../seed/factories.js';

const t = useTestApp();
let client: string;
let contractor: string;
let admin: string;

beforeAll(async () => {
  const nar = await createGroup(t.db, { type: 'NARUCILAC' });
  client = await tokenFor(t.ctx, await createUser(t.db, { role: 'Zaposleni', groupId: nar.id }));
  contractor = await tokenFor(t.ctx, await createUser(t.db, { role: 'Zaposleni', groupId: (await createGroup(t.db)).id }));
  admin = await tokenFor(t.ctx, await createUser(t.db, { role: 'Admin' }));
  const seen = await createCluster(t.db, { naziv: 'OŠ Vidljiva', groupIds: [nar.id] });
  const hidden = await createCluster(t.db, { naziv: 'OŠ Skrivena' });
  const [contract] = await t.db
    .insert(inventoryContracts)
    .values({ naziv: 'Isporuka', broj: '=1+1', brojKey: '=1+1', datumPocetka: '2026-01-01' })
    .returning();
  // Two documents and one location on the contract (the export counts them).
  await t.db.insert(inventoryContractFiles).values(
    ['a', 'b'].map((n) => ({
      contractId: contract?.id as string,
      storedName: `${n}-1.pdf`,
      originalnoIme: `${n}.pdf`,
      mimetype: 'application/pdf',
      size: 1,
    })),
  );
  await t.db.insert(inventoryContractLocations).values({ contractId: contract?.id as string, clusterId: seen.id });
  const [ont] = await t.db
    .insert(inventoryTypes)
    .values({ naziv: 'ONT terminal', tip: 'Oprema', cena: 5200, cenaRsd: 5200, sifra: 'OP-01' })
    .returning();
  await t.db.insert(inventoryItems).values([
    { typeId: ont?.id as string, clusterId: seen.id, kolicina: 3, cenaRsd: 5200, datumPrimopredaje: '2026-04-01' },
    { typeId: ont?.id as string, clusterId: hidden.id, kolicina: 1, cenaRsd: 5200, datumPrimopredaje: '2026-04-02' },
  ]);
});

async function sheetOf(body: Buffer): Promise<unknown[][]> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(body as unknown as ArrayBuffer);
  const rows: unknown[][] = [];
  wb.worksheets[0]?.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
  return rows;
}

describe('inventory exports', () => {
  it('export the list as the caller sees it, in xlsx and PDF; others are refused', async () => {
    const mine = await t.call({ method: 'GET', url: '/api/export/inventory-all?format=xlsx', token: client });
    expect(mine.statusCode, mine.body).toBe(200);
    const rows = await sheetOf(mine.rawPayload);
    expect(rows).toHaveLength(2);
    expect(rows[1]?.slice(0, 8)).toEqual(['OŠ Vidljiva', 'OP-01', 'ONT terminal', 'Опрема', 3, 'kom', 5200, 15600]);
    const all = await sheetOf((await t.call({ method: 'GET', url: '/api/export/inventory-all', token: admin })).rawPayload);
    expect(all).toHaveLength(3);
    const sum = await sheetOf((await t.call({ method: 'GET', url: '/api/export/inventory-sum?sort=datum', token: admin })).rawPayload);
    expect(sum[1]?.slice(0, 7)).toEqual(['OP-01', 'ONT terminal', 'Опрема', 4, 'kom', 20800, 2]);
    // A number that looks like a formula stays text.
    const contracts = await sheetOf((await t.call({ method: 'GET', url: '/api/export/inventory-contracts', token: client })).rawPayload);
    expect(contracts[1]?.[1]).toBe("'=1+1");
    // Its locations and documents counted (columns 5 and 6).
    expect(contracts[1]?.slice(4, 6)).toEqual([1, 2]);
    for (const name of ['inv-types', 'inventory-per-location', 'school-notifications', 'a13', 'inventory']) {
      const pdf = await t.call({ method: 'GET', url: `/api/export/${name}?format=pdf`, token: client });
      expect(pdf.statusCode, name).toBe(200);
      expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    }
    expect((await t.call({ method: 'GET', url: '/api/export/inventory-all', token: contractor })).statusCode).toBe(403);
  });

  it('write numbers as numbers with a number format in xlsx, and as Serbs write them in PDF', async () => {
    const school = await createCluster(t.db, { naziv: 'OŠ Brojevi' });
    const [cable] = await t.db
      .insert(inventoryTypes)
      .values({ naziv: 'Optički kabl', tip: 'Materijal', cena: 46.64, cenaRsd: 46.64, sifra: 'MA-77', jedinica: 'm', redniBroj: 12 })
      .returning();
    await t.db
      .insert(inventoryItems)
      .values({ typeId: cable?.id as string, clusterId: school.id, kolicina: 1250.5, cenaRsd: 46.64, datumPrimopredaje: '2026-05-01' });
    const url = `/api/export/inventory?lokacija=${school.id}`;
    const xlsx = await t.call({ method: 'GET', url, token: admin });
    expect(xlsx.statusCode, xlsx.body).toBe(200);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(xlsx.rawPayload as unknown as ArrayBuffer);
    const row = wb.worksheets[0]?.getRow(2);
    // Количина, Цена RSD, Укупно RSD: numbers, with their formats.
    const cells = [5, 7, 8].map((c) => row?.getCell(c));
    expect(cells.map((c) => c?.type)).toEqual(Array(3).fill(ExcelJS.ValueType.Number));
    expect(cells.map((c) => c?.value)).toEqual([1250.5, 46.64, 58323.32]);
    expect(cells.map((c) => c?.numFmt)).toEqual(['#,##0.###', '#,##0.00', '#,##0.00']);
    // The codebook's ordinal is a number too (it was text).
    const types = await t.call({ method: 'GET', url: '/api/export/inv-types', token: admin });
    const typesBook = new ExcelJS.Workbook();
    await typesBook.xlsx.load(types.rawPayload as unknown as ArrayBuffer);
    const ordinal = typesBook.worksheets[0]?.getColumn(1).values.find((v) => v === 12);
    expect(ordinal).toBe(12);

    const pdf = await t.call({ method: 'GET', url: `${url}&format=pdf`, token: admin });
    expect(pdf.statusCode).toBe(200);
    const [page = []] = textsOf(pdf.rawPayload);
    expect(page).toEqual(expect.arrayContaining(['OŠ Brojevi', '1.250,5', 'm', '46,64 RSD', '58.323,32 RSD', '01.05.2026']));
  });
});
