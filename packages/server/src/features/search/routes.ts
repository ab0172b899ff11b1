import { rolesFor } from '@trasa/domain';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.js';
import { actorOf } from '../../platform/auth.js';
import { searchPagingQuery } from '../users/paging.js';
import * as service from './service.js';

/** The search boxes of the users and groups lists (spec 1 §7): the typed text (eng) and its transliteration (srb). */
export async function searchRoutes(fastify: FastifyInstance, ctx: AppContext): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.get(
    '/api/search/user',
    { schema: { querystring: searchPagingQuery }, onRequest: ctx.auth.requireRoles(rolesFor('users')) },
    async (request) => service.searchUsers(ctx, actorOf(request), request.query),
  );

  app.get(
    '/api/search/group',
    { schema: { querystring: searchPagingQuery }, onRequest: ctx.auth.requireRoles(rolesFor('groups')) },
    async (request) => service.searchGroups(ctx, actorOf(request), request.query),
  );
}
