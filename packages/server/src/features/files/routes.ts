import { ACTIVITIES, rolesFor } from '@trasa/domain';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.js';
import { actorOf } from '../../platform/auth.js';
import { activityFor } from '../activities/routes.js';
import { contentDisposition } from '../contracts/routes.js';
import { deleteActivityFile, type FileDeps, openActivityFile, planZip } from './service.js';
import { activityFileStore } from './store.js';
import { zipStream } from './zip.js';

const fileParams = z.object({ locationId: z.string().max(100), activityId: z.string().max(100), fileId: z.string().max(100) });
const zipQuery = z.object({ activityName: z.string().max(100).optional(), directory: z.string().max(100).optional() });

/**
 * Activity documents (spec 3 §7 "Files"; docs/api/activities.md): download and delete one, and the
 * zip of an activity's or a whole cluster's documents.
 */
export async function fileRoutes(fastify: FastifyInstance, ctx: AppContext): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const readers = ctx.auth.requireRoles(rolesFor('activity'));
  const deps: FileDeps = { db: ctx.db, store: activityFileStore(ctx.config.dataDir) };

  app.get(
    '/api/files/activity/:locationId/:activityId/:fileId',
    { schema: { params: fileParams }, onRequest: readers },
    async (request, reply) => {
      const file = await openActivityFile(deps, actorOf(request), request.params);
      return reply
        .header('content-type', file.mimetype)
        .header('content-length', file.size)
        .header('content-disposition', contentDisposition(file.originalnoIme))
        .header('x-content-type-options', 'nosniff')
        .header('cache-control', 'private, no-store')
        .send(file.stream);
    },
  );

  app.delete(
    '/api/files/activity/:locationId/:activityId/:fileId',
    { schema: { params: fileParams }, onRequest: readers },
    async (request) => {
      const actor = actorOf(request);
      const result = await deleteActivityFile(deps, actor, request.params, { req: { ip: request.ip, url: request.url } });
      return { message: ACTIVITIES.fileDeleted, activity: await activityFor(ctx, actor, result) };
    },
  );

  app.get('/api/files/zip', { schema: { querystring: zipQuery }, onRequest: readers }, async (request, reply) => {
    const plan = await planZip(deps, actorOf(request), request.query);
    const archive = zipStream(deps.store, plan.entries);
    // A client that goes away stops the archive (and the file it was reading).
    reply.raw.on('close', () => {
      if (!reply.raw.writableFinished) archive.abort();
    });
    return reply
      .header('content-type', 'application/zip')
      .header('content-disposition', contentDisposition(plan.fileName))
      .header('x-content-type-options', 'nosniff')
      .header('cache-control', 'private, no-store')
      .send(archive);
  });
}
