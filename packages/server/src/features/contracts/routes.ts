import { CONTRACTS, contractCreateSchema, idParam, type RoleKey, rolesFor, sortQuery } from '@trasa/domain';
import type { FastifyInstance, FastifyRequest, onRequestAsyncHookHandler, preValidationAsyncHookHandler } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.js';
import { actorOf } from '../../platform/auth.js';
import { contentDisposition } from '../../platform/contentDisposition.js';
import { pagingQuery, searchPagingQuery } from '../../platform/paging.js';
import { readContractForm, uploadMessage } from './form.js';
import { KINDS } from './kinds.js';
import * as service from './service.js';

const message = z.object({ message: z.string() });
const requestInfo = (r: FastifyRequest) => ({ ip: r.ip, url: r.url });
const fileParams = z.object({
  contractId: z.uuid({ error: 'Није пронађено' }),
  fileId: z.uuid({ error: 'Није пронађено' }),
});

/**
 * Contracts of the four kinds (spec 2 §7 "Contracts"; docs/api/clusters-contracts.md), every route
 * generated from the kind's definition in kinds.ts.
 */
/**
 * Spec 3's inventory contracts answer on the general contract's paths (contracts here, links in
 * links/routes.ts). The inventory feature hands in its hooks at app assembly (app.ts passes
 * features/inventory/bridge.ts's inventoryContractPaths), so the contracts never import the inventory.
 */
export type ContractPathsBridge = {
  /** preValidation hooks per path: an inventory request is answered there, any other passes on. */
  hooks(
    ctx: AppContext,
    roles: { readers: readonly RoleKey[]; writers: readonly RoleKey[] },
  ): Record<'list' | 'search' | 'detail' | 'create' | 'upload' | 'remove' | 'link' | 'unlink', preValidationAsyncHookHandler>;
  /** The onRequest gate of a bridged path: the base roles, or an inventory keeper. */
  gate(ctx: AppContext, roles: readonly RoleKey[]): onRequestAsyncHookHandler;
};

export async function contractRoutes(fastify: FastifyInstance, ctx: AppContext, inventory: ContractPathsBridge): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const adminOnly = ctx.auth.requireRoles(['Admin']);
  // Downloads: whoever may see a contract or a cluster (the service checks which).
  const downloaders = ctx.auth.requireRoles(
    rolesFor('contracts', 'contractsIzv', 'contractsPro', 'contractsNad', 'clusters', 'myClusters'),
  );

  for (const def of KINDS) {
    const readers = ctx.auth.requireRoles(def.readers);
    // Spec 3's inventory contracts answer on the general contract's paths (features/inventory/bridge.ts).
    const inv = def.kind === 'contract' ? inventory.hooks(ctx, { readers: def.readers, writers: ['Admin'] }) : null;
    const gate = (base: onRequestAsyncHookHandler, roles: readonly RoleKey[], hook?: preValidationAsyncHookHandler) =>
      inv && hook ? { onRequest: inventory.gate(ctx, roles), preValidation: hook } : { onRequest: base };

    app.get(
      `/api/${def.route}`,
      { schema: { querystring: pagingQuery.extend(sortQuery('contracts')) }, ...gate(readers, def.readers, inv?.list) },
      async (request) => {
        const page = await service.listContracts(ctx, actorOf(request), def, request.query);
        return { [def.listKey]: page.items, totalResults: page.totalResults };
      },
    );

    app.get(
      `/api/search/${def.route}`,
      { schema: { querystring: searchPagingQuery.extend(sortQuery('contracts')) }, ...gate(readers, def.readers, inv?.search) },
      async (request) => {
        const page = await service.searchContracts(ctx, actorOf(request), def, request.query);
        return { [def.listKey]: page.items, totalResults: page.totalResults };
      },
    );

    app.get(`/api/${def.route}/:id`, { schema: { params: idParam }, ...gate(readers, def.readers, inv?.detail) }, async (request) => ({
      [def.itemKey]: await service.getContract(ctx, actorOf(request), def, request.params.id),
    }));

    app.post(
      `/api/${def.route}`,
      {
        schema: { body: contractCreateSchema, response: { 201: z.object({ message: z.string(), document: z.string() }) } },
        ...gate(adminOnly, ['Admin'], inv?.create),
      },
      async (request, reply) => {
        const id = await service.createContract(ctx, actorOf(request), def, request.body, requestInfo(request));
        reply.status(201);
        return { message: CONTRACTS.created, document: id };
      },
    );

    // Multipart: edit fields and documents fajl0…fajlN (a JSON body edits without documents).
    app.post(
      `/api/${def.route}/${def.route}/:id`,
      { schema: { params: idParam }, ...gate(adminOnly, ['Admin'], inv?.upload) },
      async (request) => {
        await service.assertEditable(ctx, def, request.params.id);
        const form = await readContractForm(request, ctx.files);
        const contract = await service.saveContractForm(ctx, actorOf(request), def, request.params.id, form, requestInfo(request));
        // The good documents are stored; each refused one is named with its reason. When every document
        // was refused the message says so (the answer keeps its shape: 200 with `odbijeni`).
        return { message: uploadMessage(CONTRACTS.edited, form.fields.size > 0, form), contract, odbijeni: form.refused };
      },
    );

    app.delete(
      `/api/${def.route}/:id`,
      { schema: { params: idParam, response: { 200: message } }, ...gate(adminOnly, ['Admin'], inv?.remove) },
      async (request) => ({
        message: await service.deleteContract(ctx, actorOf(request), def, request.params.id, requestInfo(request)),
      }),
    );

    app.get(
      `/api/files/${def.route}/:contractId/:fileId`,
      { schema: { params: fileParams }, onRequest: downloaders },
      async (request, reply) => {
        const file = await service.openDocument(ctx, actorOf(request), def, request.params.contractId, request.params.fileId);
        return reply
          .header('content-type', file.mimetype)
          .header('content-length', file.size)
          .header('content-disposition', contentDisposition(file.originalnoIme))
          .header('x-content-type-options', 'nosniff')
          .header('cache-control', 'private, no-store')
          .send(file.stream);
      },
    );

    app.delete(
      `/api/files/${def.route}/:contractId/:fileId`,
      { schema: { params: fileParams, response: { 200: message } }, onRequest: adminOnly },
      async (request) => ({
        message: await service.deleteDocument(
          ctx,
          actorOf(request),
          def,
          request.params.contractId,
          request.params.fileId,
          requestInfo(request),
        ),
      }),
    );
  }
}
