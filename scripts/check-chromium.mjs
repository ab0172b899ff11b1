#!/usr/bin/env node
// Run first by `npm test` (and `npm run test:e2e`): says in one line which Chromium the browser journeys
// will use (scripts/chromium.mjs: CHROMIUM_PATH, else Debian's /usr/bin/chromium, else the one npm
// installs with @sparticuz/chromium, unpacked here on first use), or, when there is none, says so in one
// line before lint, types, unit tests and the build run, instead of failing after them.
import { spawnSync } from 'node:child_process';
import { describeSource, resolveChromium } from './chromium.mjs';

try {
  const { path, source } = await resolveChromium();
  const version = spawnSync(path, ['--version'], { encoding: 'utf8', timeout: 30_000 }).stdout?.trim();
  console.log(`npm test: browser journeys in ${version || 'Chromium'} at ${path} (${describeSource(source)})`);
} catch (error) {
  console.error(
    `npm test: no Chromium for the browser journeys: ${error instanceof Error ? error.message : error}. Run npm install (it installs @sparticuz/chromium), apt-get install chromium, or set CHROMIUM_PATH. Unit tests alone: npm run test:unit`,
  );
  process.exit(1);
}
