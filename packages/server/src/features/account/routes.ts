import {
  changeInfoSchema,
  changePasswordSchema,
  editColumnsSchema,
  forgotPasswordSchema,
  loginSchema,
  resetPasswordSchemaFor,
  setNewPasswordSchema,
  signupSchema,
} from '@trasa/domain';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.js';
import { actorOf } from '../../platform/auth.js';
import { parseOrBadRequest } from '../../platform/errors.js';
import { presentUser } from '../users/presenter.js';
import * as account from './service.js';

const message = z.object({ message: z.string() });
const requestInfo = (r: FastifyRequest) => ({ ip: r.ip, url: r.url });

/** Limit on requests that send mail, per IP. */
const mailRateLimit = { rateLimit: { max: 20, timeWindow: '15 minutes' } };

/** Sign-in and the account (spec 1 §7). */
export async function accountRoutes(fastify: FastifyInstance, ctx: AppContext): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const signedIn = ctx.auth.requireRoles();

  app.post('/api/user/login', { schema: { body: loginSchema } }, async (request, reply) => {
    const result = await account.login(ctx, request.body, requestInfo(request));
    reply.header('authorization', `Bearer ${result.token}`);
    return result;
  });

  app.post(
    '/api/user/signup',
    { schema: { body: signupSchema, response: { 201: message } }, config: mailRateLimit },
    async (request, reply) => {
      reply.status(201);
      return { message: await account.signup(ctx, request.body, requestInfo(request)) };
    },
  );

  app.get(
    '/api/user/activate',
    { schema: { querystring: z.object({ email: z.string().max(300).default(''), code: z.string().max(300).default('') }) } },
    async (request, reply) => {
      const ok = await account.activate(ctx, request.query.email.trim().toLowerCase(), request.query.code, requestInfo(request));
      return reply.redirect(ok ? '/?aktivacija=uspesna' : '/?aktivacija=neuspesna', 303);
    },
  );

  app.post(
    '/api/user/reset-password',
    { schema: { body: z.looseObject({}), response: { 200: message } }, config: mailRateLimit },
    async (request) => {
      const schema = resetPasswordSchemaFor(request.body);
      const info = requestInfo(request);
      if (schema === setNewPasswordSchema) {
        return { message: await account.setNewPassword(ctx, parseOrBadRequest(setNewPasswordSchema, request.body), info) };
      }
      return { message: await account.requestPasswordReset(ctx, parseOrBadRequest(forgotPasswordSchema, request.body).email, info) };
    },
  );

  app.get('/api/user/my-profile', { onRequest: signedIn }, async (request) => ({ user: presentUser(actorOf(request).row) }));

  app.post('/api/user/change-password', { schema: { body: changePasswordSchema }, onRequest: signedIn }, async (request) =>
    account.changePassword(ctx, actorOf(request), request.body, requestInfo(request)),
  );

  app.post(
    '/api/user/change-info',
    { schema: { body: changeInfoSchema, response: { 200: message } }, onRequest: signedIn },
    async (request) => ({
      message: await account.changeInfo(ctx, actorOf(request), request.body, requestInfo(request)),
    }),
  );

  app.post(
    '/api/user/edit-columns',
    { schema: { body: editColumnsSchema, response: { 200: message } }, onRequest: signedIn },
    async (request) => ({
      message: await account.saveColumns(ctx, actorOf(request), request.body),
    }),
  );

  app.delete('/api/user/my-profile', { schema: { response: { 200: message } }, onRequest: signedIn }, async (request) => ({
    message: await account.deleteOwnAccount(ctx, actorOf(request), requestInfo(request)),
  }));
}
