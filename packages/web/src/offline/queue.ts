/**
 * Work done without signal (docs/decisions.md "Offline"): activity data, comments and uploads that could
 * not reach the server are kept on the device (queueDb.ts, IndexedDB) and sent in the order they were
 * made when the network returns — on the browser's 'online' event, when the app opens, when the tab is
 * shown again, and on a growing retry while the server stays out of reach.
 *
 * - Each queued request is an ordinary one (api/activities.ts), sent with the token of the moment and
 *   only for the user who made it; a 401 stops sending and keeps everything until that user signs in
 *   again; signing out clears the queue (clearQueue).
 * - Each carries the state it was made on (`stanje`); a change the server refuses (409 because the
 *   activity moved on, or any other 4xx) is kept with the server's message until the user dismisses it,
 *   so nothing typed is dropped unseen.
 * - The device keeps at most queueLimit() (QUEUE_MAX_BYTES, 200 MB, by default); a change that does not fit is refused here (QueueFull) and
 *   stays on the screen it was made on.
 * - One tab sends at a time (a Web Lock); the others follow through a BroadcastChannel.
 * - Where the browser has Background Sync, keeping a change registers a sync: the service worker then asks
 *   an open page to send (this module, `answerWorker`) or, with none open, sends itself
 *   (backgroundSync.ts) with the session written here for it (store.ts `session`).
 */
import { useSyncExternalStore } from 'react';
import { newChangeKey, requestOfChange } from '../api/activityChanges';
import { ApiError, api, sendForm } from '../api/client';
import { getToken } from '../api/token';
import { bytesOf, isQuotaError, replaces } from './keepRules';
import { QueueFull, queueLimit } from './limits';
import { addItem, deleteAll, deleteItem, deleteOthers, type NewItem, putItem, type QueuedItem, readItems } from './queueDb';
import { registerBackgroundSync } from './queueSync';
import { type Pause, pauseOfStatus, QUEUE_CHANNEL, SEND_LOCK, SYNC_REQUEST, type SyncReply } from './sendRules';
import { clearWorkerSession } from './store';

export { configureQueue, QUEUE_MAX_BYTES, QueueFull, queueLimit } from './limits';
export type { QueuedChange, QueuedFile, QueuedItem, UploadSpec } from './queueDb';

/** Waits before the next try while the server stays out of reach (ms): then the last one again. */
export const RETRY_DELAYS = [5_000, 15_000, 30_000, 60_000, 120_000] as const;

export type { Pause } from './sendRules';

export type QueueState = {
  /** The signed-in user whose changes these are (null: nobody, nothing is sent). */
  owner: string | null;
  /** The owner's changes in the order made: waiting ones, and refused ones until dismissed. */
  items: readonly QueuedItem[];
  /** The change being sent, its upload's progress (0–100, null before any) and the run's count. */
  sending: { id: number; percent: number | null; done: number; total: number } | null;
  paused: Pause;
};

/** A change as a screen makes it: the queue adds who, when, its size, its key and its place in the order. */
export type NewChange = Omit<NewItem, 'userId' | 'bytes' | 'madeAt' | 'refusal' | 'key'>;

let state: QueueState = { owner: null, items: [], sending: null, paused: null };
const listeners = new Set<() => void>();
const sentListeners = new Set<(item: QueuedItem, answer: unknown) => void>();
const refusedListeners = new Set<(item: QueuedItem) => void>();

function update(patch: Partial<QueueState>): void {
  state = { ...state, ...patch };
  for (const listener of listeners) listener();
}

export function getQueueState(): QueueState {
  return state;
}

