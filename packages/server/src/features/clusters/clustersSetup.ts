import { eq, sql } from 'drizzle-orm';
import { beforeAll, expect } from 'vitest';
import { type TestApp, useTestApp } from '../../../test/harness.js';
import { groups } from '../../db/schema.js';
import { clusters } from '../../db/schema-clusters.js';
import { createContract, createGroup, createOrgTree, createSettlement, createUser, tokenFor } from '../../seed/factories.js';

/**
 * What the clusters tests share (clusters.*.test.ts): an org tree's tokens, settlements and contracts of each
 * state, and helpers to call, list and search clusters.
 */

/** The running test file's app (set by its set-up: the modules are shared between a worker's files). */
export let t: TestApp;
export const NO_ID = '00000000-0000-4000-8000-000000000000';

type Org = Awaited<ReturnType<typeof createOrgTree>>;
export type Row = { id: string };
export let tree: Org;
export let adminToken: string;
export let managerToken: string;
export let leafToken: string;
export let otherToken: string;
export let otherManagerToken: string;
export let allSeeingToken: string;
export let adminGroup: Row;
export let s: Row[];
export let active: Awaited<ReturnType<typeof createContract>>;
export let active2: Awaited<ReturnType<typeof createContract>>;
export let finished: Awaited<ReturnType<typeof createContract>>;
export let typed: Awaited<ReturnType<typeof createContract>>;

export const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, token: string, payload?: object) =>
  t.call({ method, url, token, ...(payload && { payload }) });
export const ids = (list: { _id: string }[]) => list.map((x) => x._id);
export const clusterCount = async () => (await t.db.select({ n: sql<number>`count(*)::int` }).from(clusters))[0]?.n;
export const list = async (token: string, query = 'page=1&limit=1000') => {
  const res = await call('GET', `/api/location?${query}`, token);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};
export const search = async (token: string, params: Record<string, string>) => {
  const res = await call('GET', `/api/search/location?${new URLSearchParams({ limit: '1000', ...params })}`, token);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};

/**
 * Registers the set-up of the calling test file: its own app and data, read through the bindings above
 * while its tests run (vitest isolate: false shares this module between a worker's files).
 */
export function setupClusters(): void {
  const app = useTestApp();
  beforeAll(async () => {
    t = app;
    tree = await createOrgTree(t.db, 'Klaster');
    adminToken = await tokenFor(t.ctx, await createUser(t.db, { role: 'Admin' }));
    managerToken = await tokenFor(t.ctx, tree.manager);
    leafToken = await tokenFor(t.ctx, await createUser(t.db, { role: 'Zaposleni', groupId: tree.leaf.id }));
    otherToken = await tokenFor(t.ctx, await createUser(t.db, { role: 'Zaposleni', groupId: tree.other.id }));
    otherManagerToken = await tokenFor(t.ctx, await createUser(t.db, { role: 'Rukovodilac', groupId: tree.other.id }));
    const ministry = await createGroup(t.db, { naziv: 'Ministarstvo Klaster', type: 'NARUCILAC', sveVideci: true });
    allSeeingToken = await tokenFor(t.ctx, await createUser(t.db, { role: 'Zaposleni', groupId: ministry.id }));
    const [reserved] = await t.db.select({ id: groups.id }).from(groups).where(eq(groups.reserved, true));
    adminGroup = reserved as Row;
    s = [];
    for (const naziv of ['Sirogojno', 'Rožanstvo', 'Ljubiš', 'Mačkat'])
      s.push(await createSettlement(t.db, { naziv, opstine: ['Čajetina'] }));
    active = await createContract(t.db, {
      naziv: 'Ugovor Zapadna Srbija',
      broj: '404-1/2025',
      datumPocetka: '2025-03-01',
      rokTrajanja: 300,
    });
    active2 = await createContract(t.db, { naziv: 'Ugovor Raška', broj: '404-2/2025' });
    finished = await createContract(t.db, { naziv: 'Ugovor završen', status: 'Završen', datumZavrsetka: '2025-02-01' });
    typed = await createContract(t.db, { kind: 'contractNad', naziv: 'Nadzor Zapad', groupIds: [tree.other.id] });
  });
}
