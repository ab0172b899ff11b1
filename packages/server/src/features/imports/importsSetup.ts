import * as XLSX from '@e965/xlsx';
import { IMPORTS, type ImportResponse } from '@trasa/domain';
import { count } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { beforeAll, expect } from 'vitest';
import { type TestApp, useTestApp } from '../../../test/harness.js';
import { users } from '../../db/schema.js';
import { clusters, settlements } from '../../db/schema-clusters.js';
import { createGroup, createUser, tokenFor } from '../../seed/factories.js';
import { multipartBody } from '../contracts/testDocuments.js';

/**
 * What the import tests share (imports.*.test.ts): the callers' tokens, builders of CSV, XLSX, XLS and zip
 * files, and helpers to upload one and count what it added.
 */

/** The running test file's app (set by its set-up: the modules are shared between a worker's files). */
export let t: TestApp;

export let adminToken: string;
export let employeeToken: string;

export function csv(rows: (string | number)[][]): Buffer {
  return Buffer.from(rows.map((r) => r.map((c) => `"${String(c).replace(/"/g, '""')}"`).join(',')).join('\r\n'), 'utf8');
}

export async function xlsx(rows: (string | number)[][]): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('Podaci');
  for (const r of rows) ws.addRow(r);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

export function xls(rows: (string | number)[][]): Buffer {
  const wb = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(wb, XLSX.utils.aoa_to_sheet(rows), 'Podaci');
  return XLSX.write(wb, { type: 'buffer', bookType: 'xls' }) as Buffer;
}

export async function upload(model: 'user' | 'naselje' | 'location', content: Buffer, name: string, token = adminToken) {
  const form = await multipartBody({}, [{ field: 'file', name, content }]);
  return t.call({ method: 'POST', url: `/api/${model}/excel-import`, payload: form.payload, headers: form.headers, token });
}

export async function imported(model: 'user' | 'naselje' | 'location', content: Buffer, name: string, token = adminToken) {
  const res = await upload(model, content, name, token);
  expect(res.statusCode, res.body).toBe(200);
  const body = res.json() as ImportResponse;
  expect(body.message).toBe(IMPORTS.success);
  return body.document;
}

export const settlementCount = async () => (await t.db.select({ n: count() }).from(settlements))[0]?.n ?? 0;
export const clusterCount = async () => (await t.db.select({ n: count() }).from(clusters))[0]?.n ?? 0;
export const userCount = async () => (await t.db.select({ n: count() }).from(users))[0]?.n ?? 0;

export const SETTLEMENT_HEADER = ['ID', 'Naziv', 'Matični broj', 'Opština', 'Operator', 'Javni poziv', 'Broj domaćinstava', 'Broj škola'];

export function zipWithDeflated(name: string, deflated: Buffer, size: number): Buffer {
  const fileName = Buffer.from(name);
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  local.writeUInt16LE(20, 4);
  local.writeUInt16LE(8, 8);
  local.writeUInt32LE(deflated.length, 18);
  local.writeUInt32LE(size, 22);
  local.writeUInt16LE(fileName.length, 26);
  const central = Buffer.alloc(46);
  central.writeUInt32LE(0x02014b50, 0);
  central.writeUInt16LE(20, 4);
  central.writeUInt16LE(20, 6);
  central.writeUInt16LE(8, 10);
  central.writeUInt32LE(deflated.length, 20);
  central.writeUInt32LE(size, 24);
  central.writeUInt16LE(fileName.length, 28);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(1, 8);
  end.writeUInt16LE(1, 10);
  end.writeUInt32LE(46 + fileName.length, 12);
  end.writeUInt32LE(30 + fileName.length + deflated.length, 16);
  return Buffer.concat([local, fileName, deflated, central, fileName, end]);
}

/**
 * Registers the set-up of the calling test file: its own app and data, read through the bindings above
 * while its tests run (vitest isolate: false shares this module between a worker's files).
 */
export function setupImports(): void {
  const app = useTestApp();
  beforeAll(async () => {
    t = app;
    adminToken = await tokenFor(t.ctx, await createUser(t.db, { role: 'Admin' }));
    employeeToken = await tokenFor(t.ctx, await createUser(t.db, { role: 'Zaposleni', groupId: (await createGroup(t.db)).id }));
  });
}
