import {
  a13StatusSchema,
  COMMON,
  IMPORTS,
  type ImportResponse,
  INVENTORY,
  idParam,
  inventoryItemEditSchema,
  inventoryItemSchema,
  inventoryListQuery,
  invTypeQuery,
  invTypeSchema,
  pageQuery,
  SUM_SORTS,
  schoolEmailSchema,
  schoolNotificationSchema,
  schoolTokenSchema,
  searchQuery,
  sortQuery,
} from '@trasa/domain';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.js';
import { actorOf } from '../../platform/auth.js';
import { contentDisposition } from '../../platform/contentDisposition.js';
import { AppError } from '../../platform/errors.js';
import { scopeKey, sendKept } from '../../platform/kept/answers.js';
import { actorVersion } from '../../platform/kept/store.js';
import { scriptOf } from '../../platform/script.js';
import { activityFileStore } from '../../shared/activityFileStore.js';
import { clusterScopeOf } from '../clusters/policy.js';
import { zipStream } from '../files/zip.js';
import { receiveSheet, withSheet } from '../imports/upload.js';
import * as a13 from './a13.js';
import { inventoryOnly, requestInfo } from './access.js';
import * as codebook from './codebook.js';
import * as contracts from './contracts.js';
import { INVENTORY_ROW_LIMIT, importInventory, inventoryTemplate } from './importer.js';
import * as items from './items.js';
import * as reports from './reports.js';
import * as schools from './schools.js';

const message = z.object({ message: z.string() });
const uuid = z.uuid({ error: COMMON.notFound });
const fileParams = z.object({ contractId: uuid, fileId: uuid });
const importQuery = z.object({ lokacija: uuid, ugovor: uuid.optional() });
const sumParams = z.object({ sort: z.enum(SUM_SORTS, { error: COMMON.notFound }) });
/** The query `sort` (a column, LIST_SORTS.inventorySum) orders over the path's naziv|datum when given. */
const sumQuery = pageQuery.extend({ ...sortQuery('inventorySum'), ...reports.sumFilterQuery });
const stocktakingQuery = z.object({ naziv: z.string({ error: INVENTORY.chooseLocation }).max(200).default('') });
const a13ZipQuery = z.object({
  aktId: z
    .union([uuid, z.literal('')])
    .optional()
    .transform((v) => v || undefined),
  lokId: uuid,
});

/** Both spellings spec 3 §7 uses for the A13 paths: '/api/A13…' and '/api/a13…'. */
const bothCases = (path: string): string[] => [...new Set([path.replace('/api/a13', '/api/A13'), path.replace('/api/A13', '/api/a13')])];

/**
 * Inventory (spec 3 §2.10, §7; docs/api/inventory.md). Every route: the Admin and a Zaposleni of a
 * Naručilac group (inventoryOnly); the public stocktaking-list calls need no sign-in. Inventory contracts
 * also answer on spec 2's contract paths (contracts/routes.ts, links/routes.ts call bridge.ts).
 */
