/**
 * The device's own copy (docs/decisions.md "Offline"): one IndexedDB database, 'trasa-offline', through
 * `idb`. API answers stay `Cache-Control: no-store`; what the app may show without a network it writes
 * here itself, per user, and reads back only for the same user and for `KEEP_MS`.
 *
 * Stores (schema version `DB_VERSION`; each version adds an `if (oldVersion < N)` step to `upgrade`):
 * - `answers`: kept GET answers, keyed [userId, path] (the path with its query, as the client calls it);
 * - `changes`: the changes made on the device and not yet sent (queueDb.ts), key auto-incremented (the
 *   order they are sent in);
 * - `session`: one record, `worker`, while changes wait: whose they are and the token and script the
 *   service worker sends them with (Background Sync, offline/backgroundSync.ts).
 *
 * Nothing here touches the page (no `window`, no local storage): the service worker opens it too. This
 * module loads lazily (the client imports it when it keeps or needs an answer): the login page's
 * JavaScript does not carry it.
 */
import { type DBSchema, type IDBPDatabase, openDB } from 'idb';
import type { QueuedItem } from './queueDb';

export const DB_NAME = 'trasa-offline';
export const DB_VERSION = 2;
/** How long a kept answer may be shown: seven days from when the network last answered it. */
export const KEEP_MS = 7 * 24 * 60 * 60 * 1000;

export type KeptAnswer = {
  userId: string;
  /** The API path with its query ('/activity/…', '/activity/notifications?page=1&limit=10'). */
  path: string;
  /** When the network answered it (ms since the epoch). */
  savedAt: number;
  data: unknown;
};

/** What the service worker sends the waiting changes with: only this user's, with this token. */
export type WorkerSession = { userId: string; token: string; script: 'cyr' | 'lat' };

export interface OfflineSchema extends DBSchema {
  answers: { key: [string, string]; value: KeptAnswer; indexes: { byUser: string; bySavedAt: number } };
  changes: { key: number; value: QueuedItem };
  session: { key: string; value: WorkerSession };
}

export type OfflineDb = IDBPDatabase<OfflineSchema>;
export const STORES = ['answers', 'changes', 'session'] as const;
/** The session store's one key. */
export const WORKER_SESSION = 'worker';

let opening: Promise<OfflineDb> | null = null;

/** The database, opened once per page (again after another tab's upgrade closed it). Rejects where the browser has no IndexedDB. */
export function openStore(): Promise<OfflineDb> {
  if (opening) return opening;
  const reset = () => {
    opening = null;
  };
  opening = openDB<OfflineSchema>(DB_NAME, DB_VERSION, {
    upgrade(db, oldVersion) {
      if (oldVersion < 1) {
        const answers = db.createObjectStore('answers', { keyPath: ['userId', 'path'] });
        answers.createIndex('byUser', 'userId');
        answers.createIndex('bySavedAt', 'savedAt');
      }
      if (oldVersion < 2) {
        // Version 1's `queue` store was never written (the changes had a database of their own, moved
        // into `changes` by queueDb.ts when it first opens this one).
        const names = db.objectStoreNames as DOMStringList;
        if (names.contains('queue')) db.deleteObjectStore('queue' as never);
        db.createObjectStore('changes', { keyPath: 'id', autoIncrement: true });
        db.createObjectStore('session');
      }
    },
    // A newer version opened in another tab: this one lets it upgrade and opens again when next asked.
    blocking(_current, _blocked, event) {
      (event.target as IDBDatabase | null)?.close();
      reset();
    },
    terminated: reset,
  });
  opening.catch(reset);
  return opening;
}

/**
 * Keeps a GET answer of `userId` (replacing the earlier one of the same path). `stillSignedIn` is asked
 * in the same task as the write starts: an answer that arrives after its session ended is not kept (a
 * sign-out's clearing starts after the write, and IndexedDB runs the two in that order).
 */
export async function keepAnswer(
  userId: string,
  path: string,
  data: unknown,
  stillSignedIn: () => boolean = () => true,
  now = Date.now(),
): Promise<void> {
  const db = await openStore();
  if (!stillSignedIn()) return;
  await db.put('answers', { userId, path, savedAt: now, data });
}

/** The kept answer of `userId` for `path`, unless it is older than KEEP_MS. */
export async function readAnswer(userId: string, path: string, now = Date.now()): Promise<KeptAnswer | undefined> {
  const db = await openStore();
  const kept = await db.get('answers', [userId, path]);
  return kept && now - kept.savedAt <= KEEP_MS ? kept : undefined;
}

/** Removes the answers kept for any other user than `userId` and those older than KEEP_MS. The waiting changes are left as they are. */
export async function pruneAnswers(userId: string, now = Date.now()): Promise<number> {
  const db = await openStore();
  const tx = db.transaction('answers', 'readwrite');
  let removed = 0;
  for (let cursor = await tx.store.openCursor(); cursor; cursor = await cursor.continue()) {
    if (cursor.value.userId !== userId || now - cursor.value.savedAt > KEEP_MS) {
      await cursor.delete();
      removed++;
    }
  }
  await tx.done;
  return removed;
}

/**
 * Removes every kept answer (of every user) and the service worker's session (the token was refused); the
 * waiting changes stay.
 */
export async function clearAnswers(): Promise<void> {
  const db = await openStore();
  const tx = db.transaction(['answers', 'session'], 'readwrite');
  await Promise.all([tx.objectStore('answers').clear(), tx.objectStore('session').clear(), tx.done]);
}

/** Empties every store: kept answers, waiting changes and the worker's session, of every user. */
export async function clearStore(): Promise<void> {
  const db = await openStore();
  const tx = db.transaction([...STORES], 'readwrite');
  await Promise.all([...STORES.map((name) => tx.objectStore(name).clear()), tx.done]);
}

/** How many records each store holds (the sign-out check, tests). */
export async function countRecords(): Promise<Record<(typeof STORES)[number], number>> {
  const db = await openStore();
  const [answers, changes, session] = await Promise.all(STORES.map((name) => db.count(name)));
  return { answers: answers ?? 0, changes: changes ?? 0, session: session ?? 0 };
}

/** The service worker's session: written while changes wait (queue.ts), read by the worker's sender. */
export async function putWorkerSession(session: WorkerSession): Promise<void> {
  const db = await openStore();
  await db.put('session', session, WORKER_SESSION);
}

export async function readWorkerSession(): Promise<WorkerSession | undefined> {
  const db = await openStore();
  return db.get('session', WORKER_SESSION);
}

/** Nothing waits any more, or the token was refused: the worker has nothing to send with. */
export async function clearWorkerSession(): Promise<void> {
  const db = await openStore();
  await db.delete('session', WORKER_SESSION);
}
