import { idParam, MAX_LIMIT, pageQuery, rolesFor, searchQuery, settlementSchema, sortQuery } from '@trasa/domain';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.js';
import { actorOf } from '../../platform/auth.js';
import * as service from './service.js';

const requestInfo = (r: FastifyRequest) => ({ ip: r.ip, url: r.url });

/** Without `limit` the settlement lists answer all of them (up to 50000): the cluster forms pick from the whole list. */
const allByDefault = pageQuery.shape.limit.unwrap().default(MAX_LIMIT);
const listQuery = pageQuery.extend({ limit: allByDefault, ...sortQuery('settlements') });
const searchListQuery = searchQuery.extend({ limit: allByDefault, ...sortQuery('settlements') });

/**
 * Settlements, a codebook (spec 2 §5, §7; docs/api/clusters-contracts.md). Admin maintains them on
 * /app/sifrarnici; Admin, Rukovodilac and Zaposleni read them: the cluster forms pick settlements, and the
 * activity screen reads them (spec 3 §7 lists GET /api/naselje among the activity calls); they are
 * reference data, the same for every reader.
 */
export async function settlementRoutes(fastify: FastifyInstance, ctx: AppContext): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const readers = ctx.auth.requireRoles(rolesFor('codebooks', 'clusterEdit', 'activity'));
  const adminOnly = ctx.auth.requireRoles(rolesFor('codebooks'));

  app.get('/api/naselje', { schema: { querystring: listQuery }, onRequest: readers }, async (request) =>
    service.listSettlements(ctx, request.query),
  );

  app.get('/api/search/naselje', { schema: { querystring: searchListQuery }, onRequest: readers }, async (request) =>
    service.searchSettlements(ctx, request.query),
  );

  app.post('/api/naselje', { schema: { body: settlementSchema }, onRequest: adminOnly }, async (request, reply) => {
    const naselje = await service.createSettlement(ctx, actorOf(request), request.body, requestInfo(request));
    reply.status(201);
    return { message: service.SETTLEMENT_TEXTS.saved, naselje };
  });

  app.patch('/api/naselje/:id', { schema: { params: idParam, body: settlementSchema }, onRequest: adminOnly }, async (request) => ({
    message: service.SETTLEMENT_TEXTS.saved,
    naselje: await service.editSettlement(ctx, actorOf(request), request.params.id, request.body, requestInfo(request)),
  }));

  app.delete('/api/naselje/:id', { schema: { params: idParam }, onRequest: adminOnly }, async (request) => ({
    message: await service.deleteSettlement(ctx, actorOf(request), request.params.id, requestInfo(request)),
  }));
}
