/**
 * The service worker (vite-plugin-pwa, strategy injectManifest: docs/decisions.md "Offline"). It precaches
 * the application's own files — index.html, the entry, the shell's and every screen's chunks, styles, icons
 * and the fonts — and answers every navigation outside /api with a precached page, so the app starts
 * without a network: /app and /app/… with app.html (the application's page, whose opening script asks for
 * the profile and the screen's first list at once), every other address with index.html. It never touches /api: API answers stay `no-store`
 * and the app keeps its own copy of what it may show offline (offline/store.ts).
 *
 * Background Sync (offline/backgroundSync.ts): on the sync a page registers when it keeps a change made
 * without signal, an open page is asked to send it, else the worker sends it itself.
 *
 * A new version installs beside the running one and waits: it takes over only when the page asks
 * (SKIP_WAITING, sent when the user confirms 'Нова верзија је спремна — Освежи'), then the page reloads.
 *
 * Typed without the WebWorker library (the web's files share one compilation with the DOM's): the few
 * parts of the worker's scope it uses are named below.
 */
import { clientsClaim } from 'workbox-core';
import { cleanupOutdatedCaches, createHandlerBoundToURL, precacheAndRoute } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { type PageClient, syncQueue } from './offline/backgroundSync';
import { SYNC_TAG } from './offline/sendRules';

type PrecacheEntry = { url: string; revision: string | null };
type SyncEvent = { tag: string; waitUntil(work: Promise<unknown>): void };
type WorkerScope = {
  __WB_MANIFEST: PrecacheEntry[];
  skipWaiting(): Promise<void>;
  clients: { matchAll(options: { type: 'window' }): Promise<(PageClient & { focused?: boolean })[]> };
  addEventListener(type: 'message', listener: (event: { data?: unknown }) => void): void;
  addEventListener(type: 'sync', listener: (event: SyncEvent) => void): void;
};
const worker = self as unknown as WorkerScope;

// The build writes the list of files in place of `self.__WB_MANIFEST` (it must read exactly so).
precacheAndRoute((self as unknown as WorkerScope).__WB_MANIFEST);
cleanupOutdatedCaches();

/**
 * Navigations the SPA does not answer: the API, and addresses of files (the manifest, this worker). Workbox
 * tests the path with its query.
 */
const NOT_THE_APP = [/^\/api(\/|\?|$)/, /^[^?]*\/[^/?]+\.[a-z0-9]+(\?.*)?$/i];
registerRoute(new NavigationRoute(createHandlerBoundToURL('/app.html'), { allowlist: [/^\/app(\/|\?|$)/], denylist: NOT_THE_APP }));
registerRoute(new NavigationRoute(createHandlerBoundToURL('/index.html'), { denylist: NOT_THE_APP }));

worker.addEventListener('message', (event) => {
  const data = event.data;
  if (typeof data === 'object' && data !== null && 'type' in data && data.type === 'SKIP_WAITING') {
    void worker.skipWaiting();
  }
});

// The changes kept on the device while offline: the focused page is asked first.
worker.addEventListener('sync', (event) => {
  if (event.tag !== SYNC_TAG) return;
  event.waitUntil(
    worker.clients
      .matchAll({ type: 'window' })
      .then((pages) => syncQueue([...pages].sort((a, b) => Number(b.focused) - Number(a.focused)))),
  );
});
// The first install controls the open page at once, so screens opened later in this visit load from the
// precache too; an update takes over only after SKIP_WAITING (the page then reloads).
clientsClaim();
