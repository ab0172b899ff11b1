import net from 'node:net';
import react from '@vitejs/plugin-react';
import { playwright } from '@vitest/browser-playwright';
import { defineConfig } from 'vitest/config';
import { CHROMIUM_ARGS, chromiumPathSync } from './scripts/chromium.mjs';

/** A port free now, for the real server the web's component tests call (packages/server/test/webComponentsServer.ts). */
async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (address && typeof address === 'object' ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

process.env.WEB_TEST_API_PORT ||= String(await freePort());
/**
 * The web-components project's launch options. Its Chromium is the journeys' (scripts/chromium.mjs:
 * CHROMIUM_PATH, Debian's, else npm's @sparticuz/chromium, unpacked on first use), looked for only when
 * that project is set up (its options merged, its browser launched), not when this file is loaded: a run
 * of the other projects (`vitest run --project server`) never looks for it. When none can be had, the
 * reason is printed, the other projects still run and this one fails on its launch, naming the path.
 */
const launchOptions = {
  args: CHROMIUM_ARGS,
  get executablePath(): string {
    if (chromium === undefined) {
      try {
        chromium = chromiumPathSync();
      } catch (error) {
        console.error(`web-components: no Chromium (${error instanceof Error ? error.message : error})`);
        chromium = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
      }
    }
    return chromium;
  },
};
let chromium: string | undefined;
const apiPort = Number(process.env.WEB_TEST_API_PORT);

export default defineConfig({
  test: {
    // Two workers on CI's two cores: the server tests mostly wait on PostgreSQL, and each test file has
    // its own database, so files run side by side safely (vitest's default here is one worker).
    maxWorkers: Number(process.env.VITEST_WORKERS || 2),
    projects: [
      {
        test: { name: 'domain', include: ['packages/domain/src/**/*.test.ts'], environment: 'node' },
      },
      {
        // Budgets over the web build (it builds into a temporary folder unless BUDGET_DIST names one).
        test: {
          name: 'web',
          include: ['packages/web/scripts/**/*.test.ts'],
          environment: 'node',
          testTimeout: 30_000,
          hookTimeout: 600_000,
        },
      },
      {
        test: {
          name: 'server',
          // A worker's test files share their imported modules (each still has its own database and app):
          // importing the server's modules again for every file was 100 of the pass's 245 s
          // (docs/decisions.md "Tests and CI").
          isolate: false,
          include: ['packages/server/src/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['packages/server/test/globalSetup.ts'],
          setupFiles: ['packages/server/test/noNetwork.ts'],
          // A limit against hangs, not a measure of speed: enumerations are split into cases of a few
          // seconds, but a case that hashes passwords in sequence (the sign-in throttling: some 20 scrypt
          // hashes of ~0.4 s of a core each) took 30 s with two CPU burners beside the run on an already busy machine.
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
      {
        // The web's components in Chromium (the journeys' browser and flags), calling the real server
        // (packages/server/test/webComponentsServer.ts) through the Vite server's /api proxy, as `vite` does in development.
        plugins: [react()],
        server: { proxy: { '/api': { target: `http://127.0.0.1:${apiPort}`, changeOrigin: false } } },
        // Modules the screens import lazily (the date pickers): bundled before the first test, not by a
        // reload in the middle of one.
        optimizeDeps: {
          include: [
            '@mui/x-date-pickers/AdapterDayjs',
            '@mui/x-date-pickers/DesktopDatePicker',
            '@mui/x-date-pickers/DesktopDateTimePicker',
            '@mui/x-date-pickers/LocalizationProvider',
            'dayjs',
            'dayjs/locale/sr',
            'dayjs/locale/sr-cyrl',
            'dayjs/plugin/customParseFormat',
          ],
        },
        test: {
          name: 'web-components',
          include: ['packages/web/src/**/*.test.tsx'],
          globalSetup: ['packages/server/test/webComponentsServer.ts'],
          testTimeout: 30_000,
          hookTimeout: 180_000,
          // As the journeys' expect: a limit against hangs (a poll ends as soon as it passes).
          expect: { poll: { timeout: 15_000 } },
          browser: {
            enabled: true,
            headless: true,
            screenshotFailures: false,
            provider: playwright({
              contextOptions: { locale: 'sr-RS' },
              launchOptions,
            }),
            // A desktop window, as the journeys' (a test that needs a phone sets page.viewport itself).
            viewport: { width: 1280, height: 800 },
            instances: [{ browser: 'chromium' }],
          },
        },
      },
    ],
  },
});
