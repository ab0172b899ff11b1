import { COMMON, createGroupSchema, editGroupSchema, idParam, rolesFor, sortQuery } from '@trasa/domain';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.js';
import { actorOf } from '../../platform/auth.js';
import { sendKept, WHOLE_LIST_LIMIT } from '../../platform/kept/answers.js';
import { actorVersion } from '../../platform/kept/store.js';
import { pagingQuery } from '../../platform/paging.js';
import { scopeKeyOf, scopeOf } from './policy.js';
import * as service from './service.js';

const message = z.object({ message: z.string() });
const requestInfo = (r: FastifyRequest) => ({ ip: r.ip, url: r.url });

/**
 * Groups (spec 1 §2.8, §7). Admin and Rukovodilac read (a Rukovodilac their subtree) and manage
 * membership; only Admin creates, edits and deletes (spec 1 §6).
 */
export async function groupRoutes(fastify: FastifyInstance, ctx: AppContext): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const managers = ctx.auth.requireRoles(rolesFor('groups', 'groupMembers'));
  const adminOnly = ctx.auth.requireRoles(['Admin']);
  // Whole lists (limit ≥ WHOLE_LIST_LIMIT) kept by data version: platform/kept kind 'groupList'.

  // The answer is JSON text built by PostgreSQL (service.groupsPageJson), sent as it is.
  app.get(
    '/api/group',
    { schema: { querystring: pagingQuery.extend(sortQuery('groups')) }, onRequest: managers },
    async (request, reply) => {
      const actor = actorOf(request);
      const q = request.query;
      if (q.limit < WHOLE_LIST_LIMIT) return reply.type('application/json; charset=utf-8').send(await service.listGroups(ctx, actor, q));
      // The pickers' whole list (limit=50000): kept by what decides the caller's scope (scopeKeyOf: the
      // scope itself is read only to build it) and the groups' version read with the user.
      const key = ['group', scopeKeyOf(actor), q.page, q.limit, q.sort ?? null, q.order ?? null];
      const build = async () => service.listGroups(ctx, actor, q, await scopeOf(ctx.db, actor));
      return sendKept(ctx.db, 'groupList', request, reply, key, build, actorVersion('groupList', actor));
    },
  );

  // The reports hub reads the sees-everything choices (spec 3 §7), so its Zaposleni may call them too: each
  // caller gets the groups within their own view (scopeOf: a Zaposleni's own group).
  const reportReaders = ctx.auth.requireRoles(rolesFor('groups', 'groupMembers', 'reports'));
  for (const flag of [true, false]) {
    // JSON text built by PostgreSQL (groupsPageJson's rows), kept by the scope and the groups' version as
    // the whole list is: a choice of every group (the Admin's 1,000) was 440 KB of detail objects built in Node.
    app.get(`/api/group/sve-videci/${flag}`, { onRequest: reportReaders }, async (request, reply) => {
      const actor = actorOf(request);
      const key = ['group-sve-videci', flag, scopeKeyOf(actor)];
      const build = async () => service.groupsBySveVideci(ctx, await scopeOf(ctx.db, actor), flag);
      return sendKept(ctx.db, 'groupList', request, reply, key, build, actorVersion('groupList', actor));
    });
  }

  app.get('/api/group/:id', { schema: { params: idParam }, onRequest: managers }, async (request) => ({
    group: await service.getGroup(ctx, actorOf(request), request.params.id),
  }));

  app.post(
    '/api/group/create',
    { schema: { body: createGroupSchema, response: { 201: message } }, onRequest: adminOnly },
    async (request, reply) => {
      const text = await service.createGroup(ctx, actorOf(request), request.body, requestInfo(request));
      reply.status(201);
      return { message: text };
    },
  );

  app.patch(
    '/api/group/remove-user',
    {
      schema: { querystring: z.object({ userId: z.uuid({ error: COMMON.notFound }) }), response: { 200: message } },
      onRequest: managers,
    },
    async (request) => ({ message: await service.removeUser(ctx, actorOf(request), request.query.userId, requestInfo(request)) }),
  );

  app.patch(
    '/api/group/:id',
    { schema: { params: idParam, body: editGroupSchema, response: { 200: message } }, onRequest: adminOnly },
    async (request) => ({ message: await service.editGroup(ctx, actorOf(request), request.params.id, request.body, requestInfo(request)) }),
  );

  app.delete('/api/group/:id', { schema: { params: idParam, response: { 200: message } }, onRequest: adminOnly }, async (request) => ({
    message: await service.deleteGroup(ctx, actorOf(request), request.params.id, requestInfo(request)),
  }));
}
