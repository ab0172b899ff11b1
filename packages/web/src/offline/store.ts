/**
 * The device's own copy (docs/decisions.md "Offline"): one IndexedDB database, 'trasa-offline', through
 * `idb`. API answers stay `Cache-Control: no-store`; what the app may show without a network it writes
 * here itself, per user, and reads back only for the same user and for `KEEP_MS`.
 *
 * Stores (schema version `DB_VERSION`; a later version adds an `if (oldVersion < N)` step to `upgrade`):
 * - `answers`: kept GET answers, keyed [userId, path] (the path with its query, as the client calls it);
 * - `queue`: work made on the device and not yet sent, key auto-incremented (the order it is sent in).
 *
 * This module loads lazily (the client imports it when it keeps or needs an answer): the login page's
 * JavaScript does not carry it.
 */
import { type DBSchema, type IDBPDatabase, openDB } from 'idb';

export const DB_NAME = 'trasa-offline';
export const DB_VERSION = 1;
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

/** A change made on the device, waiting for the network. */
export type QueueEntry = {
  /** Auto-incremented: the order of sending. */
  id?: number;
  /** Whose change it is: only that user's session sends or shows it. */
  userId: string;
  createdAt: number;
  /** What it is ('data', 'comment', 'upload', …): the sender reads `payload` by it. */
  kind: string;
  payload: unknown;
};

export interface OfflineSchema extends DBSchema {
  answers: { key: [string, string]; value: KeptAnswer; indexes: { byUser: string; bySavedAt: number } };
  queue: { key: number; value: QueueEntry; indexes: { byUser: string } };
}

export type OfflineDb = IDBPDatabase<OfflineSchema>;
export const STORES = ['answers', 'queue'] as const;

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
        const queue = db.createObjectStore('queue', { keyPath: 'id', autoIncrement: true });
        queue.createIndex('byUser', 'userId');
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

/** Removes the answers kept for any other user than `userId` and those older than KEEP_MS. The queue is left as it is. */
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

/** Removes every kept answer (of every user); the queue stays. */
export async function clearAnswers(): Promise<void> {
  const db = await openStore();
  await db.clear('answers');
}

/** Empties every store: kept answers and the queue, of every user. */
export async function clearStore(): Promise<void> {
  const db = await openStore();
  const tx = db.transaction([...STORES], 'readwrite');
  await Promise.all([...STORES.map((name) => tx.objectStore(name).clear()), tx.done]);
}

/** How many records each store holds (the sign-out check, tests). */
export async function countRecords(): Promise<Record<(typeof STORES)[number], number>> {
  const db = await openStore();
  const [answers, queue] = await Promise.all(STORES.map((name) => db.count(name)));
  return { answers: answers ?? 0, queue: queue ?? 0 };
}
