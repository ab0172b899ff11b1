import { COMMON } from '@trasa/domain';
import { beforeAll, expect } from 'vitest';
import { said, type TestApp, useTestApp } from '../../test/harness.js';
import { createUser, tokenFor } from '../seed/factories.js';

/**
 * What the sorting tests share (sorting.*.test.ts): the Admin's token, names in the Serbian alphabet's order,
 * and helpers to read a list.
 */

/**
 * Server sorting of the paged lists (issue 13 item 9): `sort` and `order`, text in the Serbian alphabet's
 * order (trasa_sr: c, č, ć, d, dž, đ … z), an unknown key or direction refused with the domain's message.
 */
/** The running test file's app (set by its set-up: the modules are shared between a worker's files). */
export let t: TestApp;
export let adminToken: string;

/** In trasa_sr order; in byte order Č, Ć and Đ would follow Z. */
export const SERBIAN = ['Cvetković', 'Čačak', 'Ćuprija', 'Đurić', 'Zec'] as const;
export const SHUFFLED = [SERBIAN[3], SERBIAN[0], SERBIAN[4], SERBIAN[2], SERBIAN[1]];

export async function get(url: string) {
  const res = await t.call({ method: 'GET', url, token: adminToken });
  return { status: res.statusCode, body: res.json() };
}

/** The given names in the order they appear in `list` (others left out). */
export function orderIn(list: string[], names: readonly string[]): string[] {
  return list.filter((n) => names.includes(n));
}

export async function getAs(token: string, url: string) {
  const res = await t.call({ method: 'GET', url, token });
  return { status: res.statusCode, body: res.json() };
}

/** A refused `sort`: 400 with the message, and no list in the answer (nothing read). */
export async function expectRefused(url: string, token = adminToken) {
  const res = await getAs(token, url);
  expect(res.status, url).toBe(400);
  expect(res.body.message, url).toBe(said(COMMON.badSort));
  expect(Object.keys(res.body).sort(), url).toEqual(['errors', 'message']);
}

/**
 * Registers the set-up of the calling test file: its own app and data, read through the bindings above
 * while its tests run (vitest isolate: false shares this module between a worker's files).
 */
export function setupSorting(): void {
  const app = useTestApp();
  beforeAll(async () => {
    t = app;
    const admin = await createUser(t.db, { role: 'Admin', ime: 'Ana', prezime: 'Adminović' });
    adminToken = await tokenFor(t.ctx, admin);
  });
}
