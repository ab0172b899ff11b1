import { and, eq, isNull, sql } from 'drizzle-orm';
import { groups, groupTypes, revokedTokens, roles, users } from '../../db/schema.js';
import type { LoadActiveUser } from '../../platform/auth.js';
import type { Db } from '../../platform/database.js';
import { VERSIONS_AGGREGATE } from '../../platform/kept/store.js';
import { userWithRelationsFields } from '../../platform/userRows.js';

/**
 * The loader authentication runs on every request (platform/auth.ts; app.ts hands it to createAuth):
 * the active, not deleted user with role and group, unless the token was signed out, the database's
 * epoch (platform/epoch.ts: a token of another epoch is refused; the kept values' versions hold it), and
 * every data version (report_cache_state's rows in one aggregate, platform/kept/store.ts
 * VERSIONS_AGGREGATE: as cheap as reading three of them), under which the request's kept values are used
 * without a statement of their own (clusters/policy.ts: a user's scope groups and visible clusters;
 * platform/kept/answers.ts: the whole answers). A named prepared statement: it runs on every
 * authenticated request, and a cached plan makes it about twice as fast (docs/decisions.md); the
 * revocation check is one primary-key probe inside the same query. The joins are selectUserWithRelations'.
 */
export function activeUserLoader(db: Db): LoadActiveUser {
  const statement = db
    .select({
      ...userWithRelationsFields,
      versions: sql<string | null>`${VERSIONS_AGGREGATE}`,
    })
    .from(users)
    .innerJoin(roles, eq(roles.id, users.roleId))
    .leftJoin(groups, eq(groups.id, users.groupId))
    .leftJoin(groupTypes, eq(groupTypes.id, groups.typeId))
    .where(
      and(
        eq(users.id, sql.placeholder('id')),
        isNull(users.deletedAt),
        eq(users.status, 'aktivan'),
        sql`not exists (select 1 from ${revokedTokens} where ${revokedTokens.jti} = ${sql.placeholder('jti')})`,
      ),
    )
    .limit(1)
    .prepare('load_active_user');
  return async (params) => (await statement.execute(params))[0];
}
