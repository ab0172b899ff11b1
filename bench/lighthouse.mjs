// Lighthouse on the web app (issue 13 item 3): Debian's Chromium, Lighthouse's default mobile preset
// (simulated slow 4G and a 4× slower CPU), 5 runs per page, medians of performance, accessibility, best
// practices, LCP and TBT, on the login page, /app/klasteri and /app/korisnici with the demo seed. Not part
// of `npm test`: a measurement, printed and written into docs/performance.md between its lighthouse
// markers, with the machine's load (the scores move with it).
//
//   npm run build && node bench/lighthouse.mjs
//   LH_DIST=.build/NAME node bench/lighthouse.mjs     # a build made aside (scripts/build-aside.sh NAME)
//   LH_RUNS=1 LH_WRITE=0 node bench/lighthouse.mjs     # a quick look, docs untouched
//   LH_MODE=profile LH_RUNS=5 node bench/lighthouse.mjs # the /app pages' first render counted, no Lighthouse
//   (LH_CPU=4: with Chromium's 4× CPU slowdown)
//   LH_MODE=styles node bench/lighthouse.mjs           # writes packages/web/src/firstStyles.{css,json}
//
// LH_MODE=profile opens each /app page (no throttling, cache cleared) until its list shows rows, and
// prints the medians of: the main thread's task, script, style and layout times (CDP Performance
// metrics), long tasks (> 50 ms), React components rendered (summed over commits, through a stand-in
// for the React DevTools hook), the CSS rules emotion inserted, and DOM elements.
//
// LH_MODE=styles opens each /app page at phone and desktop width until its list shows rows, and writes the
// rules emotion inserted for MUI's components (in their order, also those Chromium's insertRule refused,
// e.g. `::-moz-focus-inner`) into packages/web/src/firstStyles.css and their names into firstStyles.json:
// the web ships them as a stylesheet and tells emotion's cache they are inserted (src/emotionCache.ts).
//
// The server starts on a fresh database — the embedded PostgreSQL in a temporary DATA_DIR, or a new
// database on the server at DATABASE_URL — seeded with the demo data, as the journeys start it
// (e2e/support/server.mjs). The /app pages open signed in as the demo Admin: the token is put in local
// storage, and the browser's cache is cleared before each run (Lighthouse's own reset would clear the token).
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import pg from 'pg';
import puppeteer from 'puppeteer-core';

const RUNS = Number(process.env.LH_RUNS || 5);
const WRITE = process.env.LH_WRITE !== '0';
const CHROME = process.env.CHROME_PATH || '/usr/bin/chromium';
const DIST = process.env.LH_DIST ? path.resolve(process.env.LH_DIST) : null;
const SERVER_DIST = DIST ? path.join(DIST, 'server') : path.resolve('packages/server/dist');
const WEB_DIST = DIST ? path.join(DIST, 'web') : path.resolve('packages/web/dist');
const ADMIN = { email: 'ana.admin@mit.gov.rs', lozinka: 'Lozinka123' };
const ONLY = process.env.LH_PAGES?.split(',');
const ALL_PAGES = [
  { name: 'login (/)', path: '/', signedIn: false },
  { name: '/app/klasteri', path: '/app/klasteri', signedIn: true },
  { name: '/app/korisnici', path: '/app/korisnici', signedIn: true },
];
/** LH_PAGES=/app/klasteri,/ measures only those. */
const PAGES = ONLY ? ALL_PAGES.filter((p) => ONLY.includes(p.path)) : ALL_PAGES;
const DOC = 'docs/performance.md';
const START = '<!-- lighthouse:start -->';
const END = '<!-- lighthouse:end -->';

function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

async function query(url, text) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

