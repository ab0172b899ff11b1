#!/usr/bin/env node
// Run first by `npm test` (and `npm run test:e2e`): the browser journeys need Debian's Chromium
// (playwright.config.ts: CHROMIUM_PATH or /usr/bin/chromium; no browser is downloaded). Without it, say
// so in one line before lint, types, unit tests and the build run, instead of failing after them.
import { accessSync, constants } from 'node:fs';

const chromium = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
try {
  accessSync(chromium, constants.X_OK);
} catch {
  console.error(
    `npm test: Chromium not found at ${chromium}; the browser journeys need it: apt-get install chromium (or set CHROMIUM_PATH). Unit tests alone: npm run test:unit`,
  );
  process.exit(1);
}
