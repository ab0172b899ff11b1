/// <reference types="vite-plugin-pwa/vanillajs" />
/**
 * Registers the service worker (src/sw.ts, built to /sw.js). main.tsx loads this module in its own chunk
 * once the page has loaded and the browser is idle: the login page's JavaScript does not carry Workbox's
 * window part. registerType 'prompt': a new version waits until the user confirms (offline/update.ts,
 * shell/UpdateNotice.tsx), never reloading a page by itself in the middle of a form.
 */
import { registerSW } from 'virtual:pwa-register';
import { updateWaiting } from './update';

/** How often a long-open page asks whether a new version was deployed (a navigation inside the SPA never does). */
const CHECK_EVERY_MS = 60 * 60 * 1000;

export function registerServiceWorker(): void {
  /** The user of this page confirmed the update ('Освежи'). */
  let confirmed = false;
  /** The new version took over (confirmed here or in another tab: every open tab then runs under it). */
  let tookOver = false;
  const confirm = async () => {
    confirmed = true;
    if (tookOver) window.location.reload();
    else await activate(true);
  };
  const activate = registerSW({
    immediate: true,
    onNeedRefresh: () => updateWaiting(confirm),
    // Instead of reloading every open tab when one of them confirmed: this tab reloads only once its own
    // user said so (its notice stays until then).
    onNeedReload: () => {
      tookOver = true;
      if (confirmed) window.location.reload();
      else updateWaiting(confirm);
    },
    onRegisteredSW: (_url, registration) => {
      if (!registration) return;
      setInterval(() => {
        if (navigator.onLine) void registration.update().catch(() => undefined);
      }, CHECK_EVERY_MS);
    },
  });
}
