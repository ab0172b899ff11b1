// One visit of a page for bench/lighthouse.mjs: a Lighthouse run, the rules emotion inserts (LH_MODE=styles),
// a profile (LH_MODE=profile).
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import lighthouse from 'lighthouse';
import { FIRST_ROW_MARK, PAGES } from './config.mjs';
import { pathOf } from './server.mjs';

/**
 * One Lighthouse run (mobile preset) of a page as `session` (sessionsOf) knows it; the signed-in pages keep
 * their token in local storage. `throttling`: 'simulate' (Lighthouse's default: the page loads at full
 * speed and the metrics are estimated for slow 4G and a 4× slower CPU) or 'devtools' (the same network and
 * CPU applied while the page loads: the app's own timings, FIRST_ROW_MARK among them, are then real).
 */
export async function runOnce(browser, port, base, page, session, throttling = 'simulate') {
  const tab = await browser.newPage();
  const path_ = pathOf(page, session.ids);
  try {
    const cdp = await tab.createCDPSession();
    await cdp.send('Network.clearBrowserCache');
    await tab.goto(`${base}/favicon.svg`);
    await tab.evaluate(
      (t) => (t ? localStorage.setItem('token', t) : localStorage.clear()),
      page.signedIn ? session.tokens[page.as] : null,
    );
    const flags = {
      port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: throttling === 'simulate' ? ['performance', 'accessibility', 'best-practices'] : ['performance'],
      throttlingMethod: throttling,
      // Lighthouse's own storage reset would also remove the token: the cache was cleared above instead.
      disableStorageReset: page.signedIn,
    };
    const result = await lighthouse(`${base}${path_}`, flags, undefined, tab);
    const lhr = result?.lhr;
    if (!lhr) throw new Error(`no Lighthouse result for ${path_}`);
    if (lhr.runtimeError) throw new Error(`${path_}: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
    // LH_SAVE=dir keeps each run's whole report (e.g. to read bootup-time and long-tasks).
    if (process.env.LH_SAVE) {
      const { mkdirSync, writeFileSync } = await import('node:fs');
      mkdirSync(process.env.LH_SAVE, { recursive: true });
      writeFileSync(
        path.join(process.env.LH_SAVE, `${page.path.replace(/\W+/g, '_') || 'root'}-${throttling}-${Date.now()}.json`),
        JSON.stringify(lhr),
      );
    }
    const finalPath = new URL(lhr.finalDisplayedUrl).pathname;
    if (finalPath !== path_) throw new Error(`${path_} ended on ${finalPath}: not signed in?`);
    const score = (id) => Math.round((lhr.categories[id]?.score ?? 0) * 100);
    const failed = (id) =>
      (lhr.categories[id]?.auditRefs ?? []).filter((ref) => ref.weight > 0 && (lhr.audits[ref.id]?.score ?? 1) < 1).map((ref) => ref.id);
    const failing = [...failed('accessibility'), ...failed('best-practices')];
    for (const id of failing) {
      const items = lhr.audits[id]?.details?.items ?? [];
      console.log(`  ${path_} ${id}: ${JSON.stringify(items).slice(0, Number(process.env.LH_DETAIL || 600))}`);
    }
    // An /api address asked for twice: src/opening.ts's early answer for it went unused (its address differs).
    const api = (lhr.audits['network-requests']?.details?.items ?? []).map((r) => r.url).filter((u) => u.includes('/api/'));
    const twice = [...new Set(api.filter((u, i) => api.indexOf(u) !== i))];
    if (twice.length) console.log(`  ${path_}: asked twice (an early answer unused?): ${twice.join(', ')}`);
    // The app's mark, in ms from the navigation's start (observed: real only under applied throttling).
    const mark = (lhr.audits['user-timings']?.details?.items ?? []).find((item) => item.name === FIRST_ROW_MARK);
    return {
      performance: score('performance'),
      accessibility: score('accessibility'),
      bestPractices: score('best-practices'),
      fcp: lhr.audits['first-contentful-paint']?.numericValue ?? Number.NaN,
      lcp: lhr.audits['largest-contentful-paint']?.numericValue ?? Number.NaN,
      tbt: lhr.audits['total-blocking-time']?.numericValue ?? Number.NaN,
      cls: lhr.audits['cumulative-layout-shift']?.numericValue ?? Number.NaN,
      firstRow: mark ? mark.startTime : Number.NaN,
      // The main thread's work by category (Lighthouse's 'mainthread-work-breakdown', under its 4× slowdown).
      work: Object.fromEntries((lhr.audits['mainthread-work-breakdown']?.details?.items ?? []).map((item) => [item.group, item.duration])),
      failing,
      lhr,
    };
  } finally {
    await tab.close();
  }
}

/**
 * In the page: its real content has painted (the app's FIRST_ROW_MARK; a build without the mark: a list
 * shows rows and is no longer busy).
 */
export function contentShown() {
  if (performance.getEntriesByName('trasa:first-row').length > 0) return true;
  return document.querySelectorAll('main table tbody tr').length > 1 && !document.querySelector('main table[aria-busy="true"]');
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
async function emotionRulesOf(browser, base, page, session, width) {
  const tab = await browser.newPage();
  try {
    await tab.setViewport({ width, height: 844 });
    await tab.goto(`${base}/favicon.svg`);
    await tab.evaluate((t) => localStorage.setItem('token', t), session.tokens[page.as]);
    await tab.evaluateOnNewDocument(recordEmotionRules);
    await tab.goto(`${base}${pathOf(page, session.ids)}`);
    await tab.waitForFunction(contentShown, { timeout: 60_000, polling: 50 });
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
export async function writeFirstStyles(browser, base, session) {
  const rules = [];
  const seen = new Set();
  for (const page of PAGES.filter((p) => p.signedIn)) {
    for (const width of [390, 1280]) {
      for (const rule of await emotionRulesOf(browser, base, page, session, width)) {
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
export async function profileOnce(browser, base, page, session) {
  const tab = await browser.newPage();
  try {
    await tab.setViewport({ width: 1366, height: 768 });
    const cdp = await tab.createCDPSession();
    await cdp.send('Network.clearBrowserCache');
    await tab.goto(`${base}/favicon.svg`);
    await tab.evaluate((t) => localStorage.setItem('token', t), session.tokens[page.as]);
    await tab.evaluateOnNewDocument(instrument);
    // LH_CPU=4: Chromium's CPU slowdown, as Lighthouse's mobile preset.
    if (process.env.LH_CPU) await cdp.send('Emulation.setCPUThrottlingRate', { rate: Number(process.env.LH_CPU) });
    await cdp.send('Performance.enable', { timeDomain: 'threadTicks' });
    const before = Object.fromEntries((await cdp.send('Performance.getMetrics')).metrics.map((m) => [m.name, m.value]));
    const started = Date.now();
    await tab.goto(`${base}${pathOf(page, session.ids)}`);
    await tab.waitForFunction(contentShown, { timeout: 60_000, polling: 50 });
    const shownMs = Date.now() - started;
    // Let what the first render started (effects, transitions) finish.
    await new Promise((r) => setTimeout(r, 1500));
    const after = Object.fromEntries((await cdp.send('Performance.getMetrics')).metrics.map((m) => [m.name, m.value]));
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
