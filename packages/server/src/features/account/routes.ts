import {
  changeInfoSchema,
  changePasswordSchema,
  editColumnsSchema,
  editScriptSchema,
  forgotPasswordSchema,
  loginSchema,
  resendActivationSchema,
  resetPasswordSchemaFor,
  setNewPasswordSchema,
  signupSchema,
} from '@trasa/domain';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.js';
import { actorOf } from '../../platform/auth.js';
import { connect } from '../../platform/database.js';
import { parseOrBadRequest } from '../../platform/errors.js';
import { redactUrl } from '../../platform/logger.js';
import { scriptOf } from '../../platform/script.js';
import { clusterScopeOf } from '../clusters/policy.js';
import { presentUser } from '../users/presenter.js';
import * as account from './service.js';

const message = z.object({ message: z.string() });
/** Audit rows carry the URL without its codes (an activation or confirmation link's). */
const requestInfo = (r: FastifyRequest) => ({ ip: r.ip, url: redactUrl(r.url), script: scriptOf(r) });

const SIGN_IN_CONNECTIONS = 4;

/** Limit on requests that send mail, per IP. */
const mailRateLimit = { rateLimit: { max: 20, timeWindow: '15 minutes' } };

/** Sign-in and the account (spec 1 §7). */
export async function accountRoutes(fastify: FastifyInstance, ctx: AppContext): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const signedIn = ctx.auth.requireRoles();
  // Sign-in queries go through a small pool of their own: a flood of sign-ins waits there, never in
  // front of other requests' queries (docs/decisions.md "Sign-in and sessions (hardened)").
  const signInDb = connect(ctx.db.$client.options.connectionString as string, SIGN_IN_CONNECTIONS);
  fastify.addHook('onClose', async () => {
    await signInDb.$client.end();
  });
  const signInCtx: AppContext = { ...ctx, db: signInDb };

  app.post('/api/user/login', { schema: { body: loginSchema } }, async (request, reply) => {
    const result = await account.login(signInCtx, request.body, requestInfo(request));
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
    '/api/user/resend-activation',
    { schema: { body: resendActivationSchema, response: { 200: message } }, config: mailRateLimit },
    async (request) => ({ message: account.resendActivation(ctx, request.body.email, requestInfo(request)) }),
  );

  // The link mailed to a new address (POST /api/user/change-info): a redirect to the login page, which
  // shows the outcome; every session ended, so the person signs in with the new address.
  app.get(
    '/api/user/confirm-email',
    { schema: { querystring: z.object({ code: z.string().max(300).default('') }) } },
    async (request, reply) => {
      const ok = await account.confirmEmail(ctx, request.query.code, requestInfo(request));
      return reply.redirect(ok ? '/?imejl=potvrdjen' : '/?imejl=neuspesno', 303);
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
      return { message: account.requestPasswordReset(ctx, parseOrBadRequest(forgotPasswordSchema, request.body).email, info) };
    },
  );

  // `vidiSve`: the user sees every cluster (the Admin, a sees-all group or one above it, for a Rukovodilac
  // also one in the subtree: the scope the server decides by), so the screens that depend on it (the
  // reports hub's test panel) are laid out from the profile.
  app.get('/api/user/my-profile', { onRequest: signedIn }, async (request) => {
    const actor = actorOf(request);
    const vidiSve = (await clusterScopeOf(ctx.db, actor)).all;
    return { user: { ...presentUser(actor.row), vidiSve } };
  });

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

  app.post(
    '/api/user/edit-script',
    { schema: { body: editScriptSchema, response: { 200: message } }, onRequest: signedIn },
    async (request) => ({
      message: await account.saveScript(ctx, actorOf(request), request.body),
    }),
  );

  app.post('/api/user/logout', { schema: { response: { 200: message } }, onRequest: signedIn }, async (request) => ({
    message: await account.logout(ctx, actorOf(request), requestInfo(request)),
  }));

  app.post('/api/user/logout-all', { schema: { response: { 200: message } }, onRequest: signedIn }, async (request) => ({
    message: await account.logoutAll(ctx, actorOf(request), requestInfo(request)),
  }));

  app.delete('/api/user/my-profile', { schema: { response: { 200: message } }, onRequest: signedIn }, async (request) => ({
    message: await account.deleteOwnAccount(ctx, actorOf(request), requestInfo(request)),
  }));
}
