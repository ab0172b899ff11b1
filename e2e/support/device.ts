import type { BrowserContext, Page } from '@playwright/test';

/** The device's side of the offline journeys: the service worker and the database 'trasa-offline'. */

/** The service worker is active (its precache complete) and controls the page. */
export async function serviceWorkerReady(page: Page): Promise<string> {
  return page.evaluate(async () => {
    const registration = await navigator.serviceWorker.ready;
    return registration.active?.scriptURL ?? '';
  });
}

/** Records in each store of the device's database 'trasa-offline'. */
export function deviceRecords(page: Page): Promise<Record<string, number>> {
  return page.evaluate(
    () =>
      new Promise<Record<string, number>>((resolve, reject) => {
        const open = indexedDB.open('trasa-offline');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const db = open.result;
          const names = Array.from({ length: db.objectStoreNames.length }, (_, i) => db.objectStoreNames.item(i) ?? '');
          const counts: Record<string, number> = {};
          if (names.length === 0) {
            db.close();
            resolve(counts);
            return;
          }
          const tx = db.transaction(names, 'readonly');
          for (const name of names) {
            const req = tx.objectStore(name).count();
            req.onsuccess = () => {
              counts[name] = req.result;
            };
          }
          tx.oncomplete = () => {
            db.close();
            resolve(counts);
          };
          tx.onerror = () => reject(tx.error);
        };
      }),
  );
}

/**
 * The service worker controls the page: a reload without a network opens from it. The first install claims
 * the open page (sw.ts clientsClaim); when Chromium leaves a page loaded during the install uncontrolled,
 * the page is loaded again, as the next visit would be, which an active worker always controls.
 */
export async function serviceWorkerControls(page: Page): Promise<void> {
  await serviceWorkerReady(page);
  const controlled = () => navigator.serviceWorker.controller !== null;
  try {
    await page.waitForFunction(controlled, undefined, { timeout: 15_000 });
  } catch {
    await page.reload();
    await page.waitForFunction(controlled);
  }
}

/**
 * Records the Background Sync registrations the app makes (the browser's own SyncManager.register, called
 * through): `syncRegistrations(page)` reads them. Before the page's first script runs.
 */
export async function recordSyncRegistrations(context: BrowserContext): Promise<void> {
  await context.addInitScript(() => {
    const seen: string[] = [];
    Object.defineProperty(window, '__syncRegistrations', { value: seen });
    const manager = (window as unknown as { SyncManager?: { prototype: { register(tag: string): Promise<void> } } }).SyncManager;
    if (!manager) return;
    const register = manager.prototype.register;
    manager.prototype.register = function (this: unknown, tag: string) {
      seen.push(tag);
      return register.call(this, tag);
    };
  });
}

export function syncRegistrations(page: Page): Promise<string[]> {
  return page.evaluate(() => [...((window as unknown as { __syncRegistrations?: string[] }).__syncRegistrations ?? [])]);
}
