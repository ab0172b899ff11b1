import { pageQuery, rolesFor } from '@trasa/domain';
import { count, desc } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.js';
import { mailOutbox } from '../../db/schema.js';

/**
 * The outbox (server-behaviour.md "Mail"): every mail with its outcome; with no SMTP server in use it
 * is where an Admin reads activation and reset links. Same audience as the mail-server screen.
 */
export async function mailRoutes(fastify: FastifyInstance, ctx: AppContext): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.get(
    '/api/smtp/outbox',
    { schema: { querystring: pageQuery }, onRequest: ctx.auth.requireRoles(rolesFor('smtpList')) },
    async (request) => {
      const { page, limit } = request.query;
      const rows = await ctx.db
        .select()
        .from(mailOutbox)
        .orderBy(desc(mailOutbox.createdAt))
        .limit(limit)
        .offset((page - 1) * limit);
      const [total] = await ctx.db.select({ n: count() }).from(mailOutbox);
      return {
        outbox: rows.map((m) => ({
          _id: m.id,
          to: m.to,
          subject: m.subject,
          text: m.text,
          status: m.status,
          error: m.error,
          createdAt: m.createdAt,
        })),
        totalResults: total?.n ?? 0,
      };
    },
  );
}
