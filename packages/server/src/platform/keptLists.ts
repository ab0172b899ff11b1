import { sql } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AnswerCache } from './answerCache.js';
import type { Executor } from './database.js';
import { EPOCH_ROW, NEVER_RESTORED } from './epoch.js';

/**
 * Whole lists kept by data version (docs/decisions.md "Pickers: whole lists kept by data version"). A call
 * for at least WHOLE_LIST_LIMIT rows — the pickers' GET /api/location?limit=1000, GET /api/group?limit=50000
 * and GET /api/contract?limit=1000 (and the typed contracts'), made on every dialog opened — is answered
 * from platform/answerCache.ts under a key that holds the caller's scope and the list's data version;
 * smaller pages are built on every request.
 */
export const WHOLE_LIST_LIMIT = 1000;

/**
 * The lists whose data versions migration 0020 keeps ('contracts': 0027; 'visibility': 0033, which clusters
 * groups see — a contract's groups among them, which 'locations' does not follow).
 */
export type KeptList = 'locations' | 'groups' | 'a13' | 'contracts' | 'visibility';

/**
 * The version of the data the named lists are built from, read from PostgreSQL on every request: any
 * change of it moves a version at its commit (migration 0020's deferred triggers), through whichever
 * server instance it was made. Several lists: their versions joined, after the database's epoch read in
 * the same statement (platform/epoch.ts: a restore's versions may repeat earlier ones). null where a migration's row is
 * missing (the caller then builds the answer itself).
 */
export async function keptListVersion(db: Executor, ...lists: [KeptList, ...KeptList[]]): Promise<string | null> {
  const result = await db.execute<{ name: string; version: string }>(
    sql`select name, version::text as version from report_cache_state where name in (${sql.join(
      [EPOCH_ROW, ...lists].map((l) => sql`${l}`),
      sql`, `,
    )})`,
  );
  const versions = lists.map((l) => result.rows.find((r) => r.name === l)?.version);
  const epoch = result.rows.find((r) => r.name === EPOCH_ROW)?.version ?? NEVER_RESTORED;
  return versions.every((v) => v !== undefined) ? `${epoch}/${versions.join('.')}` : null;
}

/** The part of a kept answer's key that names what the caller sees: 'all', or their scope's groups sorted. */
export const scopeKey = (scope: { all: true } | { all: false; groupIds: string[] }) =>
  scope.all ? 'all' : [...scope.groupIds].sort().join(',');

/**
 * Sends a whole list from `cache` under `key` and the current version of `lists` (built by `build` when
 * not kept); built and sent as it is where the migration's rows are missing.
 */
export async function sendKeptList(
  db: Executor,
  cache: AnswerCache,
  request: FastifyRequest,
  reply: FastifyReply,
  lists: [KeptList, ...KeptList[]],
  key: unknown[],
  build: () => Promise<string>,
): Promise<FastifyReply> {
  const version = await keptListVersion(db, ...lists);
  if (version === null) return reply.type('application/json; charset=utf-8').send(await build());
  return cache.send(request, reply, JSON.stringify([...key, version]), build);
}
