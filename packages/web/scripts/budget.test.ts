import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error: a plain ES module of the build scripts, without types
import { LOGIN_CEILING, measure, SCREEN_CEILING } from './budget.mjs';

type Measured = {
  login: { files: [string, number][]; bytes: number };
  shell: number;
  screens: { name: string; bytes: number }[];
};

const web = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/**
 * Budgets over the web build (issue 13 item 2), measured as the browser downloads it: gzip bytes of the
 * JavaScript that index.html loads for the login page, and of every lazily loaded screen with the shell
 * and the chunks they share. BUDGET_DIST measures a build made beforehand; otherwise the test builds one.
 */
describe('web bundle budgets', () => {
  let dist = process.env.BUDGET_DIST ?? '';
  let made = '';
  let m: Measured;

  beforeAll(() => {
    if (!dist) {
      made = mkdtempSync(path.join(os.tmpdir(), 'trasa-budget-'));
      dist = made;
      execFileSync(
        process.execPath,
        [path.join(web, '../../node_modules/vite/bin/vite.js'), 'build', '--outDir', made, '--emptyOutDir', '--logLevel', 'error'],
        {
          cwd: web,
          stdio: 'inherit',
          // Not vitest's environment (NODE_ENV 'test', MODE, DEV…): React's development build would be measured.
          env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', NODE_ENV: 'production' },
        },
      );
    }
    m = measure(dist) as Measured;
  });

  afterAll(() => {
    if (made) rmSync(made, { recursive: true, force: true });
  });

  it('the login page loads no screen, no shell, no MUI and no table or spreadsheet library', () => {
    const names = m.login.files.map(([name]) => name);
    expect(names.filter((n) => /^(FullApp|AppShell|application|table|DialogGuard|SideMenu|mui|xlsx|.*Page)-/.test(n))).toEqual([]);
    expect(m.screens.length).toBeGreaterThan(20);
  });

  it('the login page stays within its budget', () => {
    expect(m.login.bytes).toBeLessThanOrEqual(LOGIN_CEILING);
  });

  it('every screen with its shared chunks stays within its budget', () => {
    const over = m.screens.filter((s) => s.bytes > SCREEN_CEILING).map((s) => `${s.name}: ${Math.round(s.bytes / 1024)} KB`);
    expect(over).toEqual([]);
  });
});
