import type { RoleKey } from '@trasa/domain';
import { desc, eq } from 'drizzle-orm';
import { beforeAll } from 'vitest';
import { type TestApp, useTestApp } from '../../../test/harness.js';
import { auditLogs, groups, users } from '../../db/schema.js';
import { builtinRoleId } from '../../platform/builtinRoles.js';
import { createOrgTree, createUser, tokenFor } from '../../seed/factories.js';

/**
 * What the users tests share (users.*.test.ts): an org tree with users in each group, a guest and their
 * tokens, the built-in roles' ids, and helpers to read users and their logs.
 */

/** The running test file's app (set by its set-up: the modules are shared between a worker's files). */
export let t: TestApp;
export const NO_ID = '00000000-0000-4000-8000-000000000000';

export let tree: Awaited<ReturnType<typeof createOrgTree>>;
export let admin: Awaited<ReturnType<typeof createUser>>;
export let adminToken: string;
export let managerToken: string;
export let employeeToken: string;
export let inRoot: Awaited<ReturnType<typeof createUser>>;
export let inMid: Awaited<ReturnType<typeof createUser>>;
export let inLeaf: Awaited<ReturnType<typeof createUser>>;
export let inOther: Awaited<ReturnType<typeof createUser>>;
export let guest: Awaited<ReturnType<typeof createUser>>;
export let reservedId: string;
export const roleId = {} as Record<RoleKey, string>;

export async function row(id: string) {
  const [u] = await t.db.select().from(users).where(eq(users.id, id));
  if (!u) throw new Error('no user');
  return u;
}

export async function lastLogOf(userId: string) {
  const [log] = await t.db.select().from(auditLogs).where(eq(auditLogs.userId, userId)).orderBy(desc(auditLogs.createdAt)).limit(1);
  return log;
}

export const ids = (list: { _id: string }[]) => list.map((u) => u._id);

export const newUser = (over: Record<string, unknown> = {}) => ({
  ime: 'Dušan',
  prezime: 'Đurić',
  email: `dusan.${Math.random().toString(36).slice(2, 8)}@primer.rs`,
  emailPotvrdjen: true,
  rola: roleId.Zaposleni,
  status: 'aktivan',
  grupa: tree.leaf.id,
  lozinka: 'NovaLozinka1',
  potvrdaLozinke: 'NovaLozinka1',
  ...over,
});

export async function userCount() {
  return (await t.db.select({ id: users.id }).from(users)).length;
}

/**
 * Registers the set-up of the calling test file: its own app and data, read through the bindings above
 * while its tests run (vitest isolate: false shares this module between a worker's files).
 */
export function setupUsers(): void {
  const app = useTestApp();
  beforeAll(async () => {
    t = app;
    tree = await createOrgTree(t.db, 'Users');
    admin = await createUser(t.db, { role: 'Admin', ime: 'Ana', prezime: 'Adminović' });
    adminToken = await tokenFor(t.ctx, admin);
    managerToken = await tokenFor(t.ctx, tree.manager);
    inRoot = await createUser(t.db, { groupId: tree.root.id, ime: 'Petar', prezime: 'Korenović' });
    inMid = await createUser(t.db, { groupId: tree.mid.id, ime: 'Jelena', prezime: 'Srednjić' });
    inLeaf = await createUser(t.db, { groupId: tree.leaf.id, ime: 'Nikola', prezime: 'Listić' });
    inOther = await createUser(t.db, { groupId: tree.other.id, ime: 'Vesna', prezime: 'Drugić' });
    guest = await createUser(t.db, { role: 'Gost', ime: 'Goran', prezime: 'Gostić' });
    employeeToken = await tokenFor(t.ctx, inMid);
    const [reserved] = await t.db.select().from(groups).where(eq(groups.reserved, true));
    reservedId = reserved?.id ?? '';
    for (const key of ['Admin', 'Rukovodilac', 'Zaposleni', 'Gost'] as const) roleId[key] = await builtinRoleId(t.db, key);
  });
}
