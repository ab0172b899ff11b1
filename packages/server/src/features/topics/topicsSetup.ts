import { eq, sql } from 'drizzle-orm';
import { beforeAll, expect } from 'vitest';
import { type TestApp, useTestApp } from '../../../test/harness.js';
import { auditLogs, groups } from '../../db/schema.js';
import { topics } from '../../db/schema-clusters.js';
import { createCluster, createContract, createGroup, createOrgTree, createUser, tokenFor } from '../../seed/factories.js';

/**
 * What the topics tests share (topics.*.test.ts): the test app, an org tree with its users' tokens, two
 * clusters, and helpers to call the API and read topics. Each test file that imports it gets its own.
 */

/** The running test file's app (set by its set-up: the modules are shared between a worker's files). */
export let t: TestApp;
export const NO_ID = '00000000-0000-4000-8000-000000000000';

type Org = Awaited<ReturnType<typeof createOrgTree>>;
export type Cluster = Awaited<ReturnType<typeof createCluster>>;
export let tree: Org;
export let adminToken: string;
export let managerToken: string;
export let leafToken: string;
export let rootToken: string;
export let otherToken: string;
export let allSeeingToken: string;
export let reservedId: string;
/** A group that sees every cluster (sveVideci): it can be given any topic. */
export let ministryId: string;
/** Visible to leaf (responsible), mid's manager and Admin; not to other. */
export let zlatibor: Cluster;
/** Visible to other only (through a contract) and Admin. */
export let drina: Cluster;

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';
export const call = (method: Method, url: string, token: string, payload?: object) =>
  t.call({ method, url, token, ...(payload && { payload }) });

export async function open(token: string, body: Record<string, unknown>) {
  const res = await call('POST', '/api/topic', token, body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data as { _id: string; updatedAt: string; odgovoran: { _id: string } };
}
export const topicRow = async (id: string) => (await t.db.select().from(topics).where(eq(topics.id, id)))[0];
export const auditCount = async () => (await t.db.select({ n: sql<number>`count(*)::int` }).from(auditLogs))[0]?.n ?? 0;
export const listIds = async (token: string, query = '') => {
  const res = await call('GET', `/api/topic?limit=1000&${query}`, token);
  expect(res.statusCode, res.body).toBe(200);
  return (res.json().data as { _id: string }[]).map((x) => x._id);
};

/**
 * Registers the set-up of the calling test file: its own app and data, read through the bindings above
 * while its tests run (vitest isolate: false shares this module between a worker's files).
 */
export function setupTopics(): void {
  const app = useTestApp();
  beforeAll(async () => {
    t = app;
    tree = await createOrgTree(t.db, 'Tema');
    adminToken = await tokenFor(t.ctx, await createUser(t.db, { role: 'Admin' }));
    managerToken = await tokenFor(t.ctx, tree.manager);
    leafToken = await tokenFor(
      t.ctx,
      await createUser(t.db, { role: 'Zaposleni', groupId: tree.leaf.id, ime: 'Jovana', prezime: 'Jović' }),
    );
    rootToken = await tokenFor(t.ctx, await createUser(t.db, { role: 'Zaposleni', groupId: tree.root.id }));
    otherToken = await tokenFor(t.ctx, await createUser(t.db, { role: 'Zaposleni', groupId: tree.other.id, ime: 'Ana', prezime: 'Anić' }));
    const ministry = await createGroup(t.db, { naziv: 'Ministarstvo Tema', type: 'NARUCILAC', sveVideci: true });
    allSeeingToken = await tokenFor(t.ctx, await createUser(t.db, { role: 'Zaposleni', groupId: ministry.id }));
    ministryId = ministry.id;
    const [reserved] = await t.db.select({ id: groups.id }).from(groups).where(eq(groups.reserved, true));
    reservedId = reserved?.id ?? '';
    zlatibor = await createCluster(t.db, { naziv: 'Zlatibor Čajetina', groupIds: [tree.leaf.id] });
    const nadzor = await createContract(t.db, { kind: 'contractNad', naziv: 'Nadzor Drina', groupIds: [tree.other.id] });
    drina = await createCluster(t.db, { naziv: 'Drina Ljubovija', contract: nadzor });
  });
}
