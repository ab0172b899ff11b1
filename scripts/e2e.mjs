#!/usr/bin/env node
// `npm run test:e2e`: the browser journeys in E2E_SHARDS Playwright processes side by side (default 2),
// each with its own server and its own fresh database (e2e/support/server.mjs) on its own port, so no
// journey shares state with another shard's. Playwright splits the journey files between the shards.
// Each shard's lines are printed as they come, prefixed with its number; the exit code is the first
// failing shard's. Arguments go to every shard (e.g. a file: `npm run test:e2e -- e2e/users.spec.ts`;
// with a file named, E2E_SHARDS=1 is usually what you want).
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

const shards = Math.max(1, Number(process.env.E2E_SHARDS || 2));
const basePort = Number(process.env.E2E_PORT || 3100);
const args = process.argv.slice(2);
const playwright = new URL('../node_modules/@playwright/test/cli.js', import.meta.url).pathname;

function run(index) {
  const shardArgs = shards > 1 ? [`--shard=${index}/${shards}`, `--output=test-results/shard-${index}`] : [];
  const child = spawn(process.execPath, [playwright, 'test', ...shardArgs, ...args], {
    env: { ...process.env, E2E_PORT: String(basePort + index - 1) },
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

const codes = await Promise.all(Array.from({ length: shards }, (_, i) => run(i + 1)));
const failed = codes.findIndex((c) => c !== 0);
if (failed >= 0) console.error(`test:e2e: shard ${failed + 1} of ${shards} failed (exit ${codes[failed]})`);
process.exit(failed >= 0 ? codes[failed] : 0);
