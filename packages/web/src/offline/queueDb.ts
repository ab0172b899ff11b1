import type { ActivityState, DataItem } from '@trasa/domain';
import { deleteDB, openDB } from 'idb';
import { openStore, WORKER_SESSION } from './store';

/**
 * The device's copy of the changes waiting to be sent (queue.ts, and the service worker's
 * backgroundSync.ts): the store `changes` of the device's database 'trasa-offline' (store.ts), whose
 * auto-incremented key is the order the changes were made in. Files are kept as Blobs. Worker-safe: no
 * `window`, no local storage.
 */
const STORE = 'changes';
/** The database the changes had of their own before they moved into 'trasa-offline': read once, then deleted. */
export const FORMER_QUEUE_DB = 'trasa-queue';

/** A document of a queued upload: the bytes as chosen (a photo already shrunk). */
export type QueuedFile = { name: string; type: string; blob: Blob };

/** Where a queued upload goes (the upload path's parts) and with what fields. */
export type UploadSpec = {
  kratakNaziv: string;
  locationId: string;
  kontrolna: boolean;
  version: number;
  isRequired: boolean;
  userInput?: string;
};

export type QueuedChange =
  | { kind: 'data'; podaci: DataItem[] }
  | { kind: 'comment'; komentar: string }
  | { kind: 'upload'; upload: UploadSpec; files: QueuedFile[] };

export type QueuedItem = {
  /** The order of making (IndexedDB's key). */
  id: number;
  /** Whose change it is: sent only with that user's token. */
  userId: string;
  activityId: string;
  /** The activity as the list names it ('A4 - Izrada idejnog rešenja (IDR)') and its cluster. */
  title: string;
  cluster: string;
  /** The state the change was made on; the server refuses it when the activity has moved on. */
  stanje: ActivityState;
  change: QueuedChange;
  /** What it takes on the device (the files' bytes, or the text's). */
  bytes: number;
  /** When it was made (ms since the epoch). */
  madeAt: number;
  /**
   * The change's Idempotency-Key (a UUID made when it was kept, api/activityChanges.ts `newChangeKey`):
   * every send of it carries the key, so the server applies it once however often it arrives. Changes kept
   * before the key existed have none and are sent without it.
   */
  key?: string;
  /** Refused by the server: kept, with the reason, until the user dismisses it. */
  refusal?: { status: number; message: string };
};

export type NewItem = Omit<QueuedItem, 'id'>;

let ready: Promise<void> | null = null;

/**
 * Changes kept in the former database 'trasa-queue' move into `changes` with their keys (their order), once
 * per page or worker; the former database is then deleted. Where the browser cannot list its databases, the
 * former one is opened (and, when it did not exist, created empty and deleted at once).
 */
export async function moveFormerQueue(): Promise<void> {
  if (typeof indexedDB.databases === 'function') {
    const names = (await indexedDB.databases()).map((d) => d.name);
    if (!names.includes(FORMER_QUEUE_DB)) return;
  }
  const former = await openDB(FORMER_QUEUE_DB);
  const items: QueuedItem[] = former.objectStoreNames.contains(STORE) ? await former.getAll(STORE) : [];
  former.close();
  if (items.length > 0) {
    const tx = (await openStore()).transaction(STORE, 'readwrite');
    await Promise.all([...items.map((item) => tx.store.put(item)), tx.done]);
  }
  await deleteDB(FORMER_QUEUE_DB);
}

async function db() {
  ready ??= moveFormerQueue().catch(() => undefined);
  await ready;
  return openStore();
}

/** Every kept change, in the order they were made. */
export async function readItems(): Promise<QueuedItem[]> {
  return (await db()).getAll(STORE);
}

/** Keeps a new change; answers its key (its place in the order). */
export async function addItem(item: NewItem): Promise<number> {
  // The key is the store's own: `id` is left out for autoIncrement to set it.
  return (await db()).add(STORE, item as QueuedItem);
}

export async function putItem(item: QueuedItem): Promise<void> {
  await (await db()).put(STORE, item);
}

export async function deleteItem(id: number): Promise<void> {
  await (await db()).delete(STORE, id);
}

/** Removes the changes of every user but `userId`, and the worker's session when it is another user's. */
export async function deleteOthers(userId: string): Promise<number> {
  const tx = (await db()).transaction([STORE, 'session'], 'readwrite');
  const session = tx.objectStore('session');
  if ((await session.get(WORKER_SESSION))?.userId !== userId) await session.delete(WORKER_SESSION);
  const changes = tx.objectStore(STORE);
  let removed = 0;
  for (let cursor = await changes.openCursor(); cursor; cursor = await cursor.continue()) {
    if (cursor.value.userId !== userId) {
      await cursor.delete();
      removed++;
    }
  }
  await tx.done;
  return removed;
}

/** Removes every kept change (of every user) and the service worker's session with them. */
export async function deleteAll(): Promise<void> {
  const tx = (await db()).transaction([STORE, 'session'], 'readwrite');
  await Promise.all([tx.objectStore(STORE).clear(), tx.objectStore('session').clear(), tx.done]);
}
