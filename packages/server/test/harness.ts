import { randomBytes } from 'node:crypto';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import pino from 'pino';
import { afterAll, beforeAll, inject } from 'vitest';
import { buildApp, type RegisteredRoute } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import type { AppContext } from '../src/context.js';
import { connect, type Db } from '../src/platform/database.js';
import { ensureDatabase } from '../src/platform/ensureDatabase.js';

export type TestApp = {
  app: FastifyInstance;
  ctx: AppContext;
  /** Every route the application registered. */
  routes: RegisteredRoute[];
  db: Db;
  /** A request as a client sends it; `token` becomes the bearer header. */
  call: (opts: InjectOptions & { token?: string }) => Promise<LightMyRequestResponse>;
};

/** The application on this test file's own database (a copy of the migrated template). */
export function useTestApp(): TestApp {
  const holder = {} as TestApp;
  beforeAll(async () => {
    const name = `${inject('dbPrefix')}_${randomBytes(4).toString('hex')}`;
    const url = await ensureDatabase(inject('pgAdminUrl'), name, inject('templateDb'));
    const db = connect(url, 5);
    const config = { ...loadConfig({}), appUrl: 'http://trasa.test', dataDir: '/nonexistent', webDist: '/nonexistent' };
    const { app, ctx, routes } = await buildApp({ db, config, secret: randomBytes(32).toString('hex'), log: pino({ level: 'silent' }) });
    await app.ready();
    Object.assign(holder, {
      app,
      ctx,
      routes,
      db,
      call: ({ token, headers, ...opts }: InjectOptions & { token?: string }) =>
        app.inject({ ...opts, headers: { ...headers, ...(token ? { authorization: `Bearer ${token}` } : {}) } }),
    });
  });
  afterAll(async () => {
    await holder.app?.close();
    await holder.db?.$client.end();
  });
  return holder;
}
