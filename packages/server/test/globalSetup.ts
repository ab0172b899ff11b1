import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { ensureReferenceData } from '../src/bootstrap.js';
import { connect, runMigrations } from '../src/platform/database.js';
import { type EmbeddedDatabase, startEmbeddedPostgres } from '../src/platform/embeddedPostgres.js';
import { ensureDatabase } from '../src/platform/ensureDatabase.js';

declare module 'vitest' {
  export interface ProvidedContext {
    pgAdminUrl: string;
    templateDb: string;
    dbPrefix: string;
  }
}

/**
 * One PostgreSQL for the run: the server at DATABASE_URL when set, otherwise an embedded one in a
 * temporary directory. Migrations run once into a template database; each test file copies it
 * (CREATE DATABASE … TEMPLATE) and works on its own database.
 */
export default async function setup(project: TestProject) {
  let embedded: EmbeddedDatabase | undefined;
  let dir: string | undefined;
  let adminUrl = process.env.DATABASE_URL;
  if (!adminUrl) {
    dir = await mkdtemp(path.join(os.tmpdir(), 'trasa-test-pg-'));
    embedded = await startEmbeddedPostgres({ dir, log: () => undefined });
    adminUrl = embedded.url;
  }
  const prefix = `trasa_t_${randomBytes(4).toString('hex')}`;
  const templateDb = `${prefix}_tpl`;
  const templateUrl = await ensureDatabase(adminUrl, templateDb);
  const db = connect(templateUrl, 1);
  await runMigrations(db);
  await ensureReferenceData(db);
  await db.$client.end();

  project.provide('pgAdminUrl', adminUrl);
  project.provide('templateDb', templateDb);
  project.provide('dbPrefix', prefix);

  return async () => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    const { rows } = await client.query<{ datname: string }>('select datname from pg_database where datname like $1', [`${prefix}%`]);
    for (const { datname } of rows) await client.query(`DROP DATABASE IF EXISTS ${client.escapeIdentifier(datname)} WITH (FORCE)`);
    await client.end();
    await embedded?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  };
}
