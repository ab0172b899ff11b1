import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { chromiumPathSync, isExecutable, resolveChromium } from '../../../../scripts/chromium.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
const check = (chromium: string) =>
  spawnSync(process.execPath, ['scripts/check-chromium.mjs'], {
    cwd: root,
    env: { ...process.env, CHROMIUM_PATH: chromium },
    encoding: 'utf8',
  });

describe('npm test without Chromium (issue 12, finding 17)', () => {
  it('says so in one line with the install command, before anything else runs', () => {
    const missing = check('/nonexistent/chromium');
    expect(missing.status).toBe(1);
    const lines = missing.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('apt-get install chromium');
    expect(lines[0]).toContain('/nonexistent/chromium');
    expect(check(process.execPath).status).toBe(0);
  });

  it('runs first in `npm test` and before the journeys, not in the unit tests', () => {
    const scripts = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).scripts as Record<string, string>;
    expect(scripts.test).toBe('node scripts/test.mjs');
    // npm test (scripts/test.mjs) stops on it before its first job: no build, no type check, no lint.
    const run = spawnSync(process.execPath, ['scripts/test.mjs'], {
      cwd: root,
      env: { ...process.env, CHROMIUM_PATH: '/nonexistent/chromium' },
      encoding: 'utf8',
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('apt-get install chromium');
    expect(run.stdout).not.toContain('==== build');
    expect(run.stdout).not.toMatch(/== (build|tsc|biome|lint)/);
    expect(scripts['test:e2e']?.startsWith('node scripts/check-chromium.mjs && ')).toBe(true);
    expect(scripts['test:unit']).not.toContain('check-chromium');
  });
});

describe("the journeys' Chromium (scripts/chromium.mjs)", () => {
  const executable = process.execPath;
  const missing = '/nonexistent/chromium';
  const npmNotAsked = async () => {
    throw new Error('the npm package was asked');
  };

  it('is CHROMIUM_PATH first, even with a system Chromium there; a wrong one is an error, not skipped', async () => {
    expect(await resolveChromium({ env: { CHROMIUM_PATH: executable }, system: executable, packaged: npmNotAsked })).toEqual({
      path: executable,
      source: 'CHROMIUM_PATH',
    });
    await expect(resolveChromium({ env: { CHROMIUM_PATH: missing }, system: executable, packaged: npmNotAsked })).rejects.toThrow(
      `CHROMIUM_PATH=${missing} is not an executable file`,
    );
    // A folder is not a browser.
    await expect(resolveChromium({ env: { CHROMIUM_PATH: root }, system: executable, packaged: npmNotAsked })).rejects.toThrow(
      'not an executable file',
    );
  });

  it("is the system's Chromium next, without unpacking the npm one", async () => {
    expect(await resolveChromium({ env: {}, system: executable, packaged: npmNotAsked })).toEqual({ path: executable, source: 'system' });
  });

  it("is @sparticuz/chromium's headless Chromium when there is no other, and runs", async () => {
    const found = await resolveChromium({ env: {}, system: missing });
    expect(found.source).toBe('npm');
    expect(isExecutable(found.path)).toBe(true);
    const version = spawnSync(found.path, ['--version'], { encoding: 'utf8' });
    expect(version.stdout).toMatch(/^Chromium 147\./);
  });

  it('says why when there is none at all', async () => {
    await expect(
      resolveChromium({
        env: {},
        system: missing,
        packaged: async () => {
          throw new Error('no space left');
        },
      }),
    ).rejects.toThrow(`no Chromium at ${missing}, and @sparticuz/chromium gave none (no space left)`);
    await expect(resolveChromium({ env: {}, system: missing, packaged: async () => missing })).rejects.toThrow('is not executable');
  });

  it('is the same path in its synchronous form (playwright.config.ts)', async () => {
    const saved = process.env.CHROMIUM_PATH;
    delete process.env.CHROMIUM_PATH;
    try {
      expect(chromiumPathSync()).toBe((await resolveChromium()).path);
    } finally {
      if (saved !== undefined) process.env.CHROMIUM_PATH = saved;
    }
  });
});