export function subscribeQueue(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The queue as it changes (items, progress, pause). */
export function useQueue(): QueueState {
  return useSyncExternalStore(subscribeQueue, getQueueState, getQueueState);
}

/** Called with each queued change the server took, and its answer. */
export function onQueueSent(listener: (item: QueuedItem, answer: unknown) => void): () => void {
  sentListeners.add(listener);
  return () => sentListeners.delete(listener);
}

/** Called with each queued change the server refused (kept with its reason). */
export function onQueueRefused(listener: (item: QueuedItem) => void): () => void {
  refusedListeners.add(listener);
  return () => refusedListeners.delete(listener);
}

export const isWaiting = (item: QueuedItem) => !item.refusal;

/** What the owner's changes take now. */
export function queuedBytes(): number {
  return state.items.reduce((sum, i) => sum + i.bytes, 0);
}

// --- other tabs ------------------------------------------------------------------------------------

const channel = typeof BroadcastChannel === 'undefined' ? null : new BroadcastChannel(QUEUE_CHANNEL);
channel?.addEventListener('message', () => void reload());

function told(): void {
  channel?.postMessage('changed');
}

async function reload(): Promise<void> {
  const owner = state.owner;
  if (!owner) return;
  const items = (await readItems()).filter((i) => i.userId === owner);
  if (state.owner === owner) update({ items });
}

// --- keeping ----------------------------------------------------------------------------------------

/**
 * Keeps a change for later. The last waiting change, when it sets the same data items of the same activity
 * on the same state, is replaced (keepRules.ts `replaces`). Throws QueueFull when it does not fit. The change gets its
 * Idempotency-Key here (`key`: the one a direct send already used, else a new one); a replacing change gets
 * a new key too: it is a new value (were the replaced one to have reached the server after all, it set the
 * same items, which this one sets again).
 */
export async function enqueue(change: NewChange, key: string = newChangeKey()): Promise<QueuedItem> {
  const owner = state.owner;
  if (!owner) throw new Error('no signed-in user for the queue');
  const bytes = bytesOf(change.change);
  const last = state.items.at(-1);
  const replaced = replaces(last, change, state.sending?.id) ? last : undefined;
  const used = queuedBytes() - (replaced?.bytes ?? 0);
  const maxBytes = queueLimit();
  if (used + bytes > maxBytes) throw new QueueFull(bytes, Math.max(0, maxBytes - used));
  const fields = { ...change, userId: owner, bytes, madeAt: Date.now(), key };
  let item: QueuedItem;
  try {
    if (replaced) {
      item = { ...fields, id: replaced.id };
      await putItem(item);
    } else {
      item = { ...fields, id: await addItem(fields) };
    }
  } catch (error) {
    if (isQuotaError(error)) throw new QueueFull(bytes, 0);
    throw error;
  }
  if (state.owner === owner) {
    const items = replaced ? state.items.map((i) => (i.id === item.id ? item : i)) : [...state.items, item];
    update({ items });
  }
  told();
  return item;
}

/** Drops a kept change (the user dismissed a refused one, or took it back). */
export async function dismiss(id: number): Promise<void> {
  await deleteItem(id);
  update({ items: state.items.filter((i) => i.id !== id) });
  told();
}

// --- sending ----------------------------------------------------------------------------------------

/**
 * Sends one change as the ordinary request (api/activityChanges.ts, as the worker does), with the current
 * token and the change's Idempotency-Key.
 */
export function sendChange(item: Pick<QueuedItem, 'activityId' | 'stanje' | 'change' | 'key'>, onProgress?: (percent: number) => void) {
  const request = requestOfChange(item);
  const { headers } = request;
  if ('form' in request) return sendForm<unknown>(request.path, request.form, { method: request.method, onProgress, headers });
  return api<unknown>(request.path, { method: request.method, body: request.json, headers });
}

/** An answer that means "try again later" rather than "no". */
function pauseFor(error: unknown): Pause | 'refused' {
  return error instanceof ApiError ? pauseOfStatus(error.status) : 'offline';
}

/** The text kept with a refusal: the server's message, else the status. */
function refusalMessage(error: unknown): string {
  if (error instanceof ApiError) return error.serverMessage ?? `HTTP ${error.status}`;
  return String(error);
}

let retryTimer: ReturnType<typeof setTimeout> | undefined;
let retries = 0;

function scheduleRetry(): void {
  clearTimeout(retryTimer);
  const delay = RETRY_DELAYS[Math.min(retries, RETRY_DELAYS.length - 1)];
  retries++;
  retryTimer = setTimeout(() => void flushQueue(), delay);
}

let running: Promise<void> | null = null;

/**
 * Sends the owner's waiting changes, oldest first, one at a time; answers when the run ends (all sent, or
 * paused). A run already under way is joined, not doubled; another tab's run is left to finish there.
 */
export function flushQueue(): Promise<void> {
  running ??= withSendLock(run).finally(() => {
    running = null;
    update({ sending: null });
  });
  return running;
}

async function withSendLock(body: () => Promise<void>): Promise<void> {
  const locks = typeof navigator === 'undefined' ? undefined : navigator.locks;
  if (!locks) return body();
  await locks.request(SEND_LOCK, { ifAvailable: true }, async (lock) => {
    // Another tab is sending: it tells this one what it sent.
    if (lock) await body();
  });
}

async function run(): Promise<void> {
  clearTimeout(retryTimer);
  let done = 0;
  for (;;) {
    const owner = state.owner;
    if (!owner || !getToken()) {
      update({ paused: 'signedOut' });
      return;
    }
    // The browser knows it has no network: its 'online' event starts the next run.
    if (navigator.onLine === false) {
      update({ paused: 'offline' });
      if (state.items.some(isWaiting)) void armBackgroundSync(owner);
      return;
    }
    // Read again each time: another tab may have kept or sent changes meanwhile.
    const items = (await readItems()).filter((i) => i.userId === owner);
    if (state.owner !== owner) return;
    update({ items });
    const waiting = items.filter(isWaiting);
    const next = waiting[0];
    if (!next) {
      retries = 0;
      update({ paused: null });
      // Nothing waits: the worker needs no token.
      await clearWorkerSession().catch(() => undefined);
      return;
    }
    update({ sending: { id: next.id, percent: null, done, total: done + waiting.length }, paused: null });
    try {
      const answer = await sendChange(next, (percent) => {
        if (state.sending?.id === next.id) update({ sending: { ...state.sending, percent } });
      });
      await deleteItem(next.id);
      done++;
      retries = 0;
      update({ items: state.items.filter((i) => i.id !== next.id) });
      told();
      for (const listener of sentListeners) listener(next, answer);
    } catch (error) {
      const pause = pauseFor(error);
      if (pause !== 'refused') {
        update({ paused: pause });
        if (pause !== 'signedOut') {
          scheduleRetry();
          void armBackgroundSync(owner);
        }
        return;
      }
      const refused: QueuedItem = { ...next, refusal: { status: (error as ApiError).status, message: refusalMessage(error) } };
      await putItem(refused);
      update({ items: state.items.map((i) => (i.id === refused.id ? refused : i)) });
      told();
      for (const listener of refusedListeners) listener(refused);
    }
  }
}

export type Submitted<T> = { sent: T } | { queued: QueuedItem };

/**
 * A change made on a screen: sent at once when the network is there and nothing older waits; kept for
 * later (and the sending started) when the device is offline, older changes wait, the request never
 * reached the server, or the session ended (401) before it could be checked. Other refusals are the
 * caller's, as before. Throws QueueFull when it had to be kept and does not fit.
 */
export async function submitChange<T>(change: NewChange, onProgress?: (percent: number) => void): Promise<Submitted<T>> {
  // Nobody owns the queue (a screen shown outside the shell): sent as it always was.
  if (state.owner === null) return { sent: (await sendChange(change, onProgress)) as T };
  const direct = navigator.onLine !== false && running === null && !state.items.some(isWaiting);
  if (direct) {
    // The key goes with the first try: when its answer is lost and the change is kept, the server knows it again.
    const key = newChangeKey();
    try {
      return { sent: (await sendChange({ ...change, key }, onProgress)) as T };
    } catch (error) {
      if (!(error instanceof ApiError) || (error.status !== 0 && error.status !== 401)) throw error;
      const queued = await enqueue(change, key);
      if (error.status === 0) {
        scheduleRetry();
        void armBackgroundSync(queued.userId);
      } else update({ paused: 'signedOut' });
      return { queued };
    }
  }
  const queued = await enqueue(change);
  if (navigator.onLine === false) {
    update({ paused: 'offline' });
    void armBackgroundSync(queued.userId);
  } else void flushQueue();
  return { queued };
}

// --- Background Sync ----------------------------------------------------------------------------------

/** Hands the owner's waiting changes to the worker's Background Sync (queueSync.ts); another user's, never. */
function armBackgroundSync(userId: string): Promise<boolean> {
  return state.owner === userId ? registerBackgroundSync(userId) : Promise.resolve(false);
}

/**
 * The worker's sync, with this page open: the page sends (it shows the progress and reads the screens
 * again), answering 'taken' at once and then whether changes still wait.
 */
function answerWorker(event: MessageEvent): void {
  const port = event.ports[0];
  if (event.data !== SYNC_REQUEST || !port) return;
  if (!state.owner) return;
  port.postMessage('taken' satisfies SyncReply);
  void flushQueue().then(() => port.postMessage((state.items.some(isWaiting) ? 'retry' : 'done') satisfies SyncReply));
}

// --- who and when -------------------------------------------------------------------------------------

/**
 * The signed-in user (the shell sets it once the profile is known; null when nobody is). Another user's
 * changes are removed from the device (it keeps one user's data), then the owner's waiting ones are sent.
 */
export async function setQueueOwner(userId: string | null): Promise<void> {
  if (state.owner === userId) {
    if (userId && state.items.some(isWaiting)) void flushQueue();
    return;
  }
  update({ owner: userId, items: [], sending: null, paused: null });
  if (!userId) return;
  await deleteOthers(userId);
  await reload();
  if (state.owner === userId && state.items.some(isWaiting)) void flushQueue();
}

let started = false;

/** Sends on the browser's 'online' event and when the tab is shown again (once per page). */
export function startQueue(): void {
  if (started || typeof window === 'undefined') return;
  started = true;
  window.addEventListener('offline', () => {
    if (!state.sending) update({ paused: 'offline' });
  });
  window.addEventListener('online', () => {
    retries = 0;
    void flushQueue();
  });
  navigator.serviceWorker?.addEventListener('message', answerWorker);
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible' && state.items.some(isWaiting) && navigator.onLine !== false) void flushQueue();
  });
}

/** Sign-out: every kept change of this device is removed, and the worker's session with them. */
export async function clearQueue(): Promise<void> {
  clearTimeout(retryTimer);
  retries = 0;
  update({ owner: null, items: [], sending: null, paused: null });
  await deleteAll();
  told();
}
