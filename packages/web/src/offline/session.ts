/**
 * The device's copy follows the session (docs/decisions.md "Offline"):
 * - signing out ('Крај рада') clears the device: every kept answer, the queue, the worker's session, and
 *   the service worker's runtime caches (its precache of the application's own files stays: it holds no
 *   one's data);
 * - a 401 (the token refused: expired, revoked, the account removed) removes the kept answers and the
 *   worker's session (its token) but keeps the queue, which waits for the same user's next sign-in;
 * - the first answer kept for a user removes every other user's kept answers (their queued work stays
 *   theirs, never shown: kept.ts).
 * `onSignedOut` lets the other offline parts (the queue's sender) follow the same moments.
 */
import { forgetServed } from './kept';

/** The store (and `idb`) load when first needed: signing out, a refused token. */
const store = () => import('./store');

/** 'signOut': the user ended the session; 'rejected': the server refused the token (401). */
export type SignOutReason = 'signOut' | 'rejected';
export type SignedOutListener = (reason: SignOutReason, userId: string | null) => void | Promise<void>;

const listeners = new Set<SignedOutListener>();

/** Calls `listener` after the device was cleared for a sign-out or a refused token; returns the unsubscribe. */
export function onSignedOut(listener: SignedOutListener): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

/** Caches of the service worker that are not its precache of the application's files (none today: API answers never go there). */
function isRuntimeCache(name: string): boolean {
  return !name.startsWith('workbox-precache');
}

/** Clears every store of the device's database and the service worker's runtime caches. */
export async function clearDevice(): Promise<void> {
  forgetServed();
  await store()
    .then((s) => s.clearStore())
    .catch(() => undefined);
  if (typeof caches !== 'undefined') {
    const names = await caches.keys().catch(() => [] as string[]);
    await Promise.all(names.filter(isRuntimeCache).map((name) => caches.delete(name).catch(() => false)));
  }
}

/** The session ended: the device cleared as `reason` says, then the listeners told. */
export async function signedOut(reason: SignOutReason, userId: string | null): Promise<void> {
  if (reason === 'signOut') await clearDevice();
  else {
    forgetServed();
    await store()
      .then((s) => s.clearAnswers())
      .catch(() => undefined);
  }
  for (const listener of [...listeners]) {
    try {
      await listener(reason, userId);
    } catch {
      // One listener's failure does not keep the others from hearing it.
    }
  }
}
