import { CLUSTERS, idParam, pageQuery, rolesFor, sortQuery } from '@trasa/domain';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.js';
import { actorOf } from '../../platform/auth.js';
import { scopeKey, sendKept, WHOLE_LIST_LIMIT } from '../../platform/kept/answers.js';
import { actorVersion } from '../../platform/kept/store.js';
import { appToday } from '../../platform/time.js';
import { type ClusterScope, clusterScopeOf } from './policy.js';
import { clusterBody } from './schema.js';
import * as service from './service.js';

const requestInfo = (r: FastifyRequest) => ({ ip: r.ip, url: r.url });

/**
 * Clusters (spec 2 §7 "Clusters"; docs/api/clusters-contracts.md). Staff read the clusters they can see
 * (features/clusters/policy.ts), Admin creates and deletes, Admin and Rukovodilac edit visible ones.
 */
export async function clusterRoutes(fastify: FastifyInstance, ctx: AppContext): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const readers = ctx.auth.requireRoles(rolesFor('clusters', 'myClusters'));
  const editors = ctx.auth.requireRoles(rolesFor('clusterEdit'));
  const adminOnly = ctx.auth.requireRoles(rolesFor('clusterNew'));

  // The page is JSON built in SQL (service.listClustersJson): sent as it comes, never parsed in Node.
  app.get(
    '/api/location',
    { schema: { querystring: pageQuery.extend(sortQuery('clusters')) }, onRequest: readers },
    async (request, reply) => {
      const actor = actorOf(request);
      const q = request.query;
      const build = async (scope?: ClusterScope) => service.locationsPageText(await service.listClustersJson(ctx, actor, q, scope));
      if (q.limit < WHOLE_LIST_LIMIT) return reply.type('application/json; charset=utf-8').send(await build());
      // The pickers' whole list (platform/kept kind 'clusterList'): kept by the caller's scope, the data's
      // versions and the day (the colour); 'visibility' for a contract's groups, which make its clusters
      // seen ('locations' does not move then).
      const scope = await clusterScopeOf(ctx.db, actor);
      const key = ['location', scopeKey(scope), appToday(), q.page, q.limit, q.sort ?? null, q.order ?? null];
      return sendKept(ctx.db, 'clusterList', request, reply, key, () => build(scope), actorVersion('clusterList', actor));
    },
  );

  // GET /api/search/location: features/search/routes.ts (with the per-activity report's `activity`).

  app.get(
    '/api/location/get/autocomplete',
    { schema: { querystring: z.object({ value: z.string().max(200).optional().default('') }) }, onRequest: readers },
    async (request) => ({ locations: await service.autocomplete(ctx, actorOf(request), request.query.value) }),
  );

  app.get('/api/location/:id', { schema: { params: idParam }, onRequest: readers }, async (request) => ({
    location: await service.getCluster(ctx, actorOf(request), request.params.id),
  }));

  app.post('/api/location', { schema: { body: clusterBody }, onRequest: adminOnly }, async (request, reply) => {
    const location = await service.createCluster(ctx, actorOf(request), request.body, requestInfo(request));
    reply.status(201);
    return { message: CLUSTERS.created, location };
  });

  app.patch('/api/location/:id', { schema: { params: idParam, body: clusterBody }, onRequest: editors }, async (request) => ({
    message: CLUSTERS.edited,
    location: await service.editCluster(ctx, actorOf(request), request.params.id, request.body, requestInfo(request)),
  }));

  app.delete('/api/location/:id', { schema: { params: idParam }, onRequest: adminOnly }, async (request) => ({
    message: await service.deleteCluster(ctx, actorOf(request), request.params.id, requestInfo(request)),
  }));
}
