import { ACTIVITIES, type ActivityState, COMMON, rolesFor } from '@trasa/domain';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.js';
import { actorOf } from '../../platform/auth.js';
import { contentDisposition } from '../../platform/contentDisposition.js';
import { badRequest } from '../../platform/errors.js';
import { idempotencyHeaders } from '../../platform/idempotency.js';
import { activityFileStore } from '../../shared/activityFileStore.js';
import type { ActivityOptions } from '../activities/policy.js';
import { activityFor, onceForActivity } from '../activities/routes.js';
import {
  addActivityFiles,
  deleteActivityFile,
  type FileDeps,
  openActivityFile,
  parseUploadPath,
  planZip,
  precheckUpload,
} from './service.js';
import { readActivityForm } from './upload.js';
import { zipStream } from './zip.js';

const fileParams = z.object({ locationId: z.string().max(100), activityId: z.string().max(100), fileId: z.string().max(100) });
const zipQuery = z.object({ activityName: z.string().max(100).optional(), directory: z.string().max(100).optional() });

const options = (r: FastifyRequest): ActivityOptions => ({ req: { ip: r.ip, url: r.url } });

/**
 * The state the upload was made on, in the query (`?status=U toku&revizija=N`: read before the body, so
 * a stale upload is refused before anything is stored); both or neither.
 */
const uploadQuery = z.object({
  status: z.string().max(50).optional(),
  revizija: z
    .string()
    .regex(/^\d{1,9}$/)
    .optional(),
});

function stateOf(query: z.infer<typeof uploadQuery>): ActivityState | undefined {
  if (query.status === undefined && query.revizija === undefined) return undefined;
  if (query.status === undefined || query.revizija === undefined) throw badRequest(COMMON.badRequest);
  return { status: query.status, revizija: Number(query.revizija) };
}

/**
 * Uploads per caller (their token; the address without one): a person attaches a few files a minute;
 * a script filling the disk is stopped at 60 requests a minute (429 'Previše zahteva…').
 */
export const uploadRateLimit = {
  rateLimit: {
    max: 60,
    timeWindow: '1 minute',
    keyGenerator: (request: FastifyRequest) => request.headers.authorization ?? request.ip,
  },
};

const uploadParams = z.object({
  type: z.string().max(20),
  locationId: z.string().max(100),
  activityId: z.string().max(100),
  controlFlag: z.string().max(10),
  version: z.string().max(20),
  requiredFlag: z.string().max(10),
});

/**
 * Activity documents (spec 3 §7 "Files"; docs/api/activities.md): upload, download and delete one, and
 * the zip of an activity's or a whole cluster's documents.
 */
export async function fileRoutes(fastify: FastifyInstance, ctx: AppContext): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const readers = ctx.auth.requireRoles(rolesFor('activity'));
  const store = activityFileStore(ctx.config.dataDir);
  const deps: FileDeps = { db: ctx.db, store };

  app.patch(
    '/api/activity/:type/:locationId/:activityId/:controlFlag/:version/:requiredFlag',
    {
      schema: { params: uploadParams, querystring: uploadQuery, headers: idempotencyHeaders },
      onRequest: readers,
      config: uploadRateLimit,
    },
    async (request, reply) => {
      const actor = actorOf(request);
      const stanje = stateOf(request.query);
      // A repeat sent with the same Idempotency-Key gets the first answer; its files are not read or stored.
      return onceForActivity(ctx, request, reply, actor, request.params.activityId, async () => {
        // Refused before anything is stored when the request can't succeed anyway.
        await precheckUpload(deps, actor, request.params, stanje);
        const path = parseUploadPath(request.params);
        const form = await readActivityForm(request, store);
        const field = (name: string) => form.fields.get(name)?.[0];
        const requiredField = field('isRequiredFile');
        const result = await addActivityFiles(
          deps,
          actor,
          path.activityId,
          form.files,
          {
            userInput: field('userInput'),
            isRequired: requiredField === undefined ? path.required : requiredField !== 'false',
            version: path.version,
            stanje,
            path: { code: path.code, clusterId: path.clusterId },
          },
          options(request),
        );
        return { message: ACTIVITIES.uploaded, activity: await activityFor(ctx, actor, result) };
      });
    },
  );

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
