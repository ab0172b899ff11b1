/**
 * The entry (issue 13 item 2): the public pages (sign-in, sign-up, forgotten and new password) render
 * with React, the router and plain CSS; MUI, React Query, zod and the screens load (FullApp) only when
 * the user goes into /app, arrives with a stored token, or opens any other address.
 */
// The fonts: one file per family and weight, Serbian in both scripts (scripts/subset-fonts.mjs).
import './fonts/fonts.css';
import { PUBLIC_PATHS } from '@trasa/domain/routes';
import { lazy, StrictMode, Suspense, useCallback, useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter, RouterProvider } from 'react-router';
import { getMyProfile } from './api/account';
import { observeCalls } from './api/client';
import { getToken } from './api/token';
import { startEarlyProfile } from './public/handoff';
import { LightFrame, startLightFrame, useLightFrame } from './public/LightFrame';
import { ForgotPasswordPage, LightLoader, LoginPage, onSignInStarted, RegisterPage, ResetPasswordPage } from './public/PublicPages';
import { inScript } from './script';
import { openingRoute } from './shell/openingRoute';
import { preloadScreen } from './shell/screens';
import { UI } from './texts';

// zod (loaded with the application) would probe `new Function` for its faster parser while the domain's
// schemas are built: the server's CSP (script-src 'self') refuses it and the browser reports a violation
// on every screen (Lighthouse best practices). zod reads its settings from this global; set before it loads.
const zodSettings = globalThis as { __zod_globalConfig?: { jitless?: boolean } };
zodSettings.__zod_globalConfig ??= {};
zodSettings.__zod_globalConfig.jitless = true;

const loadApp = () => import('./FullApp');
const FullApp = lazy(loadApp);
// One element for every render of Root: when the frame goes, Root renders again and the whole application
// below it would render with it (a new element each time; issue 13 item 3).
const fullApp = <FullApp />;
// The application starts loading while the sign-in call runs.
onSignInStarted(() => void loadApp());

const PUBLIC = new Set<string>(Object.values(PUBLIC_PATHS));

/** Whether this visit starts on the light public pages: no token, and a public address (or /app, which would only redirect to sign-in). */
function startsLight(): boolean {
  if (getToken()) return false;
  const path = window.location.pathname.replace(/(.)\/+$/, '$1');
  if (path === '/app' || path.startsWith('/app/')) {
    window.history.replaceState(null, '', PUBLIC_PATHS.login);
    return true;
  }
  return PUBLIC.has(path);
}

type Router = ReturnType<typeof createBrowserRouter>;
let lightRouter: Router | null = null;

/** Any other address than the public pages': the application takes over. */
function LeaveForApp({ onLeave }: { onLeave: () => void }) {
  useEffect(() => onLeave(), [onLeave]);
  return <LightLoader />;
}

function LightApp({ onLeave }: { onLeave: () => void }) {
  const [router] = useState(() => {
    lightRouter = createBrowserRouter([
      { path: PUBLIC_PATHS.login, element: <LoginPage /> },
      { path: PUBLIC_PATHS.register, element: <RegisterPage /> },
      { path: PUBLIC_PATHS.forgotPassword, element: <ForgotPasswordPage /> },
      { path: PUBLIC_PATHS.resetPassword, element: <ResetPasswordPage /> },
      { path: '*', element: <LeaveForApp onLeave={onLeave} /> },
    ]);
    return lightRouter;
  });
  return <RouterProvider router={router} />;
}

function Root() {
  const [full, setFull] = useState(startFull);
  useEffect(() => {
    if (!full) return;
    // The application's own router follows the address from now on.
    lightRouter?.dispose();
    lightRouter = null;
  }, [full]);
  const leave = useCallback(() => setFull(true), []);
  const frame = useLightFrame();
  // A visit that opens on /app: the application starts loading once the frame has painted (afterFramePaint).
  const [appGo, setAppGo] = useState(!opensInApp);
  useEffect(() => {
    if (appGo) return;
    let live = true;
    afterFramePaint(() => {
      void preloadOpening();
      if (live) setAppGo(true);
    });
    return () => {
      live = false;
    };
  }, [appGo]);
  if (!full) return <LightApp onLeave={leave} />;
  return (
    <>
      {frame && <LightFrame />}
      {appGo && <Suspense fallback={frame ? null : <LightLoader />}>{fullApp}</Suspense>}
    </>
  );
}

// A visit that starts on /app with a token: the profile call starts now, beside the application's download,
// not after it (issue 13 item 3); FullApp hands it to the profile query.
function startsInApp(): boolean {
  const path = window.location.pathname;
  return !!getToken() && (path === '/app' || path.startsWith('/app/'));
}

