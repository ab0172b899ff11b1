import { deleteCommentsSchema, rolesFor, sortQuery } from '@trasa/domain';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.js';
import { actorOf } from '../../platform/auth.js';
import { pagingQuery, searchPagingQuery } from '../../platform/paging.js';
import * as service from './service.js';

const requestInfo = (r: FastifyRequest) => ({ ip: r.ip, url: r.url });

/**
 * The comments list (spec 3 §2.6, §7 "Comments"; docs/api/logs-comments-ijo.md): every comment on the
 * activities of the clusters the caller sees; the Admin deletes. POST /api/comment/{id} (writing one on
 * an activity) belongs to the activity screen's feature.
 */
export async function commentListRoutes(fastify: FastifyInstance, ctx: AppContext): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const readers = ctx.auth.requireRoles(rolesFor('comments'));
  const adminOnly = ctx.auth.requireRoles(['Admin']);

  app.get('/api/comment', { schema: { querystring: pagingQuery.extend(sortQuery('comments')) }, onRequest: readers }, async (request) =>
    service.listComments(ctx, actorOf(request), request.query),
  );

  app.get(
    '/api/search/comment',
    { schema: { querystring: searchPagingQuery.extend(sortQuery('comments')) }, onRequest: readers },
    async (request) => service.searchComments(ctx, actorOf(request), request.query),
  );

  app.delete('/api/comment', { schema: { body: deleteCommentsSchema }, onRequest: adminOnly }, async (request) => ({
    message: await service.deleteComments(ctx, actorOf(request), request.body.komentari, requestInfo(request)),
  }));
}
