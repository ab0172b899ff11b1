import { eq } from 'drizzle-orm';
import { beforeAll } from 'vitest';
import { type TestApp, useTestApp } from '../../../test/harness.js';
import { groups } from '../../db/schema.js';
import { createOrgTree, createUser, groupTypeId, tokenFor } from '../../seed/factories.js';

/**
 * What the groups tests share (groups.*.test.ts): an org tree, an Admin and a Rukovodilac with their tokens,
 * the reserved group, two group types' ids, and helpers to read groups.
 */

/** The running test file's app (set by its set-up: the modules are shared between a worker's files). */
export let t: TestApp;
export const NO_ID = '00000000-0000-4000-8000-000000000000';

export let tree: Awaited<ReturnType<typeof createOrgTree>>;
export let admin: Awaited<ReturnType<typeof createUser>>;
export let adminToken: string;
export let managerToken: string;
export let reservedId: string;
export let izvodjac: string;
export let nadzor: string;

export async function group(id: string) {
  const [g] = await t.db.select().from(groups).where(eq(groups.id, id));
  return g;
}

export async function groupCount() {
  return (await t.db.select({ id: groups.id }).from(groups)).length;
}

export const ids = (list: { _id: string }[]) => list.map((g) => g._id);

/**
 * Registers the set-up of the calling test file: its own app and data, read through the bindings above
 * while its tests run (vitest isolate: false shares this module between a worker's files).
 */
export function setupGroups(): void {
  const app = useTestApp();
  beforeAll(async () => {
    t = app;
    tree = await createOrgTree(t.db, 'Grupe');
    admin = await createUser(t.db, { role: 'Admin' });
    adminToken = await tokenFor(t.ctx, admin);
    managerToken = await tokenFor(t.ctx, tree.manager);
    const [reserved] = await t.db.select().from(groups).where(eq(groups.reserved, true));
    reservedId = reserved?.id ?? '';
    izvodjac = await groupTypeId(t.db, 'IZVODJAC');
    nadzor = await groupTypeId(t.db, 'NADZOR');
  });
}