/** The built server on a fresh, demo-seeded database; returns its base URL and stop(). */
async function startServer() {
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'trasa-lighthouse-'));
  const env = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    APP_URL: `http://127.0.0.1:${port}`,
    ADMIN_EMAIL: 'admin@trasa.test',
    ADMIN_PASSWORD: 'AdminLozinka1',
    LOG_LEVEL: 'warn',
    WEB_DIST,
  };
  let dbName;
  if (process.env.DATABASE_URL) {
    dbName = `trasa_lighthouse_${randomBytes(4).toString('hex')}`;
    await query(process.env.DATABASE_URL, `CREATE DATABASE ${dbName}`);
    const url = new URL(process.env.DATABASE_URL);
    url.pathname = `/${dbName}`;
    env.DATABASE_URL = url.toString();
  } else {
    env.EMBEDDED_PG_PORT = String(await freePort());
  }
  const cleanUp = async () => {
    if (dbName) await query(process.env.DATABASE_URL, `DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
    rmSync(dataDir, { recursive: true, force: true });
  };
  const seeded = spawnSync(process.execPath, [path.join(SERVER_DIST, 'seed-demo.js')], { env, stdio: ['ignore', 'ignore', 'inherit'] });
  if (seeded.status !== 0) {
    await cleanUp();
    throw new Error('the demo seed failed');
  }
  const server = spawn(process.execPath, [path.join(SERVER_DIST, 'main.js')], { env, stdio: ['ignore', 'ignore', 'inherit'] });
  const base = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (server.exitCode === null && server.signalCode === null) {
      server.kill('SIGTERM');
      await new Promise((r) => server.once('exit', r));
    }
    await cleanUp();
  };
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(`${base}/api/health`)).ok) break;
    } catch {}
    if (i > 480) {
      await stop();
      throw new Error('the server did not start');
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  return { base, stop };
}

async function signIn(base) {
  const res = await fetch(`${base}/api/user/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(ADMIN),
  });
  const token = (await res.json())?.token;
  if (!token) throw new Error(`sign-in as ${ADMIN.email} failed: ${res.status}`);
  return token;
}

