// Several builds measured in turns for bench/lighthouse.mjs (LH_DIST=a,b; LH_MODE=trace).
import path from 'node:path';
import puppeteer from 'puppeteer-core';
import { DISTS, FIRST_ROW, load, median, PAGES, RUNS, SERVER_DIST, WEB_DIST } from './config.mjs';
import { runOnce } from './pages.mjs';
import { launchChrome, sessionsOf, startServer } from './server.mjs';
import { traceOnce } from './trace.mjs';

/**
 * Several builds (LH_DIST=.build/a,.build/b): each on its own server, their Lighthouse runs taken in turns
 * (a, b, a, b …) so that both meet the same load; prints each run and each build's medians, writes nothing.
 */
export async function compareBuilds(loadBefore) {
  const builds = [];
  for (const dist of DISTS) {
    const server = await startServer(path.join(dist, 'server'), path.join(dist, 'web'));
    builds.push({ name: path.basename(dist), ...server, session: await sessionsOf(server.base), runs: new Map() });
  }
  const chrome = await launchChrome();
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
          const once = async (throttling) => {
            for (let attempt = 1; ; attempt++) {
              try {
                return await runOnce(browser, chrome.port, build.base, page, build.session, throttling);
              } catch (error) {
                if (attempt >= 3 || !/NO_NAVSTART|NO_FCP|PROTOCOL_TIMEOUT/.test(String(error))) throw error;
              }
            }
          };
          const run = await once('simulate');
          Object.assign(run, detail(run.lhr));
          delete run.lhr;
          // The first real row under the throttling applied (FIRST_ROW), in the same turn.
          run.firstRow = FIRST_ROW && page.signedIn ? (await once('devtools')).firstRow : Number.NaN;
          const key = `${build.name} ${page.path}`;
          if (!build.runs.has(key)) build.runs.set(key, []);
          build.runs.get(key).push(run);
          console.log(
            `${key} run ${i + 1} (load ${load()}): performance ${run.performance}, LCP ${Math.round(run.lcp)}, TBT ${Math.round(run.tbt)}, CLS ${run.cls.toFixed(3)}, first row ${Math.round(run.firstRow)}, main thread ${run.mainThread}, bootup ${run.bootup}, requests ${run.requests}, a11y ${run.accessibility}, bp ${run.bestPractices}`,
          );
        }
      }
    }
    for (const page of PAGES) {
      for (const build of builds) {
        const runs = build.runs.get(`${build.name} ${page.path}`);
        const med = (k) => Math.round(median(runs.map((r) => r[k])));
        console.log(
          `${build.name} ${page.path} median of ${runs.length}: performance ${med('performance')}, LCP ${med('lcp')}, TBT ${med('tbt')}, CLS ${median(runs.map((r) => r.cls)).toFixed(3)}, first row ${med('firstRow')}, main thread ${med('mainThread')}, bootup ${med('bootup')}, requests ${med('requests')}, a11y ${med('accessibility')}, bp ${med('bestPractices')}`,
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
export async function traceBuilds(loadBefore) {
  const builds = [];
  for (const dist of DISTS) {
    const webDist = dist ? path.join(dist, 'web') : WEB_DIST;
    const server = await startServer(dist ? path.join(dist, 'server') : SERVER_DIST, webDist);
    builds.push({ name: dist ? path.basename(dist) : 'dist', ...server, session: await sessionsOf(server.base), runs: new Map() });
  }
  const chrome = await launchChrome();
  try {
    const browser = await puppeteer.connect({ browserURL: `http://127.0.0.1:${chrome.port}`, defaultViewport: null });
    for (let i = 0; i < RUNS; i++) {
      for (const build of builds) {
        for (const page of PAGES.filter((p) => p.signedIn)) {
          const run = await traceOnce(browser, build.base, page, build.session);
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
