import { deleteLogsSchema, logListQuery, logSearchQuery, rolesFor } from '@trasa/domain';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.js';
import { actorOf } from '../../platform/auth.js';
import * as service from './service.js';

const requestInfo = (r: FastifyRequest) => ({ ip: r.ip, url: r.url });

/** The audit log (spec 3 §2.5, §7 "Logs"; docs/api/logs-comments-ijo.md): read by scope, deleted by the Admin. */
export async function logRoutes(fastify: FastifyInstance, ctx: AppContext): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const readers = ctx.auth.requireRoles(rolesFor('logs', 'logsOfGroup'));
  const adminOnly = ctx.auth.requireRoles(['Admin']);

  app.get('/api/log', { schema: { querystring: logListQuery }, onRequest: readers }, async (request) =>
    service.listLogs(ctx, actorOf(request), request.query),
  );

  app.get('/api/search/log', { schema: { querystring: logSearchQuery }, onRequest: readers }, async (request) =>
    service.searchLogs(ctx, actorOf(request), request.query),
  );

  app.delete('/api/log', { schema: { body: deleteLogsSchema }, onRequest: adminOnly }, async (request) => ({
    message: await service.deleteLogs(ctx, actorOf(request), request.body.logIds, requestInfo(request)),
  }));
}
