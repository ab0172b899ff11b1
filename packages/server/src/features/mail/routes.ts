import {
  idParam,
  MAIL_STATUSES,
  pageQuery,
  rolesFor,
  SMTP,
  smtpCreateSchema,
  smtpEditSchema,
  smtpTestSchema,
  sortQuery,
  USERS,
} from '@trasa/domain';
import { count, desc, eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.js';
import { mailOutbox } from '../../db/schema.js';
import { actorOf } from '../../platform/auth.js';
import { scriptOf } from '../../platform/script.js';
import { orderOf, type SortMap } from '../../platform/sorting.js';
import { presentOutboxMail } from './presenter.js';
import * as smtp from './smtp.js';

const STATUSES = MAIL_STATUSES;
const requestInfo = (r: FastifyRequest) => ({ ip: r.ip, url: r.url });

const listQuery = pageQuery.extend({
  status: z
    .enum(['', ...STATUSES], { error: USERS.invalidOption })
    .optional()
    .default(''),
  ...sortQuery('outbox'),
});

/** `sort` of the outbox (LIST_SORTS.outbox); without one, newest first. */
const OUTBOX_SORTS: SortMap<'outbox'> = {
  to: { text: mailOutbox.to },
  subject: { text: mailOutbox.subject },
  status: { value: mailOutbox.status },
  attempts: { value: mailOutbox.attempts },
  createdAt: { value: mailOutbox.createdAt },
  error: { text: mailOutbox.error },
};

const releaseBody = z
  .object({
    ids: z
      .array(z.uuid({ error: USERS.invalidOption }), { error: USERS.invalidOption })
      .max(1000)
      .optional(),
  })
  .strict();

export const MAIL_TEXTS = { released: SMTP.released } as const;

/**
 * The outbox (server-behaviour.md "Mail"): every mail with its outcome; with no SMTP server in use it
 * is where an Admin reads activation and reset links. Same audience as the mail-server screen. Mail an
 * import sent past its daily cap waits here as 'held' until the Admin releases it (docs/decisions.md).
 */
export async function mailRoutes(fastify: FastifyInstance, ctx: AppContext): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const admin = ctx.auth.requireRoles(rolesFor('smtpList'));

  app.get('/api/smtp/outbox', { schema: { querystring: listQuery }, onRequest: admin }, async (request) => {
    const { page, limit, status, sort, order } = request.query;
    const where = status ? eq(mailOutbox.status, status) : undefined;
    const rows = await ctx.db
      .select()
      .from(mailOutbox)
      .where(where)
      .orderBy(...orderOf(OUTBOX_SORTS, { sort, order }, [desc(mailOutbox.createdAt), desc(mailOutbox.id)], mailOutbox.id))
      .limit(limit)
      .offset((page - 1) * limit);
    const [total] = await ctx.db.select({ n: count() }).from(mailOutbox).where(where);
    const [held] = await ctx.db.select({ n: count() }).from(mailOutbox).where(eq(mailOutbox.status, 'held'));
    return {
      outbox: rows.map(presentOutboxMail),
      totalResults: total?.n ?? 0,
      held: held?.n ?? 0,
    };
  });

  /** Releases the held mail named (or all of it; failed mail named by id is queued again too). */
  app.post('/api/smtp/outbox/release', { schema: { body: releaseBody }, onRequest: admin }, async (request) => {
    const released = await ctx.mailer.release(request.body.ids);
    // Sending runs on after the answer (a release may queue thousands); the retry job picks up the rest.
    if (released > 0) void ctx.mailer.deliverDue().catch((err) => ctx.log.error({ err }, 'sending released mail failed'));
    return { released, message: MAIL_TEXTS.released(released) };
  });

  // The servers (spec 3 §7 "SMTP"; docs/api/smtp.md).
  app.get('/api/smtp', { onRequest: admin }, async () => ({ smtps: await smtp.listSmtps(ctx) }));

  app.post('/api/smtp', { schema: { body: smtpCreateSchema }, onRequest: admin }, async (request, reply) => {
    const created = await smtp.createSmtp(ctx, actorOf(request), request.body, requestInfo(request));
    reply.status(201);
    return { message: SMTP.created, smtp: created };
  });

  app.get('/api/smtp/:id', { schema: { params: idParam }, onRequest: admin }, async (request) => ({
    smtp: await smtp.getSmtp(ctx, request.params.id),
  }));

  app.patch('/api/smtp/:id', { schema: { params: idParam, body: smtpEditSchema }, onRequest: admin }, async (request) => ({
    message: SMTP.edited,
    smtp: await smtp.editSmtp(ctx, actorOf(request), request.params.id, request.body, requestInfo(request)),
  }));

  app.delete('/api/smtp/:id', { schema: { params: idParam }, onRequest: admin }, async (request) => {
    await smtp.deleteSmtp(ctx, actorOf(request), request.params.id, requestInfo(request));
    return { message: SMTP.deleted };
  });

  app.post('/api/smtp/:id/test', { schema: { params: idParam, body: smtpTestSchema }, onRequest: admin }, async (request) =>
    smtp.testSmtp(ctx, actorOf(request), request.params.id, request.body.to, requestInfo(request), scriptOf(request)),
  );
}
