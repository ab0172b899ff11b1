import { COMMON, createUserSchema, editUserSchema, idParam, rolesFor, sortQuery, USERS } from '@trasa/domain';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.js';
import { actorOf } from '../../platform/auth.js';
import { pagingQuery } from '../../platform/paging.js';
import * as service from './service.js';

const message = z.object({ message: z.string() });
const requestInfo = (r: FastifyRequest) => ({ ip: r.ip, url: r.url });
/** The users lists' answers are JSON text built by PostgreSQL (service.usersPageJson), sent as it is. */
export const sendJson = (reply: FastifyReply, text: string) => reply.type('application/json; charset=utf-8').send(text);
/** An optional id filter: '' means none; anything else must be a uuid. */
const optionalId = z.union([z.uuid({ error: COMMON.notFound }), z.literal('')]).optional();

/** Users and guests (spec 1 §2.6, §2.7, §7), for Admin and Rukovodilac within their scope. */
export async function userRoutes(fastify: FastifyInstance, ctx: AppContext): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const managers = ctx.auth.requireRoles(rolesFor('users'));

  app.get(
    '/api/user',
    { schema: { querystring: pagingQuery.extend({ groupId: optionalId, ...sortQuery('users') }) }, onRequest: managers },
    async (request, reply) =>
      sendJson(reply, await service.listUsers(ctx, actorOf(request), { ...request.query, groupId: request.query.groupId || undefined })),
  );

  app.get(
    '/api/user/users-per-role',
    {
      schema: { querystring: pagingQuery.extend({ roleId: z.uuid({ error: USERS.chooseOption }), ...sortQuery('users') }) },
      onRequest: managers,
    },
    async (request, reply) => sendJson(reply, await service.usersPerRole(ctx, actorOf(request), request.query)),
  );

  app.get(
    '/api/user/guests',
    { schema: { querystring: pagingQuery.extend(sortQuery('users')) }, onRequest: managers },
    async (request, reply) => sendJson(reply, await service.listGuests(ctx, request.query)),
  );

  app.get('/api/user/single/:id', { schema: { params: idParam }, onRequest: managers }, async (request) =>
    service.getUser(ctx, actorOf(request), request.params.id),
  );

  // Also answers POST /api/user/ (the spec's path): the app ignores trailing slashes.
  app.post('/api/user', { schema: { body: createUserSchema, response: { 201: message } }, onRequest: managers }, async (request, reply) => {
    const text = await service.createUser(ctx, actorOf(request), request.body, requestInfo(request));
    reply.status(201);
    return { message: text };
  });

  app.patch(
    '/api/user/single/:id',
    { schema: { params: idParam, body: editUserSchema, response: { 200: message } }, onRequest: managers },
    async (request) => ({
      message: await service.editUser(ctx, actorOf(request), request.params.id, request.body, requestInfo(request)),
    }),
  );

  app.delete('/api/user/single/:id', { schema: { params: idParam, response: { 200: message } }, onRequest: managers }, async (request) => ({
    message: await service.deleteUser(ctx, actorOf(request), request.params.id, requestInfo(request)),
  }));
}
