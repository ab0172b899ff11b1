import { type RoleKey, roleIn } from '@trasa/domain';
import type { FastifyReply, FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import { EPOCH_ROW, NEVER_RESTORED } from './epoch.js';
import { forbidden, unauthorized } from './errors.js';
import { parseVersions, type ReadVersions } from './kept/store.js';
import type { TokenService } from './tokens.js';
import type { UserWithRelations } from './userRows.js';

/** A user row with its role and group (and the group's type): what selectUserWithRelations reads. */
export type ActorRow = UserWithRelations;

/**
 * The active, not deleted user of `id` with role and group, unless the token `jti` was signed out, and
 * every data version's row with the database's epoch (`versions`: platform/kept/store.ts
 * VERSIONS_AGGREGATE; no epoch row before the first restore; see Actor). The users feature
 * makes it (features/users/activeUser.ts); app.ts hands it to createAuth.
 */
export type LoadActiveUser = (params: { id: string; jti: string }) => Promise<(ActorRow & { versions: string | null }) | undefined>;

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
   * request's session hands out names it, and every value the request keeps is kept under it too
   * (platform/kept/store.ts actorVersion).
   */
  epoch?: string;
  /** The token the request came with (absent for an actor built outside a request). */
  session?: { jti: string; expiresAt: Date };
  /**
   * Every data version's row read with the user, the epoch's among them (absent outside a request): the
   * versions the request's kept values are used under (platform/kept/store.ts actorVersion), no
   * statement of their own.
   */
  versions?: ReadVersions;
  group: { id: string; naziv: string; cirilica: string; sveVideci: boolean; typeCode: string | null } | null;
  row: ActorRow;
};

declare module 'fastify' {
  interface FastifyRequest {
    actor?: Actor;
  }
}

export function toActor(row: ActorRow): Actor {
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
 * Authentication: a valid bearer token, not signed out, issued in the database's current epoch (a
 * restore ends every session), whose token version is the user's current one, for an active, not
 * deleted user. Then `requireRoles` checks the role against the lists of the route
 * table.
 */
export function createAuth(deps: { loadActiveUser: LoadActiveUser; tokens: TokenService }) {
  const { loadActiveUser } = deps;
  async function authenticate(request: FastifyRequest): Promise<Actor> {
    const header = request.headers.authorization;
    const token = header?.startsWith('Bearer ') ? header.slice(7).trim() : undefined;
    if (!token) throw unauthorized();
    const claims = await deps.tokens.verify(token);
    if (!claims || !/^[0-9a-f-]{36}$/i.test(claims.sub)) throw unauthorized();
    const found = await loadActiveUser({ id: claims.sub, jti: claims.jti });
    if (!found || found.user.tokenVersion !== claims.tv) throw unauthorized();
    const { versions: text, ...row } = found;
    const versions = parseVersions(text);
    const epoch = versions[EPOCH_ROW] ?? NEVER_RESTORED;
    if (claims.ep !== epoch) throw unauthorized();
    // Values are kept under these versions with the epoch (platform/kept/store.ts actorVersion), as a
    // restore's versions may repeat earlier ones.
    const actor: Actor = {
      ...toActor(row),
      epoch,
      session: { jti: claims.jti, expiresAt: claims.expiresAt },
      versions,
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
