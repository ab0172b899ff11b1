import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import type { TestProject } from 'vitest/node';
import { buildApp } from '../src/app.js';
import { ensureFirstAdmin } from '../src/bootstrap.js';
import { loadConfig } from '../src/config.js';
import { mailOutbox } from '../src/db/schema.js';
import { activities } from '../src/db/schema-activities.js';
import { clusters } from '../src/db/schema-clusters.js';
import { connect, type Db } from '../src/platform/database.js';
import { ensureDatabase } from '../src/platform/ensureDatabase.js';
import { fileStore } from '../src/platform/files.js';
import { seedDemo } from '../src/seed/demo.js';
import { actorsOf, clusterInfo, DEMO_STORIES, storyEmails } from '../src/seed/demoActivities.js';
import { seedDemoClusters } from '../src/seed/demoClusters.js';
import { seedDemoContracts } from '../src/seed/demoContracts.js';
import { linkDemoClusters } from '../src/seed/demoLinks.js';
import { Scene } from '../src/seed/demoScene.js';
import { DEFAULT_PASSWORD } from '../src/seed/factories.js';
import { type ActivityFileStore, activityFileStore } from '../src/shared/activityFileStore.js';
import { ensureClusterActivities } from '../src/shared/activityReference.js';
import { holdTestPostgres, type TestPostgres } from './testPostgres.js';

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
 * One story of the demo's workflow (seed/demoActivities.ts plays them all: a dozen clusters' steps with
 * their files, most of the seed's time) played on its cluster, as the seed plays it: the cluster's
 * activities made, then the story's steps in one transaction by the story's people.
 */
async function playStory(db: Db, store: ActivityFileStore, clusterName: string) {
  const story = DEMO_STORIES.find((s) => s.cluster === clusterName);
  const [cluster] = await db
    .select({ id: clusters.id, duzina: clusters.indikativnaDuzinaKlastera, vrednost: clusters.ugovorenaVrednostKlastera })
    .from(clusters)
    .where(eq(clusters.naziv, clusterName));
  if (!story || !cluster) throw new Error(`the demo seed has no story or no cluster '${clusterName}'`);
  await ensureClusterActivities(db, [cluster.id]);
  const info = await clusterInfo(db, cluster.id, clusterName, cluster.duzina, cluster.vrednost);
  const actors = await actorsOf(db, storyEmails(story));
  await db.transaction((tx) => new Scene(tx, store, info, actors, story, new Map()).play());
}

/**
 * The real server for the web's component tests (the `web-components` project): a fresh database with
 * the demo seed's users, clusters and activities, and the application listening on WEB_TEST_API_PORT,
 * where the browser project's Vite server sends /api (vitest.config.ts). The database is a copy of the
 * run's migrated template on the run's PostgreSQL (test/testPostgres.ts: the server at DATABASE_URL, or
 * the embedded one the server tests use too when they run in the same run).
 */
export default async function setup(project: TestProject) {
  const port = Number(process.env.WEB_TEST_API_PORT);
  if (!port) throw new Error('WEB_TEST_API_PORT is not set (vitest.config.ts sets it)');
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'trasa-web-test-'));
  let postgres: TestPostgres | undefined;
  let db: Db | undefined;
  let app: FastifyInstance | undefined;
  // The database goes with the run's others when the last hold on the run's PostgreSQL is released (a
  // DROP DATABASE of its own would wait for a checkpoint writing out every test database first).
  const teardown = async () => {
    await app?.close();
    await db?.$client.end();
    await postgres?.release();
    await rm(dataDir, { recursive: true, force: true });
  };
  try {
    postgres = await holdTestPostgres();
    db = connect(await ensureDatabase(postgres.adminUrl, `${postgres.prefix}_web`, postgres.templateDb), 5);
    await ensureFirstAdmin(db, { email: LOGINS.admin.email, password: LOGINS.admin.lozinka });
    // The demo seed's parts the tests use: users and groups (the users list), the clusters and
    // contracts, and of the workflow's stories Kremna's (its A2 under way: the activity sections).
    await seedDemo(db);
    await seedDemoClusters(db);
    await seedDemoContracts(db, fileStore(dataDir));
    await linkDemoClusters(db);
    await playStory(db, activityFileStore(dataDir), 'Užice 1 - Kremna');
    // Two mails an import sent past its daily cap, held until released (the outbox panel's note).
    await db.insert(mailOutbox).values(
      ['prvi', 'drugi'].map((who) => ({
        to: `${who}@uvoz.test`,
        subject: 'Nalog',
        text: 'Nalog je otvoren.',
        status: 'held',
        origin: 'import',
      })),
    );
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
