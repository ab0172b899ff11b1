import { readdir, readlink } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { type ImportResponse, INVENTORY } from '@trasa/domain';
import { count, eq } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { beforeAll, describe, expect, it } from 'vitest';
import { said, useTestApp } from '../../../test/harness.js';
import { users } from '../../db/schema.js';
import { clusters, settlements } from '../../db/schema-clusters.js';
import { inventoryContractLocations, inventoryContracts, inventoryItems, inventoryTypes } from '../../db/schema-inventory.js';
import { SHEET_LIMITS, SHEET_STATS, SHEET_TEXTS } from '../../platform/spreadsheet.js';
import { createCluster, createGroup, createOrgTree, createUser, tokenFor } from '../../seed/factories.js';
import { multipartBody } from '../contracts/testDocuments.js';
import { MAX_IMPORT_ROWS } from '../inventory/importer.js';
import { UPLOAD_STATS } from './upload.js';

/**
 * The row limit of every import route is enforced while the file is read: the row past it stops the
 * read (a csv's upload is not stored past it, nor parsed), with the route's message; nothing is saved.
 */
const t = useTestApp();

let adminToken: string;
let managerToken: string;
let inventoryToken: string;
let school: { id: string };

beforeAll(async () => {
  adminToken = await tokenFor(t.ctx, await createUser(t.db, { role: 'Admin' }));
  managerToken = await tokenFor(t.ctx, (await createOrgTree(t.db)).manager);
  const client = await createGroup(t.db, { type: 'NARUCILAC' });
  inventoryToken = await tokenFor(t.ctx, await createUser(t.db, { role: 'Zaposleni', groupId: client.id }));
  school = await createCluster(t.db, { naziv: 'OŠ Granica', groupIds: [client.id] });
  const [contract] = await t.db
    .insert(inventoryContracts)
    .values({ naziv: 'Isporuka', broj: 'INV-9/2026', brojKey: 'inv-9/2026', datumPocetka: '2026-01-01' })
    .returning();
  await t.db.insert(inventoryContractLocations).values({ contractId: contract?.id as string, clusterId: school.id });
  await t.db.insert(inventoryTypes).values({ naziv: 'ONT terminal', tip: 'Oprema', cena: 5200, cenaRsd: 5200, sifra: 'OP-01' });
});

/** A csv of a header and `rows` rows made by `row` (1-based), with CRLF line ends. */
function csv(header: string, rows: number, row: (i: number) => string): Buffer {
  const lines = [header];
  for (let i = 1; i <= rows; i++) lines.push(row(i));
  return Buffer.from(lines.join('\r\n'), 'utf8');
}

async function post(url: string, content: Buffer, name: string, token: string) {
  const form = await multipartBody({}, [{ field: 'file', name, content }]);
  return t.call({ method: 'POST', url, payload: form.payload, headers: form.headers, token });
}

/** The file descriptors of this process open on an import's temporary file. */
async function openImportFiles(): Promise<string[]> {
  const open: string[] = [];
  for (const fd of await readdir('/proc/self/fd')) {
    const target = await readlink(`/proc/self/fd/${fd}`).catch(() => '');
    if (target.includes(`${t.ctx.config.dataDir}/tmp/import-`)) open.push(target);
  }
  return open;
}

/**
 * Posts a csv whose row past `limit` is followed by as many rows again, and checks the refusal: the
 * route's message, and neither stored nor parsed past about one read's worth beyond the limit.
 */
async function refusedWhileUploading(
  url: string,
  token: string,
  limit: number,
  message: string,
  header: string,
  row: (i: number) => string,
) {
  const file = csv(header, 2 * limit + 1, row);
  const rowsBefore = SHEET_STATS.rowsRead;
  const storedBefore = UPLOAD_STATS.storedBytes;
  const res = await post(url, file, 'podaci.csv', token);
  expect(res.statusCode, res.body).toBe(400);
  expect(res.json().message).toBe(said(message));
  const rowsRead = SHEET_STATS.rowsRead - rowsBefore;
  const stored = UPLOAD_STATS.storedBytes - storedBefore;
  // The limit's rows were read; the second half of the file was not (a 64 KB read holds < 4,000 of these rows).
  expect(rowsRead).toBeGreaterThan(limit);
  expect(rowsRead).toBeLessThan(limit + 4_000);
  expect(stored).toBeLessThan(file.length * 0.6);
  expect(await openImportFiles()).toEqual([]);
}

