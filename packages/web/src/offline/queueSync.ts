// Background Sync for the queue (queue.ts): where the browser has it, the service worker is handed the
// session and a sync is registered, so kept changes go when the network returns with no page open.
import { getToken } from '../api/token';
import { getScript } from '../script';
import { SYNC_TAG } from './sendRules';
import { putWorkerSession } from './store';

/** The part of a service worker registration Background Sync adds (not in TypeScript's DOM library). */
type SyncRegistration = { sync?: { register(tag: string): Promise<void>; getTags(): Promise<string[]> } };

/**
 * Changes wait and the page could not send them: where the browser has Background Sync, the worker is
 * handed the session (this user, the token and script of the moment) and a sync is registered, so the
 * changes go when the network returns even if no page is open then. Without it nothing changes: the page
 * sends on 'online', on open and on its retry.
 */
export async function registerBackgroundSync(userId: string): Promise<boolean> {
  const token = getToken();
  if (!token || typeof navigator === 'undefined' || !('serviceWorker' in navigator)) return false;
  try {
    const registration = (await navigator.serviceWorker.getRegistration()) as (ServiceWorkerRegistration & SyncRegistration) | undefined;
    if (!registration?.active || !registration.sync) return false;
    await putWorkerSession({ userId, token, script: getScript() });
    // One registration at a time: a pending (or firing) one is left to the browser's own retries, so a page
    // answering a sync it could not complete does not register the next at once.
    if (!(await registration.sync.getTags()).includes(SYNC_TAG)) await registration.sync.register(SYNC_TAG);
    return true;
  } catch {
    // Refused (no permission, a private window): the page's own triggers remain.
    return false;
  }
}
