import {
  idParam,
  pageQuery,
  rolesFor,
  sortQuery,
  TOPIC_PRIORITIES,
  TOPIC_STATUSES,
  TOPICS,
  topicCommentSchema,
  topicCreateSchema,
  topicEditSchema,
  USERS,
} from '@trasa/domain';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.js';
import { actorOf } from '../../platform/auth.js';
import { badRequest, parseOrBadRequest } from '../../platform/errors.js';
import * as service from './service.js';

const requestInfo = (r: FastifyRequest) => ({ ip: r.ip, url: r.url });

const listQuery = pageQuery.extend({
  q: z.string().max(200).optional().default(''),
  qAlt: z.string().max(200).optional().default(''),
  status: z
    .enum(['', ...TOPIC_STATUSES], { error: USERS.invalidOption })
    .optional()
    .default(''),
  prioritet: z
    .enum(['', ...TOPIC_PRIORITIES], { error: USERS.invalidOption })
    .optional()
    .default(''),
  ...sortQuery('topics'),
});

/** The edit branch of topicEditSchema (the other one closes). */
const editBody = topicEditSchema.options[1];
const closeBody = topicEditSchema.options[0];

/**
 * PATCH takes either `{ status: 'zatvoren' }` or an edit; it is told apart by `status`, so each gets its
 * own field messages and a stray status (reopening) is refused rather than silently dropped.
 */
const patchBody = z.record(z.string(), z.unknown(), { error: USERS.invalidOption });

/** Open issues (spec 2 §7 "Topics"): topics follow the visibility of their cluster (policy.ts). */
export async function topicRoutes(fastify: FastifyInstance, ctx: AppContext): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const staff = ctx.auth.requireRoles(rolesFor('topics'));

  app.get('/api/topic', { schema: { querystring: listQuery }, onRequest: staff }, async (request) =>
    service.listTopics(ctx, actorOf(request), request.query),
  );

  app.get(
    '/api/topic/grupe',
    { schema: { querystring: z.object({ locationId: z.string().max(100) }) }, onRequest: staff },
    async (request) => service.answeringGroups(ctx, actorOf(request), request.query.locationId),
  );

  app.get('/api/topic/:id', { schema: { params: idParam }, onRequest: staff }, async (request) =>
    service.getTopic(ctx, actorOf(request), request.params.id),
  );

  app.post('/api/topic', { schema: { body: topicCreateSchema }, onRequest: staff }, async (request, reply) => {
    const data = await service.createTopic(ctx, actorOf(request), request.body, requestInfo(request));
    reply.status(201);
    return { data, message: TOPICS.created };
  });

  app.patch('/api/topic/:id', { schema: { params: idParam, body: patchBody }, onRequest: staff }, async (request) => {
    const actor = actorOf(request);
    if ('status' in request.body) {
      if (request.body.status !== 'zatvoren') throw badRequest(TOPICS.cannotReopen, { status: TOPICS.cannotReopen });
      parseOrBadRequest(closeBody, request.body);
      return { data: await service.closeTopic(ctx, actor, request.params.id, requestInfo(request)), message: TOPICS.closed };
    }
    const input = parseOrBadRequest(editBody, request.body);
    return {
      data: await service.editTopic(ctx, actor, request.params.id, input, requestInfo(request)),
      message: TOPICS.edited,
    };
  });

  app.delete('/api/topic/:id', { schema: { params: idParam }, onRequest: staff }, async (request) => ({
    message: await service.deleteTopic(ctx, actorOf(request), request.params.id, requestInfo(request)),
  }));

  app.post('/api/topic/:id/komentar', { schema: { params: idParam, body: topicCommentSchema }, onRequest: staff }, async (request) => ({
    data: await service.commentTopic(ctx, actorOf(request), request.params.id, request.body, requestInfo(request)),
  }));
}