/** One Lighthouse run (mobile preset) of a page; the signed-in pages keep their token in local storage. */
async function runOnce(browser, port, base, page, token) {
  const tab = await browser.newPage();
  try {
    const session = await tab.createCDPSession();
    await session.send('Network.clearBrowserCache');
    await tab.goto(`${base}/favicon.svg`);
    await tab.evaluate((t) => (t ? localStorage.setItem('token', t) : localStorage.clear()), page.signedIn ? token : null);
    const flags = {
      port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: ['performance', 'accessibility', 'best-practices'],
      // Lighthouse's own storage reset would also remove the token: the cache was cleared above instead.
      disableStorageReset: page.signedIn,
    };
    const result = await lighthouse(`${base}${page.path}`, flags, undefined, tab);
    const lhr = result?.lhr;
    if (!lhr) throw new Error(`no Lighthouse result for ${page.path}`);
    if (lhr.runtimeError) throw new Error(`${page.path}: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
    // LH_SAVE=dir keeps each run's whole report (e.g. to read bootup-time and long-tasks).
    if (process.env.LH_SAVE) {
      const { mkdirSync, writeFileSync } = await import('node:fs');
      mkdirSync(process.env.LH_SAVE, { recursive: true });
      writeFileSync(path.join(process.env.LH_SAVE, `${page.path.replace(/\W+/g, '_') || 'root'}-${Date.now()}.json`), JSON.stringify(lhr));
    }
    const finalPath = new URL(lhr.finalDisplayedUrl).pathname;
    if (finalPath !== page.path) throw new Error(`${page.path} ended on ${finalPath}: not signed in?`);
    const score = (id) => Math.round((lhr.categories[id]?.score ?? 0) * 100);
    const failed = (id) =>
      lhr.categories[id].auditRefs.filter((ref) => ref.weight > 0 && (lhr.audits[ref.id]?.score ?? 1) < 1).map((ref) => ref.id);
    const failing = [...failed('accessibility'), ...failed('best-practices')];
    for (const id of failing) {
      const items = lhr.audits[id]?.details?.items ?? [];
      console.log(`  ${page.path} ${id}: ${JSON.stringify(items).slice(0, Number(process.env.LH_DETAIL || 600))}`);
    }
    return {
      performance: score('performance'),
      accessibility: score('accessibility'),
      bestPractices: score('best-practices'),
      lcp: lhr.audits['largest-contentful-paint']?.numericValue ?? Number.NaN,
      tbt: lhr.audits['total-blocking-time']?.numericValue ?? Number.NaN,
      // The main thread's work by category (Lighthouse's 'mainthread-work-breakdown', under its 4× slowdown).
      work: Object.fromEntries((lhr.audits['mainthread-work-breakdown']?.details?.items ?? []).map((item) => [item.group, item.duration])),
      failing,
    };
  } finally {
    await tab.close();
  }
}

/** Before any script of the page: records the text of every rule inserted into emotion's (non-global) sheets. */
function recordEmotionRules() {
  const rules = [];
  window.__emotionRules = rules;
  const insertRule = CSSStyleSheet.prototype.insertRule;
  CSSStyleSheet.prototype.insertRule = function (rule, index) {
    if (this.ownerNode?.getAttribute('data-emotion') === 'css') rules.push(rule);
    return insertRule.call(this, rule, index);
  };
}

/** The rules emotion inserted on the way to a signed-in page's rows, at one width. */
async function emotionRulesOf(browser, base, page, token, width) {
  const tab = await browser.newPage();
  try {
    await tab.setViewport({ width, height: 844 });
    await tab.goto(`${base}/favicon.svg`);
    await tab.evaluate((t) => localStorage.setItem('token', t), token);
    await tab.evaluateOnNewDocument(recordEmotionRules);
    await tab.goto(`${base}${page.path}`);
    await tab.waitForFunction(
      () => document.querySelectorAll('main table tbody tr').length > 1 && !document.querySelector('main table[aria-busy="true"]'),
      { timeout: 60_000, polling: 50 },
    );
    await new Promise((r) => setTimeout(r, 1500));
    return await tab.evaluate(() => window.__emotionRules);
  } finally {
    await tab.close();
  }
}

/**
 * Writes the rules of the signed-in pages' first visit (both widths) into packages/web/src/firstStyles.css,
 * in the order emotion inserted them, and the names of their styles (`css-NAME` classes, `animation-…`
 * keyframes) into firstStyles.json. Every rule of a name is inserted together, so a name listed has all
 * its rules in the file.
 */
async function writeFirstStyles(browser, base, token) {
  const rules = [];
  const seen = new Set();
  for (const page of PAGES.filter((p) => p.signedIn)) {
    for (const width of [390, 1280]) {
      for (const rule of await emotionRulesOf(browser, base, page, token, width)) {
        if (seen.has(rule)) continue;
        seen.add(rule);
        rules.push(rule);
      }
    }
  }
  const names = new Set();
  for (const rule of rules) {
    const name = /^@keyframes (animation-[\w-]+)/.exec(rule)?.[1] ?? /\.css-([a-z0-9]+)/.exec(rule)?.[1];
    if (name) names.add(name);
  }
  const dir = path.resolve('packages/web/src');
  writeFileSync(path.join(dir, 'firstStyles.css'), `${rules.join('\n')}\n`);
  writeFileSync(path.join(dir, 'firstStyles.json'), `${JSON.stringify([...names])}\n`);
  console.log(`firstStyles: ${rules.length} rules, ${names.size} names`);
}

const MODE = process.env.LH_MODE || 'lighthouse';

/** Before any script of the page: counts React's renders per commit and the page's long tasks. */
function instrument() {
  const counts = { commits: 0, rendered: 0, mounted: 0, longTasks: 0, longTaskMs: 0, perCommit: [] };
  window.__renderCounts = counts;
  // Function, class, forwardRef, memo and simple memo components: React sets PerformedWork (1) on those it rendered.
  const COMPOSITE = new Set([0, 1, 11, 14, 15]);
  let previous = new WeakSet();
  window.__REACT_DEVTOOLS_GLOBAL_HOOK__ = {
    supportsFiber: true,
    renderers: new Map(),
    inject(renderer) {
      this.renderers.set(1, renderer);
      return 1;
    },
    onScheduleFiberRoot() {},
    onCommitFiberRoot(_id, root) {
      counts.commits++;
      const renderedBefore = counts.rendered;
      let mounted = 0;
      const seen = new WeakSet();
      const stack = [root.current];
      while (stack.length) {
        const fiber = stack.pop();
        seen.add(fiber);
        if (COMPOSITE.has(fiber.tag)) {
          mounted++;
          // A subtree React skipped keeps the same fiber objects and their old flags: not counted again.
          if (fiber.flags & 1 && !previous.has(fiber)) counts.rendered++;
        }
        if (fiber.sibling) stack.push(fiber.sibling);
        if (fiber.child) stack.push(fiber.child);
      }
      counts.mounted = mounted;
      counts.perCommit.push(counts.rendered - renderedBefore);
      previous = seen;
    },
    onCommitFiberUnmount() {},
    onPostCommitFiberRoot() {},
    checkDCE() {},
  };
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      counts.longTasks++;
      counts.longTaskMs += entry.duration;
    }
  }).observe({ type: 'longtask', buffered: true });
}

/** One visit of a signed-in page until its list shows rows: the main thread's work and what rendered. */
async function profileOnce(browser, base, page, token) {
  const tab = await browser.newPage();
  try {
    await tab.setViewport({ width: 1366, height: 768 });
    const session = await tab.createCDPSession();
    await session.send('Network.clearBrowserCache');
    await tab.goto(`${base}/favicon.svg`);
    await tab.evaluate((t) => localStorage.setItem('token', t), token);
    await tab.evaluateOnNewDocument(instrument);
    // LH_CPU=4: Chromium's CPU slowdown, as Lighthouse's mobile preset.
    if (process.env.LH_CPU) await session.send('Emulation.setCPUThrottlingRate', { rate: Number(process.env.LH_CPU) });
    await session.send('Performance.enable', { timeDomain: 'threadTicks' });
    const before = Object.fromEntries((await session.send('Performance.getMetrics')).metrics.map((m) => [m.name, m.value]));
    const started = Date.now();
    await tab.goto(`${base}${page.path}`);
    await tab.waitForFunction(
      () => document.querySelectorAll('main table tbody tr').length > 1 && !document.querySelector('main table[aria-busy="true"]'),
      {
        timeout: 60_000,
        polling: 50,
      },
    );
    const shownMs = Date.now() - started;
    // Let what the first render started (effects, transitions) finish.
    await new Promise((r) => setTimeout(r, 1500));
    const after = Object.fromEntries((await session.send('Performance.getMetrics')).metrics.map((m) => [m.name, m.value]));
    const ms = (name) => (after[name] - (before[name] ?? 0)) * 1000;
    const page_ = await tab.evaluate(() => {
      let emotionRules = 0;
      const emotionTags = document.querySelectorAll('style[data-emotion]');
      for (const style of emotionTags) emotionRules += style.sheet?.cssRules.length ?? 0;
      return {
        ...window.__renderCounts,
        emotionTags: emotionTags.length,
        emotionRules,
        elements: document.getElementsByTagName('*').length,
      };
    });
    return {
      shownMs,
      taskMs: ms('TaskDuration'),
      scriptMs: ms('ScriptDuration'),
      styleMs: ms('RecalcStyleDuration'),
      layoutMs: ms('LayoutDuration'),
      ...page_,
    };
  } finally {
    await tab.close();
  }
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' / ');

// As `npm run build` leaves it: the assets precompressed (a build made aside is not).
if (!readdirSync(path.join(WEB_DIST, 'assets')).some((f) => f.endsWith('.br'))) {
  spawnSync(process.execPath, ['packages/web/scripts/precompress.mjs', WEB_DIST], { stdio: 'inherit' });
}

const loadBefore = load();
const { base, stop } = await startServer();
const chrome = await chromeLauncher.launch({
  chromePath: CHROME,
  chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run'],
});
const rows = [];
try {
  const browser = await puppeteer.connect({ browserURL: `http://127.0.0.1:${chrome.port}`, defaultViewport: null });
  const token = await signIn(base);
  if (MODE === 'styles') {
    await writeFirstStyles(browser, base, token);
    await browser.disconnect();
    PAGES.length = 0;
  }
  if (MODE === 'profile') {
    for (const page of PAGES.filter((p) => p.signedIn)) {
      const runs = [];
      for (let i = 0; i < RUNS; i++) runs.push(await profileOnce(browser, base, page, token));
      if (process.env.LH_DETAIL)
        console.log(`  ${page.path} components rendered per commit: ${runs.map((r) => r.perCommit.join('+')).join('; ')}`);
      for (const run of runs) delete run.perCommit;
      const keys = Object.keys(runs[0]);
      const med = Object.fromEntries(keys.map((k) => [k, Math.round(median(runs.map((r) => r[k])))]));
      console.log(`${page.name} (median of ${RUNS}, load ${load()}): ${keys.map((k) => `${k} ${med[k]}`).join(', ')}`);
    }
    await browser.disconnect();
    PAGES.length = 0;
  }
  for (const page of PAGES) {
    const runs = [];
    for (let i = 0; i < RUNS; i++) {
      // Under load Chromium's trace sometimes misses the navigation (NO_NAVSTART): such a run is repeated.
      let run;
      for (let attempt = 1; !run; attempt++) {
        try {
          run = await runOnce(browser, chrome.port, base, page, token);
        } catch (error) {
          if (attempt >= 3 || !/NO_NAVSTART|NO_FCP|PROTOCOL_TIMEOUT/.test(String(error))) throw error;
          console.log(`  ${page.path}: ${String(error).split('\n')[0]}; again`);
        }
      }
      console.log(
        `${page.name} run ${i + 1}: performance ${run.performance}, accessibility ${run.accessibility}, best practices ${run.bestPractices}, LCP ${Math.round(run.lcp)} ms, TBT ${Math.round(run.tbt)} ms${run.failing.length ? `; failing: ${run.failing.join(', ')}` : ''}`,
      );
      runs.push(run);
    }
    rows.push({
      page: page.name,
      performance: median(runs.map((r) => r.performance)),
      accessibility: median(runs.map((r) => r.accessibility)),
      bestPractices: median(runs.map((r) => r.bestPractices)),
      lcp: median(runs.map((r) => r.lcp)),
      tbt: median(runs.map((r) => r.tbt)),
      failing: [...new Set(runs.flatMap((r) => r.failing))],
    });
    const groups = [...new Set(runs.flatMap((r) => Object.keys(r.work)))];
    console.log(
      `  main thread (median ms, 4× slowdown): ${groups.map((g) => `${g} ${Math.round(median(runs.map((r) => r.work[g] ?? 0)))}`).join(', ')}`,
    );
  }
  await browser.disconnect();
} finally {
  chrome.kill();
  await stop();
}
const loadAfter = load();

if (MODE === 'profile' || MODE === 'styles') process.exit(0);
const version = JSON.parse(readFileSync(new URL('../node_modules/lighthouse/package.json', import.meta.url), 'utf8')).version;
const chromium = spawnSync(CHROME, ['--version'], { encoding: 'utf8' }).stdout.trim();
const table = [
  `Measured ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC: Lighthouse ${version}, ${chromium}, mobile preset, median of ${RUNS} run(s); ${os.cpus().length} cores, load average (1 / 5 / 15 min) ${loadBefore} before and ${loadAfter} after.`,
  '',
  '| page | performance | accessibility | best practices | LCP | TBT | audits not passed (any run) |',
  '| --- | ---: | ---: | ---: | ---: | ---: | --- |',
  ...rows.map(
    (r) =>
      `| ${r.page} | ${r.performance} | ${r.accessibility} | ${r.bestPractices} | ${(r.lcp / 1000).toFixed(1)} s | ${Math.round(r.tbt)} ms | ${r.failing.join(', ') || '—'} |`,
  ),
].join('\n');
console.log(`\n${table}`);

if (WRITE) {
  const doc = readFileSync(DOC, 'utf8');
  const from = doc.indexOf(START);
  const to = doc.indexOf(END);
  if (from < 0 || to < from) throw new Error(`${DOC} has no ${START} … ${END} section`);
  writeFileSync(DOC, `${doc.slice(0, from)}${START}\n${table}\n${doc.slice(to)}`);
  console.log(`written into ${DOC}`);
}
