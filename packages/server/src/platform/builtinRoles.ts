import type { RoleKey } from '@trasa/domain';
import { and, eq } from 'drizzle-orm';
import { roles } from '../db/schema.js';
import type { Executor } from './database.js';

/** The id of the built-in role of `key` (created with the reference data at start). */
export async function builtinRoleId(db: Executor, key: RoleKey): Promise<string> {
  const [row] = await db
    .select({ id: roles.id })
    .from(roles)
    .where(and(eq(roles.baseRole, key), eq(roles.builtin, true)))
    .limit(1);
  if (!row) throw new Error(`built-in role ${key} missing`);
  return row.id;
}
