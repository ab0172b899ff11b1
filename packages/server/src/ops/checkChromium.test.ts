import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

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
    expect(scripts.test?.startsWith('node scripts/check-chromium.mjs && ')).toBe(true);
    expect(scripts['test:e2e']?.startsWith('node scripts/check-chromium.mjs && ')).toBe(true);
    expect(scripts['test:unit']).not.toContain('check-chromium');
  });
});
