import { groupTypeSchema, idParam, rolesFor } from '@trasa/domain';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.js';
import { actorOf } from '../../platform/auth.js';
import * as service from './service.js';

const requestInfo = (r: FastifyRequest) => ({ ip: r.ip, url: r.url });

/**
 * Group types, a codebook (spec 2 §5, §7). Admin maintains them on /app/sifrarnici; the group forms
 * (Admin, Rukovodilac) and the employees' screens that show a group's type read them.
 */
export async function typeRoutes(fastify: FastifyInstance, ctx: AppContext): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const readers = ctx.auth.requireRoles(rolesFor('codebooks', 'groups', 'myAccount'));
  const adminOnly = ctx.auth.requireRoles(rolesFor('codebooks'));

  app.get('/api/types', { onRequest: readers }, async () => ({ types: await service.listTypes(ctx) }));

  app.post('/api/types', { schema: { body: groupTypeSchema }, onRequest: adminOnly }, async (request, reply) => {
    const type = await service.createType(ctx, actorOf(request), request.body, requestInfo(request));
    reply.status(201);
    return { message: service.TYPE_TEXTS.created, type };
  });

  app.patch('/api/types/:id', { schema: { params: idParam, body: groupTypeSchema }, onRequest: adminOnly }, async (request) => ({
    message: service.TYPE_TEXTS.edited,
    type: await service.editType(ctx, actorOf(request), request.params.id, request.body, requestInfo(request)),
  }));

  app.delete('/api/types/:id', { schema: { params: idParam }, onRequest: adminOnly }, async (request) => ({
    message: await service.deleteType(ctx, actorOf(request), request.params.id, requestInfo(request)),
  }));
}
