import type { TestProject } from 'vitest/node';
import { holdTestPostgres } from './testPostgres.js';

declare module 'vitest' {
  export interface ProvidedContext {
    pgAdminUrl: string;
    templateDb: string;
    dbPrefix: string;
  }
}

/**
 * One PostgreSQL for the run (test/testPostgres.ts: the server at DATABASE_URL when set, otherwise an
 * embedded one in a temporary directory, shared with the web's component tests when they run too).
 * Migrations run once into a template database; each test file copies it (CREATE DATABASE … TEMPLATE)
 * and works on its own database.
 */
export default async function setup(project: TestProject) {
  const postgres = await holdTestPostgres();
  project.provide('pgAdminUrl', postgres.adminUrl);
  project.provide('templateDb', postgres.templateDb);
  project.provide('dbPrefix', postgres.prefix);
  return () => postgres.release();
}
