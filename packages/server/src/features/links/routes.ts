import { COMMON, linkLocationsSchema, rolesFor, unlinkLocationSchema } from '@trasa/domain';
import type { FastifyInstance, FastifyRequest, preValidationAsyncHookHandler } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.js';
import { actorOf } from '../../platform/auth.js';
import { KINDS } from '../contracts/kinds.js';
import type { ContractPathsBridge } from '../contracts/routes.js';
import * as service from './service.js';

const message = z.object({ message: z.string() });
const requestInfo = (r: FastifyRequest) => ({ ip: r.ip, url: r.url });
const uuid = z.uuid({ error: COMMON.notFound });

/**
 * Linking clusters and contracts (spec 2 §7 "Linking"), the documents of a cluster's contracts, and
 * the linking screens' cluster picker. The general contract's calls name the id :contractId, the
 * typed ones :id (docs/api/clusters-contracts.md).
 */
export async function linkRoutes(fastify: FastifyInstance, ctx: AppContext, inventory: ContractPathsBridge): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const linkers = ctx.auth.requireRoles(rolesFor('contractLinkClusters', 'clusterLinkContract'));
  // Who can see clusters at all; the service checks this cluster.
  const clusterReaders = ctx.auth.requireRoles(rolesFor('clusters', 'myClusters'));
  const linkerRoles = rolesFor('contractLinkClusters', 'clusterLinkContract');

  for (const def of KINDS) {
    const param = def.kind === 'contract' ? 'contractId' : 'id';
    const params = z.object({ [param]: uuid }) as z.ZodObject<Record<string, typeof uuid>>;
    const idOf = (p: Record<string, string>) => p[param] as string;
    // Spec 3's inventory contracts are linked on the general contract's paths (features/inventory/bridge.ts).
    const inv = def.kind === 'contract' ? inventory.hooks(ctx, { readers: linkerRoles, writers: linkerRoles }) : null;
    const gate = (hook?: preValidationAsyncHookHandler) =>
      inv && hook ? { onRequest: inventory.gate(ctx, linkerRoles), preValidation: hook } : { onRequest: linkers };

    app.patch(
      `/api/link/location-to-${def.route}/:${param}`,
      { schema: { params, body: linkLocationsSchema, response: { 200: message } }, ...gate(inv?.link) },
      async (request) => ({
        message: await service.linkLocations(ctx, actorOf(request), def, idOf(request.params), request.body.lokacije, requestInfo(request)),
      }),
    );

    app.patch(
      `/api/link/unlink${def.suffix}/:${param}`,
      { schema: { params, body: unlinkLocationSchema, response: { 200: message } }, ...gate(inv?.unlink) },
      async (request) => ({
        message: await service.unlinkLocation(
          ctx,
          actorOf(request),
          def,
          idOf(request.params),
          request.body.lokacija,
          requestInfo(request),
        ),
      }),
    );

    app.get(
      `/api/link/documents${def.suffix}/location`,
      { schema: { querystring: z.object({ locationId: uuid }) }, onRequest: clusterReaders },
      async (request) => service.documentsOfLocation(ctx, actorOf(request), def, request.query.locationId),
    );
  }

  app.get(
    '/api/link/get/autocomplete/locations',
    // Spec 2's linking screens (Admin) and spec 3 §7's inventory contracts (the inventory keepers).
    {
      schema: { querystring: z.object({ value: z.string().max(200).optional().default('') }) },
      onRequest: inventory.gate(ctx, linkerRoles),
    },
    async (request) => service.autocompleteLocations(ctx, actorOf(request), request.query.value),
  );
}
