#!/usr/bin/env node
// `npm run test:e2e`: the browser journeys in E2E_SHARDS Playwright processes side by side (default 3),
// each with its own server and its own fresh database (e2e/support/server.mjs) on its own port, so no
// journey shares state with another shard's. The journey files are dealt to the shards by their measured
// durations (WEIGHTS: the longest first, each to the shard with the least so far), so the shards end
// together; Playwright's own --shard splits by the number of tests, which left one shard 2 minutes longer.
// Each shard's lines are printed as they come, prefixed with its number; the exit code is the first
// failing shard's. Arguments go to every shard; with a file or filter named (`npm run test:e2e --
// e2e/users.spec.ts`) one Playwright process runs it unless E2E_SHARDS says otherwise.
import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { resolveChromium } from './chromium.mjs';

const args = process.argv.slice(2);
const named = args.some((a) => !a.startsWith('-'));
const shards = Math.max(1, Number(process.env.E2E_SHARDS || (named ? 1 : 3)));
const basePort = Number(process.env.E2E_PORT || 3100);
// The Chromium is resolved once here (scripts/chromium.mjs), so the shards neither repeat it nor unpack
// @sparticuz/chromium's binary side by side.
let chromium;
try {
  chromium = (await resolveChromium()).path;
} catch (error) {
  console.error(`test:e2e: no Chromium: ${error instanceof Error ? error.message : error}`);
  process.exit(1);
}
const playwright = new URL('../node_modules/@playwright/test/cli.js', import.meta.url).pathname;

/**
 * Seconds each journey file takes in a CI run (the list reporter's durations of a run of the three shards at
 * a load of about 10, 2026-12-06, scaled to the total these had before); a file not named here counts as
 * DEFAULT_WEIGHT. Only the proportions matter: update them when a file grows or shrinks a lot.
 */
const WEIGHTS = {
  'a11y.spec.ts': 95,
  'contracts.spec.ts': 65,
  'clusters.spec.ts': 60,
  'script-walk.spec.ts': 56,
  'users.spec.ts': 55,
  'offline-queue.spec.ts': 49,
  'menus.spec.ts': 44,
  'topics.spec.ts': 40,
  'groups.spec.ts': 38,
  'activity.spec.ts': 36,
  'imports.spec.ts': 30,
  'setup-journey.spec.ts': 27,
  'account.spec.ts': 25,
  'codebooks.spec.ts': 24,
  'inventory.spec.ts': 24,
  'notifications.spec.ts': 21,
  'ijo-logs.spec.ts': 20,
  'script.spec.ts': 20,
  'reports.spec.ts': 17,
  'guest.spec.ts': 14,
  'password.spec.ts': 14,
  'money.spec.ts': 14,
  'offline.spec.ts': 12,
  'smtp.spec.ts': 12,
  'admin.spec.ts': 10,
  'dates.spec.ts': 8,
};
const DEFAULT_WEIGHT = 20;

/** The journey files dealt to `count` shards, heaviest first, each to the lightest shard so far. */
function deal(files, count) {
  const bins = Array.from({ length: count }, () => ({ files: [], total: 0 }));
  const weight = (f) => WEIGHTS[f] ?? DEFAULT_WEIGHT;
  for (const file of [...files].sort((a, b) => weight(b) - weight(a) || a.localeCompare(b))) {
    const bin = bins.reduce((min, b) => (b.total < min.total ? b : min));
    bin.files.push(file);
    bin.total += weight(file);
  }
  // Each shard runs its files in alphabetical order, as one Playwright run always has.
  return bins.map((b) => b.files.sort());
}

// With no file named, every journey file is dealt out; with files or other filters named (and E2E_SHARDS set), Playwright's own
// --shard splits what they select.
const dealt =
  shards > 1 && !named
    ? deal(
        readdirSync('e2e').filter((f) => f.endsWith('.spec.ts')),
        shards,
      )
    : undefined;

function run(index) {
  const shardArgs =
    shards > 1
      ? [dealt ? dealt[index - 1].map((f) => `e2e/${f}`) : [`--shard=${index}/${shards}`], `--output=test-results/shard-${index}`].flat()
      : [];
  const child = spawn(process.execPath, [playwright, 'test', ...shardArgs, ...args], {
    env: { ...process.env, CHROMIUM_PATH: chromium, E2E_PORT: String(basePort + index - 1) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  const prefix = shards > 1 ? `[${index}/${shards}] ` : '';
  for (const [stream, out] of [
    [child.stdout, process.stdout],
    [child.stderr, process.stderr],
  ]) {
    createInterface({ input: stream }).on('line', (line) => out.write(`${prefix}${line}\n`));
  }
  return new Promise((resolve) => child.on('close', (code, signal) => resolve(code ?? (signal ? 1 : 0))));
}

// A stop (Ctrl-C, CI's timeout) reaches every shard, which stops its own server.
const children = [];
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    for (const child of children) child.kill(signal);
  });
}

if (dealt) for (const [i, files] of dealt.entries()) console.log(`[${i + 1}/${shards}] ${files.join(' ')}`);
// A shard dealt no file (more shards than files) is not started: Playwright given no file runs them all.
const codes = await Promise.all(Array.from({ length: shards }, (_, i) => (dealt && dealt[i].length === 0 ? 0 : run(i + 1))));
const failed = codes.findIndex((c) => c !== 0);
if (failed >= 0) console.error(`test:e2e: shard ${failed + 1} of ${shards} failed (exit ${codes[failed]})`);
process.exit(failed >= 0 ? codes[failed] : 0);
