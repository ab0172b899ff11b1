import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { toScript } from '@trasa/domain';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import pino from 'pino';
import { afterAll, beforeAll, inject } from 'vitest';
import { buildApp, type RegisteredRoute } from '../src/app.js';
import { type Config, keptEnvOf, loadConfig } from '../src/config.js';
import type { AppContext } from '../src/context.js';
import { connect, type Db } from '../src/platform/database.js';
import { ensureDatabase } from '../src/platform/ensureDatabase.js';
import { keptSettings } from '../src/platform/kept/store.js';

export type TestApp = {
  app: FastifyInstance;
  ctx: AppContext;
  /** Every route the application registered. */
  routes: RegisteredRoute[];
  db: Db;
  /** A request as a client sends it; `token` becomes the bearer header. */
  call: (opts: InjectOptions & { token?: string }) => Promise<LightMyRequestResponse>;
};

/**
 * A text as the server says it to a test's requests: they send no X-Trasa-Pismo and their users keep the
 * default script, so the server answers in Cyrillic (docs/decisions.md "One script at a time"). Typed
 * values inside a message function's answer are given to it marked (asTyped), as the server does.
 */
export const said = (text: string): string => toScript(text, 'cyr');

/**
 * Builds the application on the database at `url` into `holder` (its own pool and in-process state);
 * instances given one `secret` and `dataDir` behave as several servers behind a proxy.
 */
export async function startTestApp(
  holder: TestApp,
  url: string,
  opts: { secret: string; dataDir: string; webDist?: string; env?: NodeJS.ProcessEnv },
): Promise<void> {
  const db = connect(url, 5);
  const config: Config = {
    // TRASA_KEPT_VERIFY and TRASA_KEPT_OFF of the test run reach every test application (.ci/run's verify pass).
    ...loadConfig({ ...keptEnvOf(process.env), ...opts.env }),
    appUrl: 'http://trasa.test',
    dataDir: opts.dataDir,
    webDist: opts.webDist ?? '/nonexistent',
  };
  const { app, ctx, routes } = await buildApp({ db, config, secret: opts.secret, log: pino({ level: 'silent' }) });
  await app.ready();
  Object.assign(holder, {
    app,
    ctx,
    routes,
    db,
    call: ({ token, headers, ...opts }: InjectOptions & { token?: string }) =>
      app.inject({ ...opts, headers: { ...headers, ...(token ? { authorization: `Bearer ${token}` } : {}) } }),
  });
}

/**
 * The application on this test file's own database (a copy of the migrated template); `env` is read
 * as the server reads its environment (TRUST_PROXY …).
 */
export function useTestApp(opts: { webDist?: string; env?: NodeJS.ProcessEnv } = {}): TestApp {
  const holder = {} as TestApp;
  let dataDir: string | undefined;
  beforeAll(async () => {
    const name = `${inject('dbPrefix')}_${randomBytes(4).toString('hex')}`;
    const url = await ensureDatabase(inject('pgAdminUrl'), name, inject('templateDb'));
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'trasa-test-data-'));
    await startTestApp(holder, url, { secret: randomBytes(32).toString('hex'), dataDir, webDist: opts.webDist, env: opts.env });
  });
  afterAll(async () => {
    await holder.app?.close();
    await holder.db?.$client.end();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });
  return holder;
}

/**
 * Runs `step` with TRASA_KEPT_VERIFY off for `t`'s kept values (platform/kept): a step that changes data
 * behind the triggers' back to show that a value is kept, whose hit verify would rightly fail.
 */
export async function withoutKeptVerify<T>(t: { db: Db }, step: () => Promise<T>): Promise<T> {
  const settings = keptSettings(t.db);
  const was = settings.verify;
  settings.verify = false;
  try {
    return await step();
  } finally {
    settings.verify = was;
  }
}
