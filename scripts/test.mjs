#!/usr/bin/env node
// `npm test`: every test and check, in stages; a stage starts when the one before it has passed.
//   1. the Chromium the browser tests use, named in the first line (scripts/check-chromium.mjs); without
//      one, that line says what to do and nothing else runs;
//   2. side by side, at most TEST_JOBS at a time (default: the cores + 1), the longest first: the build
//      (`npm run build`), the four type checks, Biome and dependency-cruiser (`npm run lint`). None of them
//      depends on another; each one's output is printed as a block when it ends;
//   3. `vitest run` (`npm run test:unit`), its bundle budgets measured on the build of stage 2
//      (BUDGET_DIST) instead of a build of their own; with `--verify-on=URL` (.ci/run) on the PostgreSQL
//      at URL with the kept values verified (TRASA_KEPT_VERIFY=1: every hit computed again and compared),
//      so CI's server tests and OpenAPI fuzz run once, on that server, in verify mode (`--verify-on=embedded`:
//      verified, on the embedded PostgreSQL);
//   4. the browser journeys (`npm run test:e2e`, scripts/e2e.mjs), on the embedded PostgreSQL unless
//      DATABASE_URL is set (.ci/run unsets it).
// A failure fails the run; every job of the stage still ends first, and the failed ones are named at
// the end. Each job's time is printed as it ends, and the stages' times at the end.
import { spawn } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const verifyArg = process.argv.slice(2).find((a) => a.startsWith('--verify-on='));
const unknown = process.argv.slice(2).filter((a) => a !== verifyArg);
if (unknown.length > 0) {
  console.error(`npm test: unknown argument ${unknown.join(' ')} (the only one: --verify-on=POSTGRES_URL or --verify-on=embedded)`);
  process.exit(2);
}
const verifyUrl = verifyArg?.slice('--verify-on='.length);
const jobs = Math.max(1, Number(process.env.TEST_JOBS || (os.availableParallelism?.() ?? os.cpus().length) + 1));
const env = { ...process.env, PATH: `${path.join(root, 'node_modules/.bin')}${path.delimiter}${process.env.PATH ?? ''}` };
const node = process.execPath;

/** The checks of stage 2, the longest first (their CPU times: docs/performance.md "The test run"). */
const CHECKS = [
  { name: 'tsc server', cmd: 'tsc', args: ['-p', 'packages/server'] },
  { name: 'build', cmd: 'npm', args: ['run', 'build'] },
  { name: 'tsc web', cmd: 'tsc', args: ['-p', 'packages/web'] },
  { name: 'tsc e2e', cmd: 'tsc', args: ['-p', 'e2e'] },
  { name: 'lint:deps', cmd: 'npm', args: ['run', 'lint:deps'] },
  { name: 'tsc domain', cmd: 'tsc', args: ['-p', 'packages/domain'] },
  { name: 'biome', cmd: 'biome', args: ['check', '.'] },
];

const running = new Set();
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    for (const child of running) child.kill(signal);
    process.exit(130);
  });
}

const seconds = (since) => `${Math.round((Date.now() - since) / 1000)} s`;

/**
 * Runs one job. `prefix` set: its lines are printed as they come, prefixed; otherwise its output is
 * kept and printed in one block when it ends. Resolves to whether it passed.
 */
function run({ name, cmd, args, extraEnv = {}, prefix }) {
  const started = Date.now();
  const child = spawn(cmd, args, { cwd: root, env: { ...env, ...extraEnv }, stdio: ['ignore', 'pipe', 'pipe'] });
  running.add(child);
  const kept = [];
  for (const [stream, out] of [
    [child.stdout, process.stdout],
    [child.stderr, process.stderr],
  ]) {
    createInterface({ input: stream }).on('line', (line) => (prefix === undefined ? kept.push(line) : out.write(`${prefix}${line}\n`)));
  }
  return new Promise((resolve) => {
    const end = (code) => {
      running.delete(child);
      const ok = code === 0;
      console.log(`== ${name}: ${ok ? 'passed' : `FAILED (${code})`} in ${seconds(started)}`);
      if (kept.length > 0) console.log(kept.join('\n'));
      resolve(ok);
    };
    child.on('error', (error) => {
      kept.push(String(error));
      end(-1);
    });
    child.on('close', (code, signal) => end(code ?? (signal ? 1 : 0)));
  });
}

/** Runs `list` with at most `limit` at a time, in order; resolves to the names of those that failed. */
async function pool(list, limit) {
  const failed = [];
  const queue = [...list];
  const worker = async () => {
    for (let job = queue.shift(); job; job = queue.shift()) if (!(await run(job))) failed.push(job.name);
  };
  await Promise.all(Array.from({ length: Math.min(limit, list.length) }, worker));
  return failed;
}

const stages = [];
async function stage(name, body) {
  const started = Date.now();
  console.log(`\n==== ${name}`);
  const failed = await body();
  stages.push(`${name}: ${seconds(started)}`);
  if (failed.length > 0) {
    console.error(`\nnpm test: failed: ${failed.join(', ')}`);
    console.log(`stages: ${stages.join('; ')}`);
    process.exit(1);
  }
}

// Its line is the run's first; without a Chromium nothing else runs.
if (!(await run({ name: 'chromium', cmd: node, args: ['scripts/check-chromium.mjs'], prefix: '' }))) process.exit(1);
await stage(`build, types and lint (${jobs} at a time)`, () => pool(CHECKS, jobs));
const vitestEnv = { BUDGET_DIST: path.join(root, 'packages/web/dist') };
// `--verify-on=embedded`: verify mode on the embedded PostgreSQL (CI without a PostgreSQL server).
if (verifyUrl) Object.assign(vitestEnv, { TRASA_KEPT_VERIFY: '1' }, verifyUrl === 'embedded' ? {} : { DATABASE_URL: verifyUrl });
await stage(verifyUrl ? 'unit and component tests (vitest, kept values verified)' : 'unit and component tests (vitest)', async () =>
  (await run({ name: 'vitest', cmd: 'vitest', args: ['run'], extraEnv: vitestEnv, prefix: '' })) ? [] : ['vitest'],
);
await stage('browser journeys', async () =>
  (await run({ name: 'journeys', cmd: node, args: ['scripts/e2e.mjs'], prefix: '' })) ? [] : ['journeys'],
);
console.log(`\nnpm test: all passed; stages: ${stages.join('; ')}`);
