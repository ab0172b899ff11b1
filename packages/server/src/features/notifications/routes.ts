import { pageQuery, RESPONSIBLE_PARTIES, rolesFor, searchQuery, sortQuery } from '@trasa/domain';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.js';
import { actorOf } from '../../platform/auth.js';
import * as service from './service.js';

const COLOURS = ['blue', 'orange', 'red', 'green', 'greenRed', 'white'] as const;
/** An empty filter (the select's 'all') is no filter. */
const optional = <T extends z.ZodType>(schema: T) => z.preprocess((v) => (v === '' ? undefined : v), schema.optional());

const inProgressQuery = searchQuery.extend({
  contract: optional(z.uuid()),
  cluster: optional(z.uuid()),
  odgovoran: optional(z.enum(RESPONSIBLE_PARTIES)),
  boja: optional(z.enum(COLOURS)),
  ...sortQuery('activities'),
});

/**
 * Notifications (spec 3 §2.2, §7) and the Admin's activities in progress (§2.4); docs/api/notifications.md.
 * Static paths: they win over the workflow's GET /api/activity/:id.
 */
export async function notificationRoutes(fastify: FastifyInstance, ctx: AppContext): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const noticeReaders = ctx.auth.requireRoles(rolesFor('notices'));

  app.get(
    '/api/activity/notifications',
    { schema: { querystring: pageQuery.extend(sortQuery('activities')) }, onRequest: noticeReaders },
    async (request) => service.notifications(ctx, actorOf(request), request.query),
  );

  app.get(
    '/api/search/notification',
    { schema: { querystring: searchQuery.extend(sortQuery('activities')) }, onRequest: noticeReaders },
    async (request) => service.notifications(ctx, actorOf(request), request.query),
  );

  app.get(
    '/api/activity/in-progress',
    { schema: { querystring: inProgressQuery }, onRequest: ctx.auth.requireRoles(rolesFor('activitiesInProgress')) },
    async (request) => service.inProgress(ctx, request.query),
  );
}
