/**
 * What the page's sender (queue.ts) and the service worker's (backgroundSync.ts) share: the names they meet
 * under and how an answer is read. No `window`, no local storage: the worker imports this module.
 */

/** The Background Sync registration made when a change is kept on the device. */
export const SYNC_TAG = 'trasa-queue';
/** The Web Lock held while changes are sent: one sender at a time, a tab's or the worker's. */
export const SEND_LOCK = 'trasa-queue-send';
/** The BroadcastChannel on which a sender tells the open tabs that the kept changes changed. */
export const QUEUE_CHANNEL = 'trasa-queue';
/** The worker asks an open page to send (its answers on the message's port: SyncReply). */
export const SYNC_REQUEST = 'QUEUE_SYNC';
/** 'taken': the page sends; then 'done' (nothing waits) or 'retry' (changes still wait). */
export type SyncReply = 'taken' | 'done' | 'retry';

/** Why sending stopped: no network, signed out (401 or no token), the server busy or failing. */
export type Pause = 'offline' | 'signedOut' | 'server' | null;

/**
 * What an answer's status means for a queued change: 0 (no answer at all) waits for the network, 401 for
 * the same user's next sign-in, 408, 429 and 5xx for a later try; any other refusal is final for it.
 */
export function pauseOfStatus(status: number): Exclude<Pause, null> | 'refused' {
  if (status === 0) return 'offline';
  if (status === 401) return 'signedOut';
  if (status === 408 || status === 429 || status >= 500) return 'server';
  return 'refused';
}
