import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // Two workers on CI's two cores: the server tests mostly wait on PostgreSQL, and each test file has
    // its own database, so files run side by side safely (vitest's default here is one worker).
    maxWorkers: Number(process.env.VITEST_WORKERS || 2),
    projects: [
      {
        test: { name: 'domain', include: ['packages/domain/src/**/*.test.ts'], environment: 'node' },
      },
      {
        // Budgets over the web build (it builds into a temporary folder unless BUDGET_DIST names one).
        test: {
          name: 'web',
          include: ['packages/web/scripts/**/*.test.ts'],
          environment: 'node',
          testTimeout: 30_000,
          hookTimeout: 600_000,
        },
      },
      {
        test: {
          name: 'server',
          // A worker's test files share their imported modules (each still has its own database and app):
          // importing the server's modules again for every file was 100 of the pass's 245 s
          // (docs/decisions.md "Journeys and CI", stop 26).
          isolate: false,
          include: ['packages/server/src/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['packages/server/test/globalSetup.ts'],
          setupFiles: ['packages/server/test/noNetwork.ts'],
          // A limit against hangs, not a measure of speed: enumerations are split into cases of a few
          // seconds, but a case that hashes passwords in sequence (the sign-in throttling: some 20 scrypt
          // hashes of ~0.4 s of a core each) took 30 s with two CPU burners beside the run on an already busy machine.
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
