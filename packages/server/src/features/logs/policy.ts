import { and, inArray, type SQL, sql } from 'drizzle-orm';
import { auditLogs, groups } from '../../db/schema.js';
import type { Actor } from '../../platform/auth.js';
import type { Executor } from '../../platform/database.js';
import { type Scope, scopeOf } from '../groups/policy.js';

/**
 * Who reads which log rows (server-behaviour.md "Logs"): the Admin all of them; a Rukovodilac the rows
 * of their subtree's groups; a Zaposleni their own group's. A row belongs to the group its actor was in
 * when it was written (group_id), so rows without a group (Admins, guests, failed sign-ins of unknown
 * addresses) are the Admin's only. The scope is the users' and groups' one (groups/policy.ts scopeOf).
 *
 * `groupName` narrows to one group's rows (/app/logovi/{naziv}): the group whose name or Cyrillic name,
 * with slashes written as dashes (nameSegment), equals it, case aside. A name that names no group in
 * the scope gives no rows.
 */
export type LogScope = { all: true } | { all: false; groupIds: string[] };

export async function logScopeOf(db: Executor, actor: Actor, groupName?: string): Promise<LogScope> {
  const scope: Scope = await scopeOf(db, actor);
  if (!groupName) return scope;
  const named = sql`lower(${groupName})`;
  const rows = await db
    .select({ id: groups.id })
    .from(groups)
    .where(
      and(
        sql`not ${groups.reserved}`,
        sql`(lower(replace(${groups.naziv}, '/', '-')) = ${named} or lower(replace(${groups.cirilica}, '/', '-')) = ${named})`,
      ),
    );
  const ids = rows.map((r) => r.id);
  return { all: false, groupIds: scope.all ? ids : ids.filter((id) => scope.groupIds.includes(id)) };
}

/** The rows a scope reaches: no condition for all, otherwise group_id among the scope's (an index range each). */
export function logScopeCondition(scope: LogScope): SQL | undefined {
  if (scope.all) return undefined;
  if (scope.groupIds.length === 0) return sql`false`;
  return inArray(auditLogs.groupId, scope.groupIds);
}
