import { CATALOGUE, catalogueEditSchema, rolesFor } from '@trasa/domain';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.js';
import { actorOf } from '../../platform/auth.js';
import * as service from './service.js';

const requestInfo = (r: FastifyRequest) => ({ ip: r.ip, url: r.url });
const codeParam = z.object({ code: z.string().max(20) });

/** The activity catalogue (spec 3 §2.3), Admin only; docs/api/notifications.md "Catalogue". */
export async function catalogueRoutes(fastify: FastifyInstance, ctx: AppContext): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const adminOnly = ctx.auth.requireRoles(rolesFor('activityCatalogue'));

  app.get('/api/activity/catalogue', { onRequest: adminOnly }, async () => ({ activities: await service.listCatalogue(ctx) }));

  app.patch(
    '/api/activity/catalogue/:code',
    { schema: { params: codeParam, body: catalogueEditSchema }, onRequest: adminOnly },
    async (request) => ({
      message: CATALOGUE.saved,
      activity: await service.editCatalogueEntry(ctx, actorOf(request), request.params.code, request.body, requestInfo(request)),
    }),
  );
}
