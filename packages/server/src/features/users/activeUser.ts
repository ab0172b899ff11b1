import { and, eq, isNull, sql } from 'drizzle-orm';
import { groups, groupTypes, revokedTokens, roles, users } from '../../db/schema.js';
import type { LoadActiveUser } from '../../platform/auth.js';
import type { Db } from '../../platform/database.js';
import { userWithRelationsFields } from '../../platform/userRows.js';

/**
 * The loader authentication runs on every request (platform/auth.ts; app.ts hands it to createAuth):
 * the active, not deleted user with role and group, unless the token was signed out, the database's
 * epoch (platform/epoch.ts: a token of another epoch is refused; the kept scopes' versions hold it), and
 * the current version of the groups (drizzle/0020's 'groups': it moves at the commit of any change of a group, its
 * parent or its flags) and of the clusters' visibility (drizzle/0033's 'visibility'), under which the request's scope may be kept (groups/policy.ts,
 * clusters/policy.ts: a Rukovodilac's subtree and a user's scope groups without a statement of their
 * own). A named prepared statement: it runs on every authenticated request, and a cached plan makes it
 * about twice as fast (docs/decisions.md); the revocation check is one primary-key probe inside the same
 * query. The joins are selectUserWithRelations'.
 */
export function activeUserLoader(db: Db): LoadActiveUser {
  const statement = db
    .select({
      ...userWithRelationsFields,
      groupsVersion: sql<string | null>`(select version::text from report_cache_state where name = 'groups')`,
      visibilityVersion: sql<string | null>`(select version::text from report_cache_state where name = 'visibility')`,
      epoch: sql<string | null>`(select version::text from report_cache_state where name = 'epoch')`,
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
