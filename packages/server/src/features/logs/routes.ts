import { deleteLogsSchema, type LogsPage, logListQuery, logSearchQuery, rolesFor, type Script, toScript } from '@trasa/domain';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.js';
import { actorOf } from '../../platform/auth.js';
import { scriptOf } from '../../platform/script.js';
import * as service from './service.js';

const requestInfo = (r: FastifyRequest) => ({ ip: r.ip, url: r.url });

/** A page's sentences in the reader's script: the fixed words converted, the names inside as typed. */
function inScript<P extends Pick<LogsPage, 'logs'>>(page: P, script: Script): P {
  return { ...page, logs: page.logs.map((l) => ({ ...l, message: toScript(l.message, script) })) };
}

/** The audit log (spec 3 §2.5, §7 "Logs"; docs/api/logs-comments-ijo.md): read by scope, deleted by the Admin. */
export async function logRoutes(fastify: FastifyInstance, ctx: AppContext): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const readers = ctx.auth.requireRoles(rolesFor('logs', 'logsOfGroup'));
  const adminOnly = ctx.auth.requireRoles(['Admin']);

  app.get('/api/log', { schema: { querystring: logListQuery }, onRequest: readers }, async (request) =>
    inScript(await service.listLogs(ctx, actorOf(request), request.query), scriptOf(request)),
  );

  app.get('/api/search/log', { schema: { querystring: logSearchQuery }, onRequest: readers }, async (request) =>
    inScript(await service.searchLogs(ctx, actorOf(request), request.query), scriptOf(request)),
  );

  app.delete('/api/log', { schema: { body: deleteLogsSchema }, onRequest: adminOnly }, async (request) => ({
    message: await service.deleteLogs(ctx, actorOf(request), request.body.logIds, requestInfo(request)),
  }));
}
