import { CODEBOOKS, idParam, prioritySchema, rolesFor } from '@trasa/domain';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.js';
import { actorOf } from '../../platform/auth.js';
import * as service from './service.js';

const requestInfo = (r: FastifyRequest) => ({ ip: r.ip, url: r.url });

/**
 * prioritySchema coerces `broj`, so a blank or null one would pass as 0; the codebook requires it
 * ('Morate upisati Broj.'): only a number or a non-blank text goes on to the domain's rule.
 */
const brojGiven = z
  .union([z.number(), z.string().trim().min(1, { error: CODEBOOKS.priorityBrojRequired })], { error: CODEBOOKS.priorityBrojRequired })
  .pipe(prioritySchema.shape.broj as unknown as z.ZodType<number, string | number>);
const priorityBody = prioritySchema.extend({ broj: brojGiven });

/** Priorities, a codebook (spec 2 §5, §7). Admin maintains them; the topic screens' roles read them. */
export async function priorityRoutes(fastify: FastifyInstance, ctx: AppContext): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const readers = ctx.auth.requireRoles(rolesFor('codebooks', 'topics'));
  const adminOnly = ctx.auth.requireRoles(rolesFor('codebooks'));

  app.get('/api/priority', { onRequest: readers }, async () => ({ priorities: await service.listPriorities(ctx) }));

  app.post('/api/priority', { schema: { body: priorityBody }, onRequest: adminOnly }, async (request, reply) => {
    const priority = await service.createPriority(ctx, actorOf(request), request.body, requestInfo(request));
    reply.status(201);
    return { message: service.PRIORITY_TEXTS.created, priority };
  });

  app.patch('/api/priority/:id', { schema: { params: idParam, body: priorityBody }, onRequest: adminOnly }, async (request) => ({
    message: service.PRIORITY_TEXTS.edited,
    priority: await service.editPriority(ctx, actorOf(request), request.params.id, request.body, requestInfo(request)),
  }));

  app.delete('/api/priority/:id', { schema: { params: idParam }, onRequest: adminOnly }, async (request) => ({
    message: await service.deletePriority(ctx, actorOf(request), request.params.id, requestInfo(request)),
  }));
}
