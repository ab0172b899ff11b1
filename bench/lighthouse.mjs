// Lighthouse on the web app (issues 13 and 40): the journeys' Chromium (scripts/chromium.mjs), Lighthouse's
// default mobile preset (simulated slow 4G and a 4× slower CPU), 5 runs per page, medians of performance,
// accessibility, best practices, LCP, TBT and CLS, on every screen of the menu (bench/lighthouse/config.mjs:
// the Admin's menu, a cluster, an activity, an Employee's notifications) with the demo seed. Each page is
// then loaded 5 times more under the same preset's throttling applied (Lighthouse's `devtools` throttling:
// 562.5 ms per request, 1.4 Mbit/s, the CPU 4× slower) for the time of the app's mark `trasa:first-row`
// (packages/web/src/components/firstContent.ts: a list's first rows, an activity's title and status have
// painted), read from the run's user timings. Not part of `npm test`: a measurement, printed and written
// into docs/performance.md between its lighthouse markers, with the machine's load (the scores move with it).
//
//   npm run build && node bench/lighthouse.mjs
//   LH_DIST=.build/NAME node bench/lighthouse.mjs     # a build made aside (scripts/build-aside.sh NAME)
//   LH_RUNS=1 LH_WRITE=0 node bench/lighthouse.mjs     # a quick look, docs untouched
//   LH_PAGES=/app/klasteri,/app/aktivnost/:activity node bench/lighthouse.mjs   # some pages (docs untouched unless LH_WRITE=1)
//   LH_FIRST_ROW=0 node bench/lighthouse.mjs           # the scores only, no runs under applied throttling
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
// LH_MODE=profile opens each /app page (no throttling, cache cleared) until its content shows, and
// prints the medians of: the main thread's task, script, style and layout times (CDP Performance
// metrics), long tasks (> 50 ms), React components rendered (summed over commits, through a stand-in
// for the React DevTools hook), the CSS rules emotion inserted, and DOM elements.
//
// LH_MODE=styles opens each /app page at phone and desktop width until its content shows, and writes the
// rules emotion inserted for MUI's components (in their order, also those Chromium's insertRule refused,
// e.g. `::-moz-focus-inner`) into packages/web/src/firstStyles.css and their names into firstStyles.json:
// the web ships them as a stylesheet and tells emotion's cache they are inserted (src/emotionCache.ts).
//
// The server starts on a fresh database — the embedded PostgreSQL in a temporary DATA_DIR, or a new
// database on the server at DATABASE_URL — seeded with the demo data, as the journeys start it
// (e2e/support/server.mjs). The /app pages open signed in (the demo Admin, or the Employee for the
// notifications): the token is put in local storage, and the browser's cache is cleared before each run
// (Lighthouse's own reset would clear the token).
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import puppeteer from 'puppeteer-core';
import {
  CHROME,
  DISTS,
  DOC,
  END,
  FIRST_ROW,
  load,
  MODE,
  median,
  PAGES,
  RUNS,
  START,
  TARGETS,
  WEB_DIST,
  WRITE,
} from './lighthouse/config.mjs';
import { compareBuilds, traceBuilds } from './lighthouse/modes.mjs';
import { profileOnce, runOnce, writeFirstStyles } from './lighthouse/pages.mjs';
import { launchChrome, sessionsOf, startServer } from './lighthouse/server.mjs';

// The parts of the measurement are modules of bench/lighthouse/.

// As `npm run build` leaves it: the assets precompressed (a build made aside is not).
for (const web of DISTS.map((d) => (d ? path.join(d, 'web') : WEB_DIST))) {
  if (!readdirSync(path.join(web, 'assets')).some((f) => f.endsWith('.br'))) {
    spawnSync(process.execPath, ['packages/web/scripts/precompress.mjs', web], { stdio: 'inherit' });
  }
}

