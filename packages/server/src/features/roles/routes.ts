import { addRoleSchema, idParam, roleSchema, rolesFor, sortQuery, USERS } from '@trasa/domain';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.js';
import { actorOf } from '../../platform/auth.js';
import { pagingQuery } from '../../platform/paging.js';
import * as service from './service.js';

const requestInfo = (r: FastifyRequest) => ({ ip: r.ip, url: r.url });

/**
 * Roles (spec 1 §2.9, §7): the list, detail and edit for Admin and Rukovodilac (routes /app/role and
 * /app/izmeni-rolu/:id), create for Admin (/app/nova-rola). A Rukovodilac never reaches an Admin-based role.
 */
export async function roleRoutes(fastify: FastifyInstance, ctx: AppContext): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const readers = ctx.auth.requireRoles(rolesFor('roles', 'roleEdit'));
  const editors = ctx.auth.requireRoles(rolesFor('roleEdit'));
  const creators = ctx.auth.requireRoles(rolesFor('roleNew'));
  const assigners = ctx.auth.requireRoles(rolesFor('usersByRole', 'groupMembers'));

  app.get('/api/role', { schema: { querystring: pagingQuery.extend(sortQuery('roles')) }, onRequest: readers }, async (request) =>
    service.listRoles(ctx, actorOf(request), request.query),
  );

  app.get('/api/role/:id', { schema: { params: idParam }, onRequest: readers }, async (request) => ({
    role: await service.getRole(ctx, actorOf(request), request.params.id),
  }));

  app.post('/api/role', { schema: { body: roleSchema }, onRequest: creators }, async (request, reply) => {
    const role = await service.createRole(ctx, actorOf(request), request.body, requestInfo(request));
    reply.status(201);
    return { role, message: USERS.roleSaved };
  });

  app.patch('/api/role/:id', { schema: { params: idParam, body: roleSchema }, onRequest: editors }, async (request) => ({
    role: await service.editRole(ctx, actorOf(request), request.params.id, request.body, requestInfo(request)),
    message: USERS.roleSaved,
  }));

  app.post('/api/role/add-role', { schema: { body: addRoleSchema }, onRequest: assigners }, async (request) => ({
    message: await service.addRole(ctx, actorOf(request), request.body, requestInfo(request)),
  }));
}
