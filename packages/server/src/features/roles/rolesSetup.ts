import type { RoleKey } from '@trasa/domain';
import { desc, eq } from 'drizzle-orm';
import { beforeAll } from 'vitest';
import { type TestApp, useTestApp } from '../../../test/harness.js';
import { auditLogs, groups, users } from '../../db/schema.js';
import { builtinRoleId } from '../../platform/builtinRoles.js';
import { createOrgTree, createUser, tokenFor } from '../../seed/factories.js';

/**
 * What the roles tests share (roles.*.test.ts): an org tree, an Admin and a Rukovodilac with their tokens,
 * the reserved group, the built-in roles' ids, and helpers to read users and their logs.
 */

/** The running test file's app (set by its set-up: the modules are shared between a worker's files). */
export let t: TestApp;
export const NO_ID = '00000000-0000-4000-8000-000000000000';

export let tree: Awaited<ReturnType<typeof createOrgTree>>;
export let admin: Awaited<ReturnType<typeof createUser>>;
export let adminToken: string;
export let managerToken: string;
export let reservedId: string;
export const roleId = {} as Record<RoleKey, string>;

/** The newest audit row written by a user. */
export async function lastLogOf(userId: string) {
  const [log] = await t.db.select().from(auditLogs).where(eq(auditLogs.userId, userId)).orderBy(desc(auditLogs.createdAt)).limit(1);
  return log;
}

export async function userRow(id: string) {
  const [u] = await t.db.select().from(users).where(eq(users.id, id));
  if (!u) throw new Error('no user');
  return u;
}

/**
 * Registers the set-up of the calling test file: its own app and data, read through the bindings above
 * while its tests run (vitest isolate: false shares this module between a worker's files).
 */
export function setupRoles(): void {
  const app = useTestApp();
  beforeAll(async () => {
    t = app;
    tree = await createOrgTree(t.db, 'Role');
    admin = await createUser(t.db, { role: 'Admin' });
    adminToken = await tokenFor(t.ctx, admin);
    managerToken = await tokenFor(t.ctx, tree.manager);
    const [reserved] = await t.db.select().from(groups).where(eq(groups.reserved, true));
    reservedId = reserved?.id ?? '';
    for (const key of ['Admin', 'Rukovodilac', 'Zaposleni', 'Gost'] as const) roleId[key] = await builtinRoleId(t.db, key);
  });
}
