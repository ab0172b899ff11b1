import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS, chromiumPathSync } from './scripts/chromium.mjs';

const port = Number(process.env.E2E_PORT || 3100);
export const baseURL = `http://127.0.0.1:${port}`;
const chromium = chromiumPathSync();
// Playwright's workers load this file again: they read the path from the environment instead of resolving it anew.
process.env.CHROMIUM_PATH = chromium;

/**
 * Journeys in Chromium (scripts/chromium.mjs: CHROMIUM_PATH, else Debian's /usr/bin/chromium, else the
 * headless one npm installs with @sparticuz/chromium; Playwright downloads no browser) against the built app,
 * started by e2e/support/server.mjs on a fresh database: embedded PostgreSQL in a temporary DATA_DIR,
 * or a new database on the server at DATABASE_URL when that is set.
 */
export default defineConfig({
  testDir: 'e2e',
  fullyParallel: false,
  workers: 1,
  forbidOnly: !!process.env.CI,
  // One retry (E2E_RETRIES): a journey that passes only on its second try is printed as "flaky" and is
  // a defect to fix, but it does not throw away a CI run (docs/decisions.md "Tests and CI").
  retries: Number(process.env.E2E_RETRIES ?? 1),
  timeout: 60_000,
  expect: { timeout: 15_000 },
  reporter: [['list']],
  use: {
    baseURL,
    locale: 'sr-RS',
    // A trace is recorded only for the retry of a failed journey: recording one for every journey (to keep
    // it on failure) doubled the journeys' CPU time (docs/decisions.md "Tests and CI").
    trace: 'on-first-retry',
    screenshot: 'only-on-failure',
    // The service worker (the installable app, docs/decisions.md "Offline") is its own journey's
    // (e2e/offline.spec.ts allows it): in the others every new browser context would download and store the
    // whole precache, some 170 files, beside the journey's own requests.
    serviceWorkers: 'block',
    launchOptions: {
      executablePath: chromium,
      // Our own flags for every Chromium, not @sparticuz/chromium's Lambda ones.
      args: CHROMIUM_ARGS,
    },
  },
  webServer: {
    command: 'node e2e/support/server.mjs',
    url: `${baseURL}/api/health`,
    env: { E2E_PORT: String(port) },
    reuseExistingServer: false,
    timeout: 180_000,
    stdout: 'ignore',
    stderr: 'pipe',
    gracefulShutdown: { signal: 'SIGTERM', timeout: 20_000 },
  },
});