const loadBefore = load();
if (MODE === 'trace') {
  await traceBuilds(loadBefore);
  process.exit(0);
}
if (DISTS.length > 1) {
  await compareBuilds(loadBefore);
  process.exit(0);
}
const { base, stop } = await startServer();
const chrome = await launchChrome();
const rows = [];
try {
  const browser = await puppeteer.connect({ browserURL: `http://127.0.0.1:${chrome.port}`, defaultViewport: null });
  const session = await sessionsOf(base);
  if (MODE === 'styles') {
    await writeFirstStyles(browser, base, session);
    await browser.disconnect();
    PAGES.length = 0;
  }
  if (MODE === 'profile') {
    for (const page of PAGES.filter((p) => p.signedIn)) {
      const runs = [];
      for (let i = 0; i < RUNS; i++) runs.push(await profileOnce(browser, base, page, session));
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
  /** A run, repeated when Chromium's trace missed the navigation under load (NO_NAVSTART). */
  const measure = async (page, throttling) => {
    for (let attempt = 1; ; attempt++) {
      try {
        return await runOnce(browser, chrome.port, base, page, session, throttling);
      } catch (error) {
        if (attempt >= 3 || !/NO_NAVSTART|NO_FCP|PROTOCOL_TIMEOUT/.test(String(error))) throw error;
        console.log(`  ${page.path}: ${String(error).split('\n')[0]}; again`);
      }
    }
  };
  const ms = (v) => (Number.isFinite(v) ? `${Math.round(v)} ms` : '–');
  for (const page of PAGES) {
    const runs = [];
    for (let i = 0; i < RUNS; i++) {
      const run = await measure(page, 'simulate');
      console.log(
        `${page.name} run ${i + 1} (load ${load()}): performance ${run.performance}, accessibility ${run.accessibility}, best practices ${run.bestPractices}, LCP ${ms(run.lcp)}, TBT ${ms(run.tbt)}, CLS ${run.cls.toFixed(3)}${run.failing.length ? `; failing: ${run.failing.join(', ')}` : ''}`,
      );
      delete run.lhr;
      runs.push(run);
    }
    // The first real row under the preset's throttling applied (its mark is real there, not estimated).
    const applied = [];
    if (FIRST_ROW && page.signedIn) {
      for (let i = 0; i < RUNS; i++) {
        const run = await measure(page, 'devtools');
        console.log(
          `${page.name} applied throttling run ${i + 1} (load ${load()}): first row ${ms(run.firstRow)}, FCP ${ms(run.fcp)}, LCP ${ms(run.lcp)}, TBT ${ms(run.tbt)}`,
        );
        delete run.lhr;
        applied.push(run);
      }
    }
    const med = (list, key) => (list.length ? median(list.map((r) => r[key])) : Number.NaN);
    rows.push({
      page: page.name,
      performance: med(runs, 'performance'),
      accessibility: med(runs, 'accessibility'),
      bestPractices: med(runs, 'bestPractices'),
      lcp: med(runs, 'lcp'),
      tbt: med(runs, 'tbt'),
      cls: med(runs, 'cls'),
      // A run without the mark (the content never showed) counts as the slowest.
      firstRow: applied.length
        ? median(applied.map((r) => (Number.isFinite(r.firstRow) ? r.firstRow : Number.POSITIVE_INFINITY)))
        : Number.NaN,
      failing: [...new Set(runs.flatMap((r) => r.failing))],
      load: load(),
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
const firstRowText = (r) => {
  if (Number.isNaN(r.firstRow)) return '–';
  if (!Number.isFinite(r.firstRow)) return 'not shown';
  return `${(r.firstRow / 1000).toFixed(1)} s`;
};
const missed = (r) =>
  [
    r.performance < TARGETS.performance && 'performance',
    r.cls > TARGETS.cls && 'CLS',
    (Number.isFinite(r.firstRow) ? r.firstRow > TARGETS.firstRowMs : !Number.isNaN(r.firstRow)) && 'first row',
  ].filter(Boolean);
const table = [
  `Measured ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC: Lighthouse ${version}, ${chromium}, mobile preset, median of ${RUNS} run(s); ${os.cpus().length} cores, load average (1 / 5 / 15 min) ${loadBefore} before and ${loadAfter} after (each row: when it ended). First row: the app's mark \`trasa:first-row\` under the preset's throttling applied (Lighthouse's devtools throttling), median of ${RUNS}. Targets: performance ≥ ${TARGETS.performance}, CLS ≤ ${TARGETS.cls}, first row ≤ ${TARGETS.firstRowMs / 1000} s.`,
  '',
  '| page | performance | accessibility | best practices | LCP | TBT | CLS | first row | load | targets missed | audits not passed (any run) |',
  '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- | --- | --- |',
  ...rows.map(
    (r) =>
      `| ${r.page} | ${r.performance} | ${r.accessibility} | ${r.bestPractices} | ${(r.lcp / 1000).toFixed(1)} s | ${Math.round(r.tbt)} ms | ${r.cls.toFixed(2)} | ${firstRowText(r)} | ${r.load} | ${missed(r).join(', ') || '—'} | ${r.failing.join(', ') || '—'} |`,
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
