// Lighthouse on the web app (issue 13 item 3): the journeys' Chromium (scripts/chromium.mjs), Lighthouse's default mobile preset
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
//   LH_DIST=.build/a,.build/b node bench/lighthouse.mjs # several builds, their runs in turns (a, b, a, b …)
//   LH_MODE=trace LH_DIST=.build/a,.build/b LH_DETAIL=1 [LH_PROFILE=1] node bench/lighthouse.mjs
//                                                       # the main thread's tasks by thread time, in turns
//
// LH_MODE=trace counts each task of the /app page's main thread by its thread time (the CPU it got, which
// the machine's other work stretches far less than the wall time Lighthouse measures) and prints `tbt4`,
// Lighthouse's TBT formula on it at 4×, beside the wall-time one (`wtbt4`), the requests, and with
// LH_DETAIL what the longest tasks did (LH_PROFILE: their JavaScript samples).
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
import { resolveChromium } from '../scripts/chromium.mjs';

const RUNS = Number(process.env.LH_RUNS || 5);
const WRITE = process.env.LH_WRITE !== '0';
// CHROME_PATH, else the journeys' Chromium (scripts/chromium.mjs: CHROMIUM_PATH, /usr/bin/chromium, @sparticuz/chromium).
const CHROME = process.env.CHROME_PATH || (await resolveChromium()).path;
// LH_MODE=trace takes several builds (LH_DIST=.build/a,.build/b) and measures them in turns.
const DISTS = process.env.LH_DIST ? process.env.LH_DIST.split(',').map((d) => path.resolve(d)) : [null];
const DIST = DISTS[0];
const SERVER_DIST = DIST ? path.join(DIST, 'server') : path.resolve('packages/server/dist');
const WEB_DIST = DIST ? path.join(DIST, 'web') : path.resolve('packages/web/dist');
const ADMIN = { email: 'ana.admin@mit.gov.rs', lozinka: 'Lozinka123' };
const ONLY = process.env.LH_PAGES?.split(',');
const ALL_PAGES = [
  { name: 'login (/)', path: '/', signedIn: false },
  { name: '/app/klasteri', path: '/app/klasteri', signedIn: true },
  { name: '/app/korisnici', path: '/app/korisnici', signedIn: true },
  { name: '/app/izvestaji', path: '/app/izvestaji', signedIn: true },
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
async function startServer(serverDist = SERVER_DIST, webDist = WEB_DIST) {
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
    WEB_DIST: webDist,
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
  const seeded = spawnSync(process.execPath, [path.join(serverDist, 'seed-demo.js')], { env, stdio: ['ignore', 'ignore', 'inherit'] });
  if (seeded.status !== 0) {
    await cleanUp();
    throw new Error('the demo seed failed');
  }
  const server = spawn(process.execPath, [path.join(serverDist, 'main.js')], { env, stdio: ['ignore', 'ignore', 'inherit'] });
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
      lhr,
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

/**
 * LH_MODE=trace: one visit of a signed-in page (no throttling, cache cleared, phone width) until its list
 * shows rows and 1.5 s more, with a Chromium trace. Each task of the page's main thread is counted by its
 * thread time (`tdur`, the CPU the thread got, which the other processes on the machine change far less
 * than the wall time Lighthouse measures): `tbt4` is Lighthouse's TBT formula on it, Σ max(0, 4 × task − 50 ms)
 * over every task (also those before the first paint), `long4` the tasks over 50 ms at 4×; plus requests.
 */
async function traceOnce(browser, base, page, token) {
  const tab = await browser.newPage();
  try {
    await tab.setViewport({ width: 412, height: 823, isMobile: true, deviceScaleFactor: 1.75 });
    const session = await tab.createCDPSession();
    await session.send('Network.clearBrowserCache');
    await tab.goto(`${base}/favicon.svg`);
    await tab.evaluate((t) => localStorage.setItem('token', t), token);
    let requests = 0;
    tab.on('request', () => requests++);
    await tab.tracing.start({
      categories: [
        'devtools.timeline',
        'disabled-by-default-devtools.timeline',
        'toplevel',
        'v8.execute',
        'blink.user_timing',
        'loading',
        // LH_PROFILE=1: the JavaScript samples of each long task (what ran in it), a little slower.
        ...(process.env.LH_PROFILE ? ['disabled-by-default-v8.cpu_profiler'] : []),
      ],
    });
    const started = Date.now();
    await tab.goto(`${base}${page.path}`);
    await tab.waitForFunction(
      () => document.querySelectorAll('main table tbody tr').length > 1 && !document.querySelector('main table[aria-busy="true"]'),
      { timeout: 60_000, polling: 50 },
    );
    const shownMs = Date.now() - started;
    await new Promise((r) => setTimeout(r, 1500));
    const events = JSON.parse(Buffer.from(await tab.tracing.stop()).toString('utf8')).traceEvents;
    // The page's main thread: the renderer thread that evaluated the most scripts.
    const mains = new Map();
    for (const e of events)
      if (e.name === 'CrRendererMain' || (e.ph === 'M' && e.args?.name === 'CrRendererMain')) mains.set(`${e.pid}:${e.tid}`, 0);
    for (const e of events) {
      const key = `${e.pid}:${e.tid}`;
      if (mains.has(key) && (e.name === 'EvaluateScript' || e.name === 'v8.evaluateModule')) mains.set(key, mains.get(key) + 1);
    }
    const main = [...mains].sort((a, b) => b[1] - a[1])[0]?.[0];
    const onMain = events.filter((e) => `${e.pid}:${e.tid}` === main && e.ph === 'X');
    const tasks = onMain.filter((e) => e.name === 'RunTask' && e.tdur !== undefined).sort((a, b) => a.ts - b.ts);
    const ms = (us) => us / 1000;
    const t0 = events.find((e) => e.name === 'navigationStart' && `${e.pid}:${e.tid}` === main)?.ts ?? tasks[0]?.ts ?? 0;
    let cpu = 0;
    let tbt4 = 0;
    let wall = 0;
    let wtbt4 = 0;
    let long4 = 0;
    const longest = [];
    for (const t of tasks) {
      const d = ms(t.tdur);
      cpu += d;
      wall += ms(t.dur);
      if (4 * ms(t.dur) > 50) wtbt4 += 4 * ms(t.dur) - 50;
      if (4 * d > 50) {
        tbt4 += 4 * d - 50;
        long4++;
      }
      if (4 * ms(t.dur) > 50 || 4 * d > 50) longest.push(t);
    }
    // What a long task did: the outermost of the timeline's known events in it (with the script's file).
    const KNOWN = new Set([
      'EvaluateScript',
      'v8.evaluateModule',
      'v8.compileModule',
      'v8.compile',
      'FunctionCall',
      'TimerFire',
      'FireAnimationFrame',
      'ParseHTML',
      'Layout',
      'UpdateLayoutTree',
      'PrePaint',
      'Paint',
      'Layerize',
      'RunMicrotasks',
      'EventDispatch',
      'ParseAuthorStyleSheet',
      'MinorGC',
      'MajorGC',
      'ResourceSendRequest',
      'ResourceReceiveResponse',
      'ResourceFinish',
      'ResourceReceivedData',
      'HandlePostMessage',
      'XHRReadyStateChange',
      'ScheduleStyleRecalculation',
    ]);
    const taskSummary = (t) => {
      const inside = onMain
        .filter((e) => e !== t && KNOWN.has(e.name) && e.ts >= t.ts && e.ts + (e.dur ?? 0) <= t.ts + t.dur)
        .sort((a, b) => a.ts - b.ts || b.dur - a.dur);
      const by = new Map();
      let end = -1;
      let sends = 0;
      for (const e of inside) {
        if (e.name === 'ResourceSendRequest') sends++;
        if (e.ts < end) continue;
        end = e.ts + (e.dur ?? 0);
        const url = e.args?.data?.url || e.args?.data?.stackTrace?.[0]?.url || e.args?.data?.frames?.[0]?.url || '';
        const name = `${e.name}${url ? ` ${url.split('/').pop().split('?')[0]}` : ''}`;
        const v = by.get(name) ?? [0, 0];
        by.set(name, [v[0] + ms(e.tdur ?? e.dur), v[1] + ms(e.dur ?? 0)]);
      }
      const parts = [...by].sort((a, b) => b[1][1] - a[1][1]).slice(0, 5);
      return `${(4 * ms(t.tdur)).toFixed(0)}ms@4x (wall ${(4 * ms(t.dur)).toFixed(0)}) at ${((t.ts - t0) / 1000).toFixed(0)} [${parts.map(([n, v]) => `${n} ${(4 * v[0]).toFixed(0)}/${(4 * v[1]).toFixed(0)}`).join('; ')}${sends ? `; ${sends} requests sent` : ''}]`;
    };
    // LH_PROFILE: the samples (timestamps and call stacks) of the main thread's CPU profile.
    const samples = [];
    if (process.env.LH_PROFILE) {
      const [pid, tid] = main.split(':').map(Number);
      const nodes = new Map();
      let time = 0;
      // The main thread's profile: its 'Profile' event names the id its chunks carry.
      const ids = new Set(events.filter((e) => e.name === 'Profile' && e.pid === pid && e.tid === tid).map((e) => e.id));
      for (const e of events) {
        if (e.pid !== pid || !ids.has(e.id)) continue;
        if (e.name === 'Profile' && e.args?.data?.startTime) time = e.args.data.startTime;
        if (e.name !== 'ProfileChunk') continue;
        const profile = e.args?.data?.cpuProfile ?? {};
        for (const n of profile.nodes ?? []) nodes.set(n.id, n);
        const deltas = e.args.data.timeDeltas ?? [];
        (profile.samples ?? []).forEach((id, i) => {
          time += deltas[i] ?? 0;
          samples.push({ ts: time, id });
        });
      }
      const frameOf = (n) =>
        `${n.callFrame.functionName || '(anonymous)'} ${(n.callFrame.url || '').split('/').pop()}:${n.callFrame.lineNumber}`;
      const stackOf = (id) => {
        const out = [];
        for (let n = nodes.get(id); n; n = nodes.get(n.parent)) out.push(n);
        return out;
      };
      samples.profileOf = (t) => {
        const inside = samples.filter((x) => x.ts >= t.ts && x.ts <= t.ts + t.dur);
        const self = new Map();
        const total = new Map();
        for (const x of inside) {
          const stack = stackOf(x.id);
          if (!stack.length) continue;
          const top = frameOf(stack[0]);
          self.set(top, (self.get(top) ?? 0) + 1);
          for (const f of new Set(stack.map(frameOf))) total.set(f, (total.get(f) ?? 0) + 1);
        }
        const fmt = (m) =>
          [...m]
            .sort((a, b) => b[1] - a[1])
            .slice(0, 12)
            .map(([f, c]) => `${f} ${c}`)
            .join(' | ');
        return `\n      samples ${inside.length}; self: ${fmt(self)}\n      total: ${fmt(new Map([...total].filter(([f]) => !/^\(root\)|^\(program\)/.test(f))))}`;
      };
    }
    const detail = longest
      .sort((a, b) => b.dur - a.dur)
      .slice(0, Number(process.env.LH_TOP || 6))
      .map((t) => taskSummary(t) + (samples.profileOf ? samples.profileOf(t) : ''));
    return {
      shownMs,
      cpu4: Math.round(4 * cpu),
      tbt4: Math.round(tbt4),
      long4,
      wall4: Math.round(4 * wall),
      wtbt4: Math.round(wtbt4),
      requests,
      detail,
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

/**
 * Several builds (LH_DIST=.build/a,.build/b): each on its own server, their Lighthouse runs taken in turns
 * (a, b, a, b …) so that both meet the same load; prints each run and each build's medians, writes nothing.
 */
async function compareBuilds() {
  const builds = [];
  for (const dist of DISTS) {
    const server = await startServer(path.join(dist, 'server'), path.join(dist, 'web'));
    builds.push({ name: path.basename(dist), ...server, token: await signIn(server.base), runs: new Map() });
  }
  const chrome = await chromeLauncher.launch({
    chromePath: CHROME,
    chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run'],
  });
  const detail = (lhr) => {
    const a = lhr.audits;
    const requests = a['network-requests']?.details?.items?.length ?? 0;
    return {
      requests,
      mainThread: Math.round(a['mainthread-work-breakdown']?.numericValue ?? 0),
      bootup: Math.round(a['bootup-time']?.numericValue ?? 0),
    };
  };
  try {
    const browser = await puppeteer.connect({ browserURL: `http://127.0.0.1:${chrome.port}`, defaultViewport: null });
    for (let i = 0; i < RUNS; i++) {
      for (const page of PAGES) {
        for (const build of builds) {
          let run;
          for (let attempt = 1; !run; attempt++) {
            try {
              run = await runOnce(browser, chrome.port, build.base, page, build.token);
            } catch (error) {
              if (attempt >= 3 || !/NO_NAVSTART|NO_FCP|PROTOCOL_TIMEOUT/.test(String(error))) throw error;
            }
          }
          Object.assign(run, detail(run.lhr));
          delete run.lhr;
          const key = `${build.name} ${page.path}`;
          if (!build.runs.has(key)) build.runs.set(key, []);
          build.runs.get(key).push(run);
          console.log(
            `${key} run ${i + 1} (load ${load()}): performance ${run.performance}, LCP ${Math.round(run.lcp)}, TBT ${Math.round(run.tbt)}, main thread ${run.mainThread}, bootup ${run.bootup}, requests ${run.requests}, a11y ${run.accessibility}, bp ${run.bestPractices}`,
          );
        }
      }
    }
    for (const page of PAGES) {
      for (const build of builds) {
        const runs = build.runs.get(`${build.name} ${page.path}`);
        const med = (k) => Math.round(median(runs.map((r) => r[k])));
        console.log(
          `${build.name} ${page.path} median of ${runs.length}: performance ${med('performance')}, LCP ${med('lcp')}, TBT ${med('tbt')}, main thread ${med('mainThread')}, bootup ${med('bootup')}, requests ${med('requests')}, a11y ${med('accessibility')}, bp ${med('bestPractices')}`,
        );
      }
    }
    await browser.disconnect();
  } finally {
    chrome.kill();
    for (const build of builds) await build.stop();
  }
  console.log(`load ${loadBefore} before, ${load()} after`);
}

/** LH_MODE=trace: every build of LH_DIST (or the regular one) on its own server, measured in turns. */
async function traceBuilds() {
  const builds = [];
  for (const dist of DISTS) {
    const webDist = dist ? path.join(dist, 'web') : WEB_DIST;
    const server = await startServer(dist ? path.join(dist, 'server') : SERVER_DIST, webDist);
    builds.push({ name: dist ? path.basename(dist) : 'dist', ...server, token: await signIn(server.base), runs: new Map() });
  }
  const chrome = await chromeLauncher.launch({
    chromePath: CHROME,
    chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run'],
  });
  try {
    const browser = await puppeteer.connect({ browserURL: `http://127.0.0.1:${chrome.port}`, defaultViewport: null });
    for (let i = 0; i < RUNS; i++) {
      for (const build of builds) {
        for (const page of PAGES.filter((p) => p.signedIn)) {
          const run = await traceOnce(browser, build.base, page, build.token);
          const key = `${build.name} ${page.path}`;
          if (!build.runs.has(key)) build.runs.set(key, []);
          build.runs.get(key).push(run);
          console.log(
            `${key} run ${i + 1} (load ${load()}): cpu4 ${run.cpu4}, tbt4 ${run.tbt4}, long4 ${run.long4}, wall4 ${run.wall4}, wtbt4 ${run.wtbt4}, requests ${run.requests}, shown ${run.shownMs} ms`,
          );
          if (process.env.LH_DETAIL) for (const d of run.detail) console.log(`    ${d}`);
        }
      }
    }
    for (const build of builds) {
      for (const [key, runs] of build.runs) {
        const med = (k) => Math.round(median(runs.map((r) => r[k])));
        console.log(
          `${key} median of ${runs.length}: cpu4 ${med('cpu4')}, tbt4 ${med('tbt4')}, long4 ${med('long4')}, wall4 ${med('wall4')}, wtbt4 ${med('wtbt4')}, requests ${med('requests')}, shown ${med('shownMs')} ms`,
        );
      }
    }
    await browser.disconnect();
  } finally {
    chrome.kill();
    for (const build of builds) await build.stop();
  }
  console.log(`load ${loadBefore} before, ${load()} after`);
}

// As `npm run build` leaves it: the assets precompressed (a build made aside is not).
for (const web of DISTS.map((d) => (d ? path.join(d, 'web') : WEB_DIST))) {
  if (!readdirSync(path.join(web, 'assets')).some((f) => f.endsWith('.br'))) {
    spawnSync(process.execPath, ['packages/web/scripts/precompress.mjs', web], { stdio: 'inherit' });
  }
}

const loadBefore = load();
if (MODE === 'trace') {
  await traceBuilds();
  process.exit(0);
}
if (DISTS.length > 1) {
  await compareBuilds();
  process.exit(0);
}
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
