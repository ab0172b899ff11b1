import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import pino from 'pino';
import type { TestProject } from 'vitest/node';
import { buildApp } from '../src/app.js';
import { ensureFirstAdmin, ensureReferenceData } from '../src/bootstrap.js';
import { loadConfig } from '../src/config.js';
import { activities } from '../src/db/schema-activities.js';
import { clusters } from '../src/db/schema-clusters.js';
import { connect, type Db, runMigrations } from '../src/platform/database.js';
import { type EmbeddedDatabase, startEmbeddedPostgres } from '../src/platform/embeddedPostgres.js';
import { ensureDatabase } from '../src/platform/ensureDatabase.js';
import { fileStore } from '../src/platform/files.js';
import { seedDemo } from '../src/seed/demo.js';
import { seedDemoActivities } from '../src/seed/demoActivities.js';
import { seedDemoClusters } from '../src/seed/demoClusters.js';
import { seedDemoContracts } from '../src/seed/demoContracts.js';
import { linkDemoClusters } from '../src/seed/demoLinks.js';
import { DEFAULT_PASSWORD } from '../src/seed/factories.js';
import { activityFileStore } from '../src/shared/activityFileStore.js';

/** Who the component tests sign in as (through POST /api/user/login, in the browser). */
const LOGINS = {
  admin: { email: 'admin@trasa.test', lozinka: 'AdminLozinka1' },
  /** A Zaposleni of 'Optika Gradnja - Region Zapad', the contractor responsible for Kremna's A2. */
  contractor: { email: 'jovana.kostic@optikagradnja.rs', lozinka: DEFAULT_PASSWORD },
};

declare module 'vitest' {
  export interface ProvidedContext {
    logins: Record<'admin' | 'contractor', { email: string; lozinka: string }>;
    /** The A2 under way of the demo's 'Užice 1 - Kremna': its date and revised length and value autosave. */
    activityA2Id: string;
  }
}

/**
 * The real server for the web's component tests (the `web-components` project): a fresh database (a new
 * one on the server at DATABASE_URL, or an embedded PostgreSQL in a temporary directory) with the demo
 * seed's users, clusters and activities, and the application listening on WEB_TEST_API_PORT, where the
 * browser project's Vite server sends /api (vitest.config.ts).
 */
export default async function setup(project: TestProject) {
  const port = Number(process.env.WEB_TEST_API_PORT);
  if (!port) throw new Error('WEB_TEST_API_PORT is not set (vitest.config.ts sets it)');
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'trasa-web-test-'));
  let embedded: EmbeddedDatabase | undefined;
  let adminUrl = process.env.DATABASE_URL;
  const dbName = `trasa_web_${randomBytes(4).toString('hex')}`;
  let db: Db | undefined;
  let app: FastifyInstance | undefined;
  const teardown = async () => {
    await app?.close();
    await db?.$client.end();
    if (adminUrl) {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${client.escapeIdentifier(dbName)} WITH (FORCE)`);
      await client.end();
    }
    await embedded?.stop();
    await rm(dataDir, { recursive: true, force: true });
  };
  try {
    if (!adminUrl) {
      embedded = await startEmbeddedPostgres({ dir: path.join(dataDir, 'pg-home'), log: () => undefined });
      adminUrl = embedded.url;
    }
    db = connect(await ensureDatabase(adminUrl, dbName), 5);
    await runMigrations(db);
    await ensureReferenceData(db);
    await ensureFirstAdmin(db, { email: LOGINS.admin.email, password: LOGINS.admin.lozinka });
    // The demo seed's parts the tests use: users and groups (the users list), clusters with their
    // activities under way (the activity sections).
    await seedDemo(db);
    await seedDemoClusters(db);
    await seedDemoContracts(db, fileStore(dataDir));
    await linkDemoClusters(db);
    await seedDemoActivities(db, activityFileStore(dataDir));
    const [a2] = await db
      .select({ id: activities.id })
      .from(activities)
      .innerJoin(clusters, eq(clusters.id, activities.clusterId))
      .where(and(eq(clusters.naziv, 'Užice 1 - Kremna'), eq(activities.code, 'A2'), eq(activities.status, 'U toku')));
    if (!a2) throw new Error("the demo seed has no A2 under way in 'Užice 1 - Kremna'");

    const config = { ...loadConfig({}), port, host: '127.0.0.1', appUrl: `http://127.0.0.1:${port}`, dataDir, webDist: '/nonexistent' };
    ({ app } = await buildApp({ db, config, secret: randomBytes(32).toString('hex'), log: pino({ level: 'silent' }) }));
    await app.listen({ port, host: '127.0.0.1' });
    project.provide('logins', LOGINS);
    project.provide('activityA2Id', a2.id);
  } catch (error) {
    await teardown().catch(() => undefined);
    throw error;
  }
  return teardown;
}
