import type { InvTypeDto } from '@trasa/domain';
import { beforeAll, expect } from 'vitest';
import { type TestApp, useTestApp } from '../../../test/harness.js';
import { createCluster, createGroup, createSettlement, createUser, tokenFor } from '../../seed/factories.js';

/**
 * What the inventory tests share (inventory.*.test.ts): the tokens of each kind of user, three schools, and
 * helpers to read an answer and add contracts and types.
 */

/** The running test file's app (set by its set-up: the modules are shared between a worker's files). */
export let t: TestApp;

export let admin: string;
/** A Zaposleni of a Naručilac group: keeps the inventory of the clusters the group sees. */
export let client: string;
/** A Zaposleni of a contractor's group, and a Naručilac group's manager: refused. */
export let contractor: string;
export let manager: string;
export let guest: string;
export let schoolA: { id: string; naziv: string };
export let schoolB: { id: string; naziv: string };
export let hidden: { id: string; naziv: string };

export const json = (res: { statusCode: number; body: string; json: () => unknown }, status = 200) => {
  expect(res.statusCode, res.body).toBe(status);
  return res.json() as Record<string, unknown>;
};

export async function newContract(broj: string, token = client, naziv = `Isporuka opreme ${broj}`) {
  const res = await t.call({
    method: 'POST',
    url: '/api/contract',
    token,
    payload: { inventory: true, naziv, broj, datumPocetka: '2026-03-01' },
  });
  return res;
}

export async function newType(body: Record<string, unknown>, token = client): Promise<InvTypeDto> {
  const res = await t.call({ method: 'POST', url: '/api/inv-type', token, payload: body });
  return json(res, 201).invType as InvTypeDto;
}

/**
 * Registers the set-up of the calling test file: its own app and data, read through the bindings above
 * while its tests run (vitest isolate: false shares this module between a worker's files).
 */
export function setupInventory(): void {
  const app = useTestApp();
  beforeAll(async () => {
    t = app;
    const nar = await createGroup(t.db, { type: 'NARUCILAC' });
    const izv = await createGroup(t.db, { type: 'IZVODJAC' });
    admin = await tokenFor(t.ctx, await createUser(t.db, { role: 'Admin' }));
    client = await tokenFor(t.ctx, await createUser(t.db, { role: 'Zaposleni', groupId: nar.id }));
    contractor = await tokenFor(t.ctx, await createUser(t.db, { role: 'Zaposleni', groupId: izv.id }));
    manager = await tokenFor(t.ctx, await createUser(t.db, { role: 'Rukovodilac', groupId: nar.id }));
    guest = await tokenFor(t.ctx, await createUser(t.db, { role: 'Gost' }));
    const n1 = await createSettlement(t.db, { naziv: 'Mionica', opstine: ['Mionica'] });
    const n2 = await createSettlement(t.db, { naziv: 'Divci', opstine: ['Valjevo'] });
    schoolA = await createCluster(t.db, { naziv: 'OŠ „Mionica“ Mionica', groupIds: [nar.id], naselja: [n1.id] });
    schoolB = await createCluster(t.db, { naziv: 'OŠ „Divci“ Valjevo', groupIds: [nar.id], naselja: [n2.id] });
    hidden = await createCluster(t.db, { naziv: 'OŠ Skrivena', groupIds: [izv.id] });
  });
}
