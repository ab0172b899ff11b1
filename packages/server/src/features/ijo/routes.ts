import { IJO, idParam, ijoSchema, rolesFor } from '@trasa/domain';
import type { FastifyInstance, FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.js';
import { actorOf } from '../../platform/auth.js';
import { assertMayEditIjo } from './policy.js';
import * as service from './service.js';

const requestInfo = (r: FastifyRequest) => ({ ip: r.ip, url: r.url });

/**
 * Public-authority holders (spec 3 §2.9, §7; docs/api/logs-comments-ijo.md). Every staff member reads
 * them (the activity screen's A6.1 and A7 choose from them); the Admin and a 'ПИУ ТА' employee change them.
 */
export async function ijoRoutes(fastify: FastifyInstance, ctx: AppContext): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const readers = ctx.auth.requireRoles(rolesFor('ijo', 'activity'));
  // The screen's roles, and of the employees only a 'ПИУ ТА' group's (403 before the body is read).
  const screenRoles = ctx.auth.requireRoles(rolesFor('ijo'));
  const editors: onRequestAsyncHookHandler = async function (request, reply) {
    await screenRoles.call(this, request, reply);
    assertMayEditIjo(actorOf(request));
  };

  app.get('/api/ijo', { onRequest: readers }, async () => ({ ijos: await service.listIjos(ctx) }));

  app.post('/api/ijo', { schema: { body: ijoSchema }, onRequest: editors }, async (request, reply) => {
    const ijo = await service.createIjo(ctx, actorOf(request), request.body, requestInfo(request));
    reply.status(201);
    return { message: IJO.created, ijo };
  });

  app.patch('/api/ijo/:id', { schema: { params: idParam, body: ijoSchema }, onRequest: editors }, async (request) => ({
    message: IJO.edited,
    ijo: await service.editIjo(ctx, actorOf(request), request.params.id, request.body, requestInfo(request)),
  }));

  app.delete('/api/ijo/:id', { schema: { params: idParam }, onRequest: editors }, async (request) => ({
    message: await service.deleteIjo(ctx, actorOf(request), request.params.id, requestInfo(request)),
  }));
}
