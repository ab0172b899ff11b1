import { ACTIVITIES, rolesFor } from '@trasa/domain';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.js';
import { actorOf } from '../../platform/auth.js';
import { idempotencyHeaders } from '../../platform/idempotency.js';
import { onceForActivity, stateField } from '../activities/routes.js';
import { commentActivity } from './service.js';

/** Comment length cap (the spec gives none; a long remark fits, a pasted document does not). */
export const COMMENT_MAX = 5000;

export const commentBody = z.object(
  {
    komentar: z
      .string({ error: ACTIVITIES.commentRequired })
      .max(COMMENT_MAX, { error: ACTIVITIES.commentTooLong })
      .refine((s) => s.trim().length > 0, { error: ACTIVITIES.commentEmpty }),
    /** The state the comment was written on (optional; a stale one: 409 with the reason). */
    stanje: stateField,
  },
  { error: ACTIVITIES.commentRequired },
);

/** Comments on activities (spec 3 §7 "Comments"): for now POST /api/comment/:id. */
export async function commentRoutes(fastify: FastifyInstance, ctx: AppContext): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const readers = ctx.auth.requireRoles(rolesFor('activity'));

  app.post(
    '/api/comment/:id',
    {
      schema: { params: z.object({ id: z.string().max(100) }), body: commentBody, headers: idempotencyHeaders },
      onRequest: readers,
    },
    async (request, reply) => {
      const actor = actorOf(request);
      // A repeat of a comment sent with an Idempotency-Key gets the first answer; nothing is written again.
      return onceForActivity(ctx, request, reply, actor, request.params.id, async () => {
        const komentar = await commentActivity(
          ctx.db,
          actor,
          request.params.id,
          request.body.komentar,
          { ip: request.ip, url: request.url },
          request.body.stanje,
        );
        reply.status(201);
        return { message: ACTIVITIES.commentSent, komentar };
      });
    },
  );
}
