import { contentShown } from './pages.mjs';
import { pathOf } from './server.mjs';

// LH_MODE=trace's visit of a page for bench/lighthouse.mjs: the main thread's tasks by thread time.
/**
 * LH_MODE=trace: one visit of a signed-in page (no throttling, cache cleared, phone width) until its list
 * shows rows and 1.5 s more, with a Chromium trace. Each task of the page's main thread is counted by its
 * thread time (`tdur`, the CPU the thread got, which the other processes on the machine change far less
 * than the wall time Lighthouse measures): `tbt4` is Lighthouse's TBT formula on it, Σ max(0, 4 × task − 50 ms)
 * over every task (also those before the first paint), `long4` the tasks over 50 ms at 4×; plus requests.
 */
export async function traceOnce(browser, base, page, session) {
  const tab = await browser.newPage();
  try {
    await tab.setViewport({ width: 412, height: 823, isMobile: true, deviceScaleFactor: 1.75 });
    const cdp = await tab.createCDPSession();
    await cdp.send('Network.clearBrowserCache');
    await tab.goto(`${base}/favicon.svg`);
    await tab.evaluate((t) => localStorage.setItem('token', t), session.tokens[page.as]);
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
    await tab.goto(`${base}${pathOf(page, session.ids)}`);
    await tab.waitForFunction(contentShown, { timeout: 60_000, polling: 50 });
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