const userCount = async () => (await t.db.select({ n: count() }).from(users))[0]?.n ?? 0;
const settlementCount = async () => (await t.db.select({ n: count() }).from(settlements))[0]?.n ?? 0;
const clusterCount = async () => (await t.db.select({ n: count() }).from(clusters))[0]?.n ?? 0;
const itemCount = async () =>
  (await t.db.select({ n: count() }).from(inventoryItems).where(eq(inventoryItems.clusterId, school.id)))[0]?.n ?? 0;

describe('the row limit of the imports', () => {
  it('POST /api/user/excel-import (a Rukovodilac) refuses the csv row past 100,000 as it uploads; nothing is saved', async () => {
    const before = await userCount();
    await refusedWhileUploading(
      '/api/user/excel-import',
      managerToken,
      SHEET_LIMITS.maxRows,
      SHEET_TEXTS.tooManyRows,
      'Ime,Prezime,Email',
      (i) => `I${i},P${i},u${i}@granica.rs`,
    );
    expect(await userCount()).toBe(before);
  });

  it('POST /api/naselje/excel-import and /api/location/excel-import refuse the csv row past 100,000 as it uploads', async () => {
    const settlementsBefore = await settlementCount();
    const clustersBefore = await clusterCount();
    await refusedWhileUploading(
      '/api/naselje/excel-import',
      adminToken,
      SHEET_LIMITS.maxRows,
      SHEET_TEXTS.tooManyRows,
      'ID,Naziv',
      (i) => `G-${i},N${i}`,
    );
    await refusedWhileUploading(
      '/api/location/excel-import',
      adminToken,
      SHEET_LIMITS.maxRows,
      SHEET_TEXTS.tooManyRows,
      'Klaster,ID,Naziv',
      (i) => `K${i % 50},G-${i},N${i}`,
    );
    expect(await settlementCount()).toBe(settlementsBefore);
    expect(await clusterCount()).toBe(clustersBefore);
  });

  it('POST /api/inventory/import refuses the csv row past 5,000 as it uploads, in its own words', async () => {
    await refusedWhileUploading(
      `/api/inventory/import?lokacija=${school.id}`,
      inventoryToken,
      MAX_IMPORT_ROWS,
      INVENTORY.importTooManyRows,
      'Šifra,Količina,Datum primopredaje',
      (i) => `OP-01,1,${i}.1.2026`,
    );
    expect(await itemCount()).toBe(0);
  });

  it('stops reading an xlsx at the row past the limit', async () => {
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('Inventar');
    ws.addRow(['Šifra', 'Količina', 'Datum primopredaje']);
    for (let i = 1; i <= 3 * MAX_IMPORT_ROWS; i++) ws.addRow(['OP-01', 1, `${i}.1.2026`]);
    const file = Buffer.from(await wb.xlsx.writeBuffer());
    const before = SHEET_STATS.rowsRead;
    const res = await post(`/api/inventory/import?lokacija=${school.id}`, file, 'inventar.xlsx', inventoryToken);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().message).toBe(said(INVENTORY.importTooManyRows));
    const rowsRead = SHEET_STATS.rowsRead - before;
    expect(rowsRead).toBeGreaterThan(MAX_IMPORT_ROWS);
    expect(rowsRead).toBeLessThan(2 * MAX_IMPORT_ROWS);
    expect(await openImportFiles()).toEqual([]);
    expect(await itemCount()).toBe(0);
  });

  it('takes exactly the limit with blank rows, in csv and xlsx (read once when it has no more row elements)', async () => {
    // Blank rows (empty cells, spaces) between and after the rows do not count.
    const lines = ['Šifra,Količina,Datum primopredaje', ' , , '];
    for (let i = 1; i <= MAX_IMPORT_ROWS; i++) lines.push(`XX-${i},1,1.1.2026`, ...(i % 1000 === 0 ? [',,', ''] : []));
    const res = await post(`/api/inventory/import?lokacija=${school.id}`, Buffer.from(lines.join('\n')), 'inventar.csv', inventoryToken);
    expect(res.statusCode, res.body).toBe(200);
    const doc = (res.json() as ImportResponse).document;
    expect(doc.ukupno).toBe(MAX_IMPORT_ROWS);
    expect(doc.neuspesno).toBe(MAX_IMPORT_ROWS); // unknown codes: every row is reported, none saved

    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('Inventar');
    ws.addRow(['Šifra', 'Količina', 'Datum primopredaje']);
    for (let i = 1; i <= MAX_IMPORT_ROWS; i++) ws.addRow([`XX-${i}`, 1, '1.1.2026']);
    const rowsBefore = SHEET_STATS.rowsRead;
    const xlsxRes = await post(
      `/api/inventory/import?lokacija=${school.id}`,
      Buffer.from(await wb.xlsx.writeBuffer()),
      'inventar.xlsx',
      inventoryToken,
    );
    expect(xlsxRes.statusCode, xlsxRes.body).toBe(200);
    expect((xlsxRes.json() as ImportResponse).document.ukupno).toBe(MAX_IMPORT_ROWS);
    // No more row elements than the limit and a header: read once, by the import (no counting pass).
    expect(SHEET_STATS.rowsRead - rowsBefore).toBe(MAX_IMPORT_ROWS + 1);

    // A blank row more: counted by the reader first (blank rows do not count), then imported.
    ws.addRow(['', '', '']);
    const blankBefore = SHEET_STATS.rowsRead;
    const blankRes = await post(
      `/api/inventory/import?lokacija=${school.id}`,
      Buffer.from(await wb.xlsx.writeBuffer()),
      'inventar.xlsx',
      inventoryToken,
    );
    expect(blankRes.statusCode, blankRes.body).toBe(200);
    expect((blankRes.json() as ImportResponse).document.ukupno).toBe(MAX_IMPORT_ROWS);
    expect(SHEET_STATS.rowsRead - blankBefore).toBe(2 * (MAX_IMPORT_ROWS + 2));
  });

  it('drops the rest of a refused upload, so the connection carries the next request', async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as AddressInfo;
    // One kept-alive connection for both requests.
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const send = (method: string, path: string, headers: http.OutgoingHttpHeaders, body?: Buffer) =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = http.request({ host: '127.0.0.1', port, method, path, agent, headers }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
        });
        // A limit against a hang only: a connection left in the middle of a body answered nothing until the server's headers timeout.
        req.setTimeout(20_000, () => req.destroy(new Error('no answer')));
        req.on('error', reject);
        req.end(body);
      });
    try {
      const file = csv('Šifra,Količina,Datum primopredaje', 20 * MAX_IMPORT_ROWS, (i) => `OP-01,1,${i}.1.2026`);
      const form = await multipartBody({}, [{ field: 'file', name: 'inventar.csv', content: file }]);
      const refused = await send(
        'POST',
        `/api/inventory/import?lokacija=${school.id}`,
        { ...form.headers, authorization: `Bearer ${inventoryToken}` },
        form.payload,
      );
      expect(refused.status, refused.body).toBe(400);
      expect(JSON.parse(refused.body).message).toBe(said(INVENTORY.importTooManyRows));
      const next = await send('GET', '/api/user/my-profile', { authorization: `Bearer ${inventoryToken}` });
      expect(next.status, next.body).toBe(200);
    } finally {
      agent.destroy();
    }
  });

  it('closes the file of a csv whose reading stops early (a missing column)', async () => {
    const file = csv('Ime,Prezime', 20_000, (i) => `I${i},P${i}`);
    const res = await post('/api/user/excel-import', file, 'korisnici.csv', adminToken);
    expect(res.statusCode, res.body).toBe(400);
    expect(await openImportFiles()).toEqual([]);
  });
});
