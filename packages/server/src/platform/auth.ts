import { type RoleKey, roleIn } from '@trasa/domain';
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import { groups, groupTypes, revokedTokens, roles, users } from '../db/schema.js';
import { type UserWithRelations, userWithRelationsFields } from '../features/users/presenter.js';
import type { Db } from './database.js';
import { NEVER_RESTORED } from './epoch.js';
import { forbidden, unauthorized } from './errors.js';
import type { TokenService } from './tokens.js';

/** The signed-in user a request acts for. */
export type Actor = {
  id: string;
  ime: string;
  prezime: string;
  email: string;
  role: RoleKey;
  roleId: string;
  tokenVersion: number;
  /**
   * The database's epoch read with the user (platform/epoch.ts; absent outside a request): a token the
   * request's session hands out names it. groupsVersion and visibilityVersion hold it too.
   */
  epoch?: string;
  /** The token the request came with (absent for an actor built outside a request). */
  session?: { jti: string; expiresAt: Date };
  /**
   * The groups' data version read with the user at sign-in of the request (absent outside a request):
   * the scope of groups kept under it is used without reading the tree again (platform/keptByVersion.ts).
   */
  groupsVersion?: string | null;
  /**
   * The version of what decides which clusters a group sees (drizzle/0033's 'visibility'), read with the
   * user: a limited scope's visible clusters kept under it and the groups' (clusters/policy.ts).
   */
  visibilityVersion?: string | null;
  group: { id: string; naziv: string; cirilica: string; sveVideci: boolean; typeCode: string | null } | null;
  row: UserWithRelations;
};

declare module 'fastify' {
  interface FastifyRequest {
    actor?: Actor;
  }
}

export function toActor(row: UserWithRelations): Actor {
  return {
    id: row.user.id,
    ime: row.user.ime,
    prezime: row.user.prezime,
    email: row.user.email,
    role: row.role.baseRole as RoleKey,
    roleId: row.role.id,
    tokenVersion: row.user.tokenVersion,
    group: row.group
      ? {
          id: row.group.id,
          naziv: row.group.naziv,
          cirilica: row.group.cirilica,
          sveVideci: row.group.sveVideci,
          typeCode: row.type?.code ?? null,
        }
      : null,
    row,
  };
}

/**
 * The active, not deleted user with role and group, unless the token was signed out, the database's
 * epoch (platform/epoch.ts: a token of another epoch is refused; the kept scopes' versions hold it), and
 * the current version of the groups (drizzle/0020's 'groups': it moves at the commit of any change of a group, its
 * parent or its flags) and of the clusters' visibility (drizzle/0033's 'visibility'), under which the request's scope may be kept (groups/policy.ts,
 * clusters/policy.ts: a Rukovodilac's subtree and a user's scope groups without a statement of their
 * own). A named prepared statement: it runs on every authenticated request, and a cached plan makes it
 * about twice as fast (docs/decisions.md); the revocation check is one primary-key probe inside the same
 * query. The joins are selectUserWithRelations'.
 */
function prepareLoadActiveUser(db: Db) {
  return db
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
}

/**
 * Authentication: a valid bearer token, not signed out, issued in the database's current epoch (a
 * restore ends every session), whose token version is the user's current one, for an active, not
 * deleted user. Then `requireRoles` checks the role against the lists of the route
 * table.
 */
export function createAuth(deps: { db: Db; tokens: TokenService }) {
  const loadActiveUser = prepareLoadActiveUser(deps.db);
  async function authenticate(request: FastifyRequest): Promise<Actor> {
    const header = request.headers.authorization;
    const token = header?.startsWith('Bearer ') ? header.slice(7).trim() : undefined;
    if (!token) throw unauthorized();
    const claims = await deps.tokens.verify(token);
    if (!claims || !/^[0-9a-f-]{36}$/i.test(claims.sub)) throw unauthorized();
    const [found] = await loadActiveUser.execute({ id: claims.sub, jti: claims.jti });
    if (!found || found.user.tokenVersion !== claims.tv) throw unauthorized();
    const { groupsVersion, visibilityVersion, epoch: read, ...row } = found;
    const epoch = read ?? NEVER_RESTORED;
    if (claims.ep !== epoch) throw unauthorized();
    // Values are kept under these versions: they carry the epoch, as a restore's versions may repeat earlier ones.
    const actor = {
      ...toActor(row),
      epoch,
      session: { jti: claims.jti, expiresAt: claims.expiresAt },
      groupsVersion: groupsVersion == null ? groupsVersion : `${epoch}.${groupsVersion}`,
      visibilityVersion: visibilityVersion == null ? visibilityVersion : `${epoch}.${visibilityVersion}`,
    };
    request.actor = actor;
    return actor;
  }

  /**
   * An onRequest hook for signed-in users whose role is in `allowed` (all roles when omitted). It runs
   * before the body is parsed or validated: an anonymous caller learns nothing about the payload rules.
   */
  function requireRoles(allowed?: readonly RoleKey[]): onRequestAsyncHookHandler {
    return async (request: FastifyRequest, _reply: FastifyReply) => {
      const actor = await authenticate(request);
      if (allowed && !roleIn(actor.role, allowed)) throw forbidden();
    };
  }

  return { authenticate, requireRoles };
}
export type Auth = ReturnType<typeof createAuth>;

/** The actor of a request that passed `requireRoles`. */
export function actorOf(request: FastifyRequest): Actor {
  if (!request.actor) throw unauthorized();
  return request.actor;
}
