import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { constants as zlibConstants } from 'node:zlib';
import compress from '@fastify/compress';
import multipart from '@fastify/multipart';
import rateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import { COMMON, installSerbianValidationMessages } from '@trasa/domain';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyReply, LogController } from 'fastify';
import { jsonSchemaTransform, serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { Logger } from 'pino';
import type { Config } from './config.js';
import type { AppContext } from './context.js';
import { accountRoutes } from './features/account/routes.js';
import { activityRoutes } from './features/activities/routes.js';
import { catalogueRoutes } from './features/catalogue/routes.js';
import { clusterRoutes } from './features/clusters/routes.js';
import { commentRoutes } from './features/comments/routes.js';
import { commentListRoutes } from './features/commentsList/routes.js';
import { contractRoutes } from './features/contracts/routes.js';
import { exportRoutes } from './features/exports/routes.js';
import { fileRoutes } from './features/files/routes.js';
import { groupRoutes } from './features/groups/routes.js';
import { ijoRoutes } from './features/ijo/routes.js';
import { importRoutes } from './features/imports/routes.js';
import { inventoryContractPaths } from './features/inventory/bridge.js';
import { INVENTORY_LISTS } from './features/inventory/exports.js';
import { inventoryRoutes } from './features/inventory/routes.js';
import { linkRoutes } from './features/links/routes.js';
import { logRoutes } from './features/logs/routes.js';
import { mailRoutes } from './features/mail/routes.js';
import { notificationRoutes } from './features/notifications/routes.js';
import { priorityRoutes } from './features/priorities/routes.js';
import { reportRoutes } from './features/reports/routes.js';
import { roleRoutes } from './features/roles/routes.js';
import { searchRoutes } from './features/search/routes.js';
import { settlementRoutes } from './features/settlements/routes.js';
import { topicRoutes } from './features/topics/routes.js';
import { typeRoutes } from './features/types/routes.js';
import { activeUserLoader } from './features/users/activeUser.js';
import { userRoutes } from './features/users/routes.js';
import { createAuth } from './platform/auth.js';
import type { Db } from './platform/database.js';
import { badRequest, clientErrorHandler, registerErrorHandler } from './platform/errors.js';
import { fileStore } from './platform/files.js';
import { isUnacceptableInput } from './platform/input.js';
import { configureKept } from './platform/kept/store.js';
import { createMailer, type Mailer } from './platform/mail.js';
import { registerScript } from './platform/script.js';
import { registerSecurityHeaders } from './platform/securityHeaders.js';
import { tokenService } from './platform/tokens.js';

installSerbianValidationMessages();

export type AppDeps = { db: Db; config: Config; secret: string; log: Logger; mailer?: Mailer };

/**
 * The features, each registering its /api routes with the context it needs; the contracts and the links
 * get the inventory's hooks for spec 3's inventory contracts on their paths (ContractPathsBridge), the
 * exports the inventory's lists.
 */
const FEATURES = [
  accountRoutes,
  mailRoutes,
  userRoutes,
  groupRoutes,
  roleRoutes,
  typeRoutes,
  searchRoutes,
  settlementRoutes,
  priorityRoutes,
  clusterRoutes,
  (app: FastifyInstance, ctx: AppContext) => contractRoutes(app, ctx, inventoryContractPaths),
  (app: FastifyInstance, ctx: AppContext) => linkRoutes(app, ctx, inventoryContractPaths),
  topicRoutes,
  importRoutes,
  ijoRoutes,
  logRoutes,
  commentListRoutes,
  catalogueRoutes,
  notificationRoutes,
  activityRoutes,
  fileRoutes,
  commentRoutes,
  (app: FastifyInstance, ctx: AppContext) => exportRoutes(app, ctx, INVENTORY_LISTS),
  reportRoutes,
  inventoryRoutes,
];

function defaultWebDist(): string {
  const here = path.dirname(fileURLToPath(import.meta.url));
  return path.resolve(here, '../../web/dist');
}

/** proxy-addr's trust function for `hops` proxies: the peer (0) and the next hops - 1 addresses. */
function trustHops(hops: number): (address: string, index: number) => boolean {
  return (_address, index) => index < hops;
}

export type RegisteredRoute = { method: string; url: string };

export async function buildApp(deps: AppDeps): Promise<{ app: FastifyInstance; ctx: AppContext; routes: RegisteredRoute[] }> {
  const app = Fastify({
    loggerInstance: deps.log as FastifyBaseLogger,
    // One line per request (the onResponse hook below) instead of Fastify's two; none for health checks.
    logController: new LogController({ disableRequestLogging: true }),
    // A hop count as a function: Fastify takes a bare number as trusting nothing. With n hops the
    // socket's peer and the n - 1 right-most X-Forwarded-For entries are proxies; request.ip is the
    // entry before them, whatever a client wrote further left (docs/operations.md).
    trustProxy: typeof deps.config.trustProxy === 'number' ? trustHops(deps.config.trustProxy) : deps.config.trustProxy,
    bodyLimit: 1024 * 1024,
    // The spec calls POST /api/user/ with the slash; /api/user answers the same.
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200 },
    // A path the router can't take apart (bad percent-encoding, a parameter longer than any id) is the
    // client's mistake: answered in JSON and Serbian like every other error, never echoing the path.
    clientErrorHandler,
    frameworkErrors: (error, _request, reply) => {
      const tooLong = error.code === 'FST_ERR_MAX_PARAM_LENGTH';
      (reply as FastifyReply).status(tooLong ? 404 : 400).send({ message: tooLong ? COMMON.notFound : COMMON.badRequest });
    },
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandler(app);
  // Messages leave in the request's script (platform/script.ts), error answers included.
  registerScript(app);
  // No field of any request may hold NUL, a lone surrogate or deep nesting (platform/input.ts); multipart
  // fields are checked where they are read.
  app.addHook('preValidation', async (request) => {
    if (isUnacceptableInput(request.params) || isUnacceptableInput(request.query) || isUnacceptableInput(request.body)) {
      throw badRequest(COMMON.badRequest);
    }
  });
  // Every /api answer (JSON of a signed-in user, documents, errors) stays out of shared and browser
  // caches; static assets keep their own caching.
  app.addHook('onSend', async (request, reply) => {
    if (/^\/api(?:[/?]|$)/.test(request.url) && !String(reply.getHeader('cache-control') ?? '').includes('no-store')) {
      reply.header('cache-control', 'no-store');
    }
  });
  // The request log: one info line when the answer is sent (method, redacted URL, status, time), none
  // for /api/health (a load balancer's probe every few seconds). Fastify's own pair of lines per request
  // cost 20–28 % of a small call's throughput (issue 15).
  const logRequests = deps.log.isLevelEnabled('info');
  app.addHook('onResponse', (request, reply, done) => {
    if (logRequests && request.url !== '/api/health') {
      request.log.info({ req: request, statusCode: reply.statusCode, ms: Math.round(reply.elapsedTime) }, 'request completed');
    }
    done();
  });
  const routes: RegisteredRoute[] = [];
  app.addHook('onRoute', (r) => {
    for (const method of [r.method].flat()) if (method !== 'HEAD') routes.push({ method, url: r.url });
  });

  registerSecurityHeaders(app, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        // The service worker (/sw.js) and the web manifest: our own origin only (docs/decisions.md "Offline").
        workerSrc: ["'self'"],
        manifestSrc: ["'self'"],
        objectSrc: ["'none'"],
        frameAncestors: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        upgradeInsecureRequests: null,
      },
    },
    crossOriginEmbedderPolicy: false,
    hsts: false,
  });
  await app.register(rateLimit, { global: false });
  // Text answers (JSON, the SPA page) go out brotli- or gzip-compressed when the client accepts it; the
  // built assets are compressed once at build time (web/scripts/precompress.mjs, served preCompressed).
  await app.register(compress, {
    global: true,
    threshold: 1024,
    encodings: ['br', 'gzip'],
    brotliOptions: { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 4 } },
  });
  // Uploads are read part by part (request.parts()); each file is streamed to the file store.
  await app.register(multipart, {
    limits: { fileSize: 25 * 1024 * 1024, files: 20, fields: 20, fieldSize: 100 * 1024, parts: 40 },
  });
  await app.register(swagger, {
    openapi: { info: { title: 'Trasa API', version: '1.0.0' } },
    transform: jsonSchemaTransform,
  });

  // The values kept in memory for this database (platform/kept).
  configureKept(deps.db, deps.config.kept);
  const tokens = tokenService(deps.secret);
  const ctx: AppContext = {
    db: deps.db,
    config: deps.config,
    secret: deps.secret,
    log: deps.log,
    tokens,
    mailer: deps.mailer ?? createMailer({ db: deps.db, secret: deps.secret, log: deps.log }),
    auth: createAuth({ loadActiveUser: activeUserLoader(deps.db), tokens }),
    files: fileStore(deps.config.dataDir),
  };

  for (const feature of FEATURES) await feature(app, ctx);
  app.get('/api/docs/json', { schema: { hide: true } }, async () => app.swagger());
  app.get('/api/health', { schema: { hide: true } }, async () => {
    await deps.db.$client.query('select 1');
    return { status: 'ok' };
  });

  const webDist = deps.config.webDist ?? defaultWebDist();
  const hasWeb = existsSync(path.join(webDist, 'index.html'));
  // /app and /app/* get app.html (the web build's: index.html that also starts the screen's first answers and
  // the application's code at once); a build without it, index.html.
  const appPage = existsSync(path.join(webDist, 'app.html')) ? 'app.html' : 'index.html';
  if (hasWeb) {
    // Hashed assets never change under their name: cached for a year; index.html, the service worker
    // (/sw.js: the browser looks for a new version through it) and the manifest are revalidated.
    await app.register(fastifyStatic, {
      root: webDist,
      wildcard: false,
      index: false,
      preCompressed: true,
      cacheControl: false,
      setHeaders: (res, filePath) => {
        const hashed = filePath.includes(`${path.sep}assets${path.sep}`);
        res.setHeader('cache-control', hashed ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  }
  // /api/* answers JSON 404; any other GET (or HEAD, as uptime monitors probe) is the SPA (history
  // fallback), which shows its own not-found page.
  app.setNotFoundHandler((request, reply) => {
    const url = request.url.split('?')[0] ?? '';
    // A missing file (an old asset name after a rebuild) is a 404, not the SPA page with 200.
    const isFile = url.startsWith('/assets/') || /\.[a-z0-9]+$/i.test(url);
    if (url.startsWith('/api/') || url === '/api' || (request.method !== 'GET' && request.method !== 'HEAD') || !hasWeb || isFile) {
      return reply.status(404).send({ message: COMMON.routeNotFound });
    }
    const page = url === '/app' || url.startsWith('/app/') ? appPage : 'index.html';
    return reply.header('cache-control', 'no-cache').sendFile(page);
  });

  return { app, ctx, routes };
}
