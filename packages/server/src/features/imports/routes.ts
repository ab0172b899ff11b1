import { IMPORTS, type ImportResponse, rolesFor } from '@trasa/domain';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.js';
import type { Actor } from '../../platform/auth.js';
import { actorOf } from '../../platform/auth.js';
import { contentDisposition } from '../../platform/contentDisposition.js';
import type { Db } from '../../platform/database.js';
import { importClusters } from './clusters.js';
import { importSettlements } from './settlements.js';
import { TEMPLATES, type TemplateName, templateWorkbook } from './templates.js';
import { receiveSheet, type UploadedSheet, withSheet } from './upload.js';
import { importUsers } from './users.js';

type Importer = (
  ctx: AppContext,
  actor: Actor,
  sheet: UploadedSheet,
  req: { ip: string; url: string },
) => Promise<ImportResponse['document']>;

/**
 * One import at a time: each holds a file and its rows in memory while it runs, so a server queues its
 * own; and across servers on one database (docs/operations.md "More than one server") an import waits
 * for the session advisory lock `trasa:imports`, so two imports of the same names through two servers
 * cannot both pass the existence checks. The lock's connection is held for the import's length (one of
 * the pool's ten; this server has at most one import running).
 */
function importQueue(db: Db) {
  let queue: Promise<unknown> = Promise.resolve();
  return <T>(work: () => Promise<T>): Promise<T> => {
    const locked = async () => {
      const holder = await db.$client.connect();
      try {
        await holder.query(`select pg_advisory_lock(hashtext('trasa:imports'))`);
        return await work();
      } finally {
        await holder.query(`select pg_advisory_unlock(hashtext('trasa:imports'))`).then(
          () => holder.release(),
          (err: Error) => holder.release(err),
        );
      }
    };
    const run = queue.then(locked, locked);
    queue = run.catch(() => undefined);
    return run;
  };
}

/**
 * Spreadsheet imports (spec 2 §7 "Imports"; docs/api/imports.md): POST /api/{user,naselje,location}/excel-import
 * with a multipart `file` (csv, xlsx or xls, at most 10,000,000 bytes), and the templates.
 */
export async function importRoutes(fastify: FastifyInstance, ctx: AppContext): Promise<void> {
  const usersRoles = ctx.auth.requireRoles(rolesFor('users'));
  const adminOnly = ctx.auth.requireRoles(rolesFor('codebooks', 'clusterNew'));
  const oneAtATime = importQueue(ctx.db);

  const handle = (importer: Importer) => async (request: FastifyRequest) => {
    const actor = actorOf(request);
    const sheet = await receiveSheet(request, ctx.config.dataDir);
    try {
      const document = await oneAtATime(() => withSheet(sheet, (s) => importer(ctx, actor, s, { ip: request.ip, url: request.url })));
      return { message: IMPORTS.success, document } satisfies ImportResponse;
    } finally {
      await sheet.dispose();
    }
  };

  fastify.post('/api/user/excel-import', { onRequest: usersRoles }, handle(importUsers));
  fastify.post('/api/naselje/excel-import', { onRequest: adminOnly }, handle(importSettlements));
  fastify.post('/api/location/excel-import', { onRequest: adminOnly }, handle(importClusters));

  const template = (name: TemplateName) => async (_request: FastifyRequest, reply: FastifyReply) => {
    const body = await templateWorkbook(name);
    return reply
      .header('content-type', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
      .header('content-disposition', contentDisposition(TEMPLATES[name].fileName))
      .header('cache-control', 'no-store')
      .send(body);
  };
  fastify.get('/api/files/korisnici', { onRequest: usersRoles }, template('korisnici'));
  fastify.get('/api/files/klasteri', { onRequest: adminOnly }, template('klasteri'));
}