export async function inventoryRoutes(fastify: FastifyInstance, ctx: AppContext): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const keepers = inventoryOnly(ctx);

  // Inventory contracts: the detail and the delete on their own path (the list, create, documents and
  // linking are on spec 2's paths: bridge.ts).
  app.get('/api/inventory-contract/:id', { schema: { params: idParam }, onRequest: keepers }, async (request) =>
    contracts.getContract(ctx, actorOf(request), request.params.id),
  );
  app.delete(
    '/api/inventory-contract/:id',
    { schema: { params: idParam, response: { 200: message } }, onRequest: keepers },
    async (request) => ({ message: await contracts.deleteContract(ctx, actorOf(request), request.params.id, requestInfo(request)) }),
  );
  app.get(
    '/api/files/inventory-contract/:contractId/:fileId',
    { schema: { params: fileParams }, onRequest: keepers },
    async (request, reply) => {
      const file = await contracts.openDocument(ctx, actorOf(request), request.params.contractId, request.params.fileId);
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
    '/api/files/inventory-contract/:contractId/:fileId',
    { schema: { params: fileParams, response: { 200: message } }, onRequest: keepers },
    async (request) => ({
      message: await contracts.deleteDocument(
        ctx,
        actorOf(request),
        request.params.contractId,
        request.params.fileId,
        requestInfo(request),
      ),
    }),
  );

  // The location's inventory screen: the school's e-mail.
  app.get('/api/inventory/location/:id', { schema: { params: idParam }, onRequest: keepers }, async (request) => ({
    location: await items.getLocation(ctx, actorOf(request), request.params.id),
  }));
  app.patch('/api/inventory/location/:id', { schema: { params: idParam, body: schoolEmailSchema }, onRequest: keepers }, async (request) =>
    items.setSchoolEmail(ctx, actorOf(request), request.params.id, request.body.email, requestInfo(request)),
  );

  // The codebook.
  app.get('/api/inv-type', { schema: { querystring: invTypeQuery.extend(sortQuery('invTypes')) }, onRequest: keepers }, async (request) =>
    codebook.listTypes(ctx, actorOf(request), request.query.tip, request.query),
  );
  app.post('/api/inv-type', { schema: { body: invTypeSchema }, onRequest: keepers }, async (request, reply) => {
    const invType = await codebook.createType(ctx, actorOf(request), request.body, requestInfo(request));
    reply.status(201);
    return { message: INVENTORY.typeCreated, invType };
  });
  app.patch('/api/inv-type/:id', { schema: { params: idParam, body: invTypeSchema }, onRequest: keepers }, async (request) => ({
    message: INVENTORY.typeEdited,
    invType: await codebook.editType(ctx, actorOf(request), request.params.id, request.body, requestInfo(request)),
  }));
  app.delete('/api/inv-type/:id', { schema: { params: idParam, response: { 200: message } }, onRequest: keepers }, async (request) => ({
    message: await codebook.deleteType(ctx, actorOf(request), request.params.id, requestInfo(request)),
  }));

  // Items.
  app.get(
    '/api/inventory',
    { schema: { querystring: inventoryListQuery.extend(sortQuery('inventoryItems')) }, onRequest: keepers },
    async (request) => items.listItems(ctx, actorOf(request), request.query),
  );
  app.post('/api/inventory', { schema: { body: inventoryItemSchema }, onRequest: keepers }, async (request, reply) => {
    const item = await items.createItem(ctx, actorOf(request), request.body, requestInfo(request));
    reply.status(201);
    return { message: INVENTORY.itemCreated, item };
  });
  app.patch('/api/inventory/:id', { schema: { params: idParam, body: inventoryItemEditSchema }, onRequest: keepers }, async (request) => ({
    message: INVENTORY.itemEdited,
    item: await items.editItem(ctx, actorOf(request), request.params.id, request.body, requestInfo(request)),
  }));
  app.delete('/api/inventory/:id', { schema: { params: idParam, response: { 200: message } }, onRequest: keepers }, async (request) => ({
    message: await items.deleteItem(ctx, actorOf(request), request.params.id, requestInfo(request)),
  }));
  app.post('/api/inventory/import', { schema: { querystring: importQuery }, onRequest: keepers }, async (request) => {
    const actor = actorOf(request);
    // The location first (404 before the file is read).
    await items.getLocation(ctx, actor, request.query.lokacija);
    let sheet: Awaited<ReturnType<typeof receiveSheet>>;
    try {
      sheet = await receiveSheet(request, ctx.config.dataDir, INVENTORY_ROW_LIMIT);
    } catch (err) {
      // Spec 3 §5 words the inventory import's size limit in its own text.
      if (err instanceof AppError && err.statusCode === 413) throw new AppError(413, INVENTORY.importTooLarge);
      throw err;
    }
    try {
      const document = await withSheet(sheet, (s) => importInventory(ctx, actor, s, request.query, requestInfo(request)));
      return { message: IMPORTS.success, document } satisfies ImportResponse;
    } finally {
      await sheet.dispose();
    }
  });
  app.get('/api/inventory/download-template', { onRequest: keepers }, async (_request, reply) =>
    reply
      .header('content-type', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
      .header('content-disposition', contentDisposition(INVENTORY.importTemplateName))
      .header('cache-control', 'no-store')
      .send(await inventoryTemplate(ctx)),
  );

  // Reports.
  app.get(
    '/api/inventory-reports/sve',
    { schema: { querystring: searchQuery.extend(sortQuery('inventoryItems')) }, onRequest: keepers },
    async (request) => reports.allInventory(ctx, actorOf(request), request.query),
  );
  app.get(
    '/api/inventory-reports/sumarno/:sort',
    { schema: { params: sumParams, querystring: sumQuery }, onRequest: keepers },
    async (request) => reports.sumPerType(ctx, actorOf(request), request.params.sort, request.query),
  );
  app.get(
    '/api/inventory-reports/inventar-po-lokaciji',
    { schema: { querystring: searchQuery.extend(sortQuery('inventoryPerLocation')) }, onRequest: keepers },
    async (request) => reports.perLocation(ctx, actorOf(request), request.query),
  );
  app.get('/api/inventory-reports/popisna-lista', { schema: { querystring: stocktakingQuery }, onRequest: keepers }, async (request) =>
    reports.stocktakingList(ctx, actorOf(request), request.query.naziv),
  );

  // School notifications.
  app.post(
    '/api/school-notification/:id',
    { schema: { params: idParam, body: schoolNotificationSchema }, onRequest: keepers },
    async (request, reply) => {
      const result = await schools.sendList(
        ctx,
        actorOf(request),
        request.params.id,
        request.body.email,
        requestInfo(request),
        scriptOf(request),
      );
      reply.status(201);
      return result;
    },
  );
  app.get(
    '/api/school-notification',
    { schema: { querystring: searchQuery.extend(sortQuery('schoolNotifications')) }, onRequest: keepers },
    async (request) => schools.listNotifications(ctx, actorOf(request), request.query),
  );

  // The school's public page: no sign-in, a few calls per minute from one address.
  const publicLimit = { rateLimit: { max: 30, timeWindow: '1 minute' } };
  app.get('/api/public/popisna-lista', { schema: { querystring: schoolTokenSchema }, config: publicLimit }, async (request) =>
    schools.publicList(ctx, request.query.token),
  );
  app.post(
    '/api/public/popisna-lista/potvrdi',
    { schema: { body: schoolTokenSchema, response: { 200: message } }, config: publicLimit },
    async (request) => schools.confirmList(ctx, request.body.token, requestInfo(request)),
  );

  // A13: each path in the spelling spec 3 §7 writes and in the other case.
  for (const url of bothCases('/api/A13')) {
    app.get(url, { schema: { querystring: searchQuery.extend(sortQuery('a13')) }, onRequest: keepers }, async (request) =>
      a13.listA13(ctx, actorOf(request), request.query),
    );
  }
  for (const url of bothCases('/api/A13/:id')) {
    app.patch(url, { schema: { params: idParam, body: a13StatusSchema }, onRequest: keepers }, async (request) =>
      a13.setA13(ctx, actorOf(request), request.params.id, request.body.status, requestInfo(request)),
    );
  }
  for (const url of bothCases('/api/a13/get-all')) {
    app.get(url, { onRequest: keepers }, async (request, reply) => {
      const actor = actorOf(request);
      // The whole list (3,000 clusters: 420 KB): kept by the caller's scope and the data's versions
      // (platform/kept kind 'a13List').
      const scope = await clusterScopeOf(ctx.db, actor);
      const build = async () => JSON.stringify(await a13.allA13(ctx, actor, scope));
      return sendKept(ctx.db, 'a13List', request, reply, ['a13', scopeKey(scope)], build, actorVersion('a13List', actor));
    });
  }
  for (const url of bothCases('/api/A13/get/stats')) {
    app.get(url, { onRequest: keepers }, async (request) => a13.statsA13(ctx, actorOf(request)));
  }
  const store = activityFileStore(ctx.config.dataDir);
  for (const url of bothCases('/api/a13/download-files')) {
    app.get(url, { schema: { querystring: a13ZipQuery }, onRequest: keepers }, async (request, reply) => {
      const plan = await a13.planA13Zip(ctx, actorOf(request), request.query.aktId, request.query.lokId);
      const archive = zipStream(store, plan.entries);
      reply.raw.on('close', () => {
        if (!reply.raw.writableFinished) archive.abort();
      });
      return reply
        .header('content-type', 'application/zip')
        .header('content-disposition', contentDisposition(plan.fileName))
        .header('x-content-type-options', 'nosniff')
        .header('cache-control', 'private, no-store')
        .send(archive);
    });
  }
}
