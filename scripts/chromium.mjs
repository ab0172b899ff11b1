#!/usr/bin/env node
// The one place that says which Chromium the browser journeys (playwright.config.ts, scripts/e2e.mjs,
// scripts/check-chromium.mjs) and Lighthouse (bench/lighthouse.mjs) run, in this order:
//   1. CHROMIUM_PATH, when set (it must be an executable file: a wrong one is an error, not skipped);
//   2. Debian's Chromium at /usr/bin/chromium, when it is executable;
//   3. the headless Chromium that npm installs with the devDependency @sparticuz/chromium: its packed
//      binary is unpacked into the temporary folder (/tmp/chromium, with /tmp/fonts and the SwiftShader
//      libraries) on first use, about 2 s, and used from there afterwards.
// Only the binary is taken from @sparticuz/chromium, not its launch flags (`chromium.args`: those are for
// AWS Lambda, e.g. --single-process and --disable-web-security); playwright.config.ts keeps its own.
// Run as a script it prints the path (exit 1 with the reason on stderr when there is none): the
// synchronous form below uses that, for playwright.config.ts, which cannot wait for a promise.
import { spawnSync } from 'node:child_process';
import { accessSync, constants, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const SYSTEM_CHROMIUM = '/usr/bin/chromium';
export const NPM_CHROMIUM = '@sparticuz/chromium';

/**
 * The flags every test Chromium starts with (the journeys' and the component tests'): our own, not
 * @sparticuz/chromium's Lambda ones; without the background-networking ones a closed network refuses its calls.
 */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/** Whether `file` is a regular file this process may execute. */
export function isExecutable(file) {
  try {
    accessSync(file, constants.X_OK);
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

/** @sparticuz/chromium's binary, unpacked into the temporary folder on its first call. */
async function npmChromium() {
  const { default: chromium } = await import(NPM_CHROMIUM);
  return chromium.executablePath();
}

/**
 * The Chromium to use, with where it came from. `env`, `system` and `packaged` are parameters so that the
 * order can be tested; callers use the defaults.
 * @param {{ env?: Record<string, string | undefined>, system?: string, packaged?: () => Promise<string> }} [options]
 * @returns {Promise<{ path: string, source: 'CHROMIUM_PATH' | 'system' | 'npm' }>}
 */
export async function resolveChromium({ env = process.env, system = SYSTEM_CHROMIUM, packaged = npmChromium } = {}) {
  const given = env.CHROMIUM_PATH;
  if (given) {
    if (!isExecutable(given)) throw new Error(`CHROMIUM_PATH=${given} is not an executable file`);
    return { path: given, source: 'CHROMIUM_PATH' };
  }
  if (isExecutable(system)) return { path: system, source: 'system' };
  let path;
  try {
    path = await packaged();
  } catch (error) {
    throw new Error(`no Chromium at ${system}, and ${NPM_CHROMIUM} gave none (${error instanceof Error ? error.message : error})`);
  }
  if (!isExecutable(path)) throw new Error(`no Chromium at ${system}, and ${NPM_CHROMIUM}'s ${path} is not executable`);
  return { path, source: 'npm' };
}

/** What `source` means, for a report line. */
export function describeSource(source) {
  return {
    CHROMIUM_PATH: 'CHROMIUM_PATH',
    system: "Debian's chromium package",
    npm: `npm's ${NPM_CHROMIUM}`,
  }[source];
}

/**
 * The same path, synchronously: CHROMIUM_PATH as it is when set (scripts/e2e.mjs sets it once for its
 * shards), else this file run as a script. Throws with the reason when there is no Chromium.
 */
export function chromiumPathSync() {
  if (process.env.CHROMIUM_PATH) return process.env.CHROMIUM_PATH;
  const run = spawnSync(process.execPath, [fileURLToPath(import.meta.url)], { encoding: 'utf8' });
  if (run.status !== 0) throw new Error(run.stderr.trim() || `${fileURLToPath(import.meta.url)} exited ${run.status}`);
  return run.stdout.trim();
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  try {
    console.log((await resolveChromium()).path);
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(1);
  }
}
