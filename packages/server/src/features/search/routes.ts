import { rolesFor, searchQuery, sortQuery } from '@trasa/domain';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.js';
import { actorOf } from '../../platform/auth.js';
import { searchPagingQuery } from '../../platform/paging.js';
import { sendJson } from '../users/routes.js';
import * as service from './service.js';

/** GET /api/search/location: the clusters list's query, and `activity` (a catalogue code) with the report's `contract`. */
const locationSearchQuery = searchQuery.extend({
  activity: z.string().max(20).optional().default(''),
  contract: z.string().max(200).optional(),
  ...sortQuery('clusters'),
});

/**
 * The search boxes (the typed text, eng, and its transliteration, srb): the users and groups lists
 * (spec 1 §7), the clusters list (spec 2 §7) and the per-activity report (spec 3 §7).
 */
export async function searchRoutes(fastify: FastifyInstance, ctx: AppContext): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.get(
    '/api/search/user',
    { schema: { querystring: searchPagingQuery.extend(sortQuery('users')) }, onRequest: ctx.auth.requireRoles(rolesFor('users')) },
    async (request, reply) => sendJson(reply, await service.searchUsers(ctx, actorOf(request), request.query)),
  );

  app.get(
    '/api/search/group',
    { schema: { querystring: searchPagingQuery.extend(sortQuery('groups')) }, onRequest: ctx.auth.requireRoles(rolesFor('groups')) },
    async (request) => service.searchGroups(ctx, actorOf(request), request.query),
  );

  app.get(
    '/api/search/location',
    { schema: { querystring: locationSearchQuery }, onRequest: ctx.auth.requireRoles(rolesFor('clusters', 'myClusters')) },
    async (request) => service.searchLocations(ctx, actorOf(request), request.query),
  );
}
