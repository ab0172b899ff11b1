import { beforeAll, expect } from 'vitest';
import { type TestApp, useTestApp } from '../../../test/harness.js';
import { createGroup, createUser, tokenFor } from '../../seed/factories.js';
import { multipartBody } from './testDocuments.js';

/**
 * What the contracts tests share (contracts.*.test.ts): the groups of each kind and their users' tokens, a
 * contract's body, and helpers to create, read and edit one.
 */

/** The running test file's app (set by its set-up: the modules are shared between a worker's files). */
export let t: TestApp;

export let admin: string;
export let izv: Awaited<ReturnType<typeof createGroup>>;
export let izv2: Awaited<ReturnType<typeof createGroup>>;
export let pro: Awaited<ReturnType<typeof createGroup>>;
export let nad: Awaited<ReturnType<typeof createGroup>>;
export let employeeIzv: string;
export let employeeIzv2: string;
export let employeeSees: string;
export let managerIzv: string;
export let guest: string;

export const body = { naziv: 'Izgradnja mreže Čačak', broj: '12/2026', datumPocetka: '2026-01-10', rokTrajanja: 90 };

export async function create(route: string, payload: object, token = admin) {
  return t.call({ method: 'POST', url: `/api/${route}`, token, payload });
}
export async function createOk(route: string, payload: object): Promise<string> {
  const res = await create(route, payload);
  expect(res.statusCode, res.body).toBe(201);
  return res.json().document;
}
export async function get(route: string, id: string, token = admin) {
  return t.call({ method: 'GET', url: `/api/${route}/${id}`, token });
}
export async function edit(route: string, id: string, fields: Record<string, string | string[]>, token = admin) {
  const form = await multipartBody(fields);
  return t.call({ method: 'POST', url: `/api/${route}/${route}/${id}`, token, ...form });
}

/**
 * Registers the set-up of the calling test file: its own app and data, read through the bindings above
 * while its tests run (vitest isolate: false shares this module between a worker's files).
 */
export function setupContracts(): void {
  const app = useTestApp();
  beforeAll(async () => {
    t = app;
    admin = await tokenFor(t.ctx, await createUser(t.db, { role: 'Admin' }));
    izv = await createGroup(t.db, { naziv: 'Optika Test', type: 'IZVODJAC' });
    izv2 = await createGroup(t.db, { naziv: 'Kabl Test', type: 'IZVODJAC' });
    pro = await createGroup(t.db, { naziv: 'Projektant Test', type: 'PROJEKTANT' });
    nad = await createGroup(t.db, { naziv: 'Nadzor Test', type: 'NADZOR' });
    const sees = await createGroup(t.db, { naziv: 'Ministarstvo Test', type: 'NARUCILAC', sveVideci: true });
    employeeIzv = await tokenFor(t.ctx, await createUser(t.db, { groupId: izv.id }));
    employeeIzv2 = await tokenFor(t.ctx, await createUser(t.db, { groupId: izv2.id }));
    employeeSees = await tokenFor(t.ctx, await createUser(t.db, { groupId: sees.id }));
    managerIzv = await tokenFor(t.ctx, await createUser(t.db, { role: 'Rukovodilac', groupId: izv.id }));
    guest = await tokenFor(t.ctx, await createUser(t.db, { role: 'Gost' }));
  });
}