/**
 * The application's chunks all start downloading side by side once the frame has painted (issue 13 item 3,
 * afterFramePaint): FullApp, the shell and the screen the address names. Before, each was found only once the previous one had run (the entry →
 * FullApp → the shell and the screen), a round trip of the slow network each. A failure is left to the lazy
 * loads, which report it.
 */
async function preloadOpening(): Promise<void> {
  // MUI's core (its chunk: styles, theme, emotion) on its own, before the application needs it: its download
  // ends first, and it is then evaluated in a task of its own. Evaluated with the application's modules, the
  // two were the longest task of an /app visit (about 70 ms of thread time under the 4× slowdown; TBT).
  void import('@mui/material/styles').catch(() => undefined);
  void loadApp().catch(() => undefined);
  // Each start below is its own task: a dynamic import adds a preload link per chunk it needs (the screen's
  // are ~60), which under Lighthouse's 4× slowdown took 300 ms in one task (issue 13 item 3, TBT).
  await nextTask();
  void import('./shell/AppShell').catch(() => undefined);
  await nextTask();
  const key = openingRoute(window.location.pathname);
  if (key) preloadScreen(key);
}

/** Resolves in a later task, so that the browser may paint and handle input in between. */
function nextTask(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/**
 * Runs `then` once the frame's title has painted in its own face (the page's largest paint), or after a
 * second at the latest: the application's ~350 KB of chunks then no longer share the slow link with the
 * title's font and the entry's first paint (issue 13 item 3). The font's download starts here, with the
 * entry, rather than when the frame's first layout finds the title. Where the frame's bar shows (phones),
 * "painted" is the title's largest-paint entry, which the browser reports once the paint is on screen: a
 * request that ends before that moment counts toward the largest paint in Lighthouse's estimate.
 */
function afterFramePaint(then: () => void): void {
  const font = document.fonts?.load(`700 16px "Bitter Frame"`, inScript(UI.ministry)).catch(() => undefined);
  const giveUp = new Promise((resolve) => setTimeout(resolve, 1000));
  let done = false;
  const once = () => {
    if (done) return;
    done = true;
    then();
  };
  void Promise.race([font, giveUp]).then(() => {
    // A hidden tab paints no frames (and reports no largest paint): a timer goes ahead without them.
    setTimeout(once, 500);
    if (!whenTitleShown(once)) requestAnimationFrame(() => setTimeout(once, 0));
  });
}

/** Calls `then` with the frame title's largest-paint entry; false where the title does not show or the browser reports no such entries. */
function whenTitleShown(then: () => void): boolean {
  const title = document.querySelector('.tp-frame-title');
  if (!title?.checkVisibility?.() || !PerformanceObserver.supportedEntryTypes?.includes('largest-contentful-paint')) return false;
  const observer = new PerformanceObserver((list) => {
    if (!list.getEntries().some((entry) => (entry as PerformanceEntry & { element?: Element | null }).element === title)) return;
    observer.disconnect();
    then();
  });
  observer.observe({ type: 'largest-contentful-paint', buffered: true });
  return true;
}

const startFull = !startsLight();
const opensInApp = startFull && startsInApp();
if (opensInApp) {
  startLightFrame();
  // Offline, the profile comes from the device's copy (offline/deviceCopy.ts, which FullApp installs): should
  // the early call fail before FullApp has loaded, the client loads it then.
  observeCalls(() => import('./offline/deviceCopy').then((m) => m.deviceCopy));
  startEarlyProfile(getMyProfile());
}

/**
 * The service worker (offline/serviceWorker.ts, docs/decisions.md "Offline") registers in its own chunk once
 * the page has loaded and the browser is idle: nothing of it is in the login page's JavaScript, and its
 * precache downloads do not share the link with the first visit's own files.
 */
function registerServiceWorkerLater(): void {
  if (!('serviceWorker' in navigator)) return;
  const register = () => {
    const idle = window.requestIdleCallback ?? ((run: () => void) => setTimeout(run, 1000));
    idle(() => void import('./offline/serviceWorker').then((sw) => sw.registerServiceWorker()).catch(() => undefined), { timeout: 3000 });
  };
  if (document.readyState === 'complete') register();
  else window.addEventListener('load', register, { once: true });
}
registerServiceWorkerLater();

const root = document.getElementById('root');
if (!root) throw new Error('#root missing from index.html');

createRoot(root).render(
  <StrictMode>
    <Root />
  </StrictMode>,
);
