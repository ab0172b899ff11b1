import type { ActivityState, DataItem } from '@trasa/domain';
import { type DBSchema, deleteDB, type IDBPDatabase, openDB } from 'idb';

/**
 * The device's copy of the changes waiting to be sent (queue.ts): one IndexedDB database of its own, one
 * object store whose auto-incremented key is the order the changes were made in. Files are kept as Blobs.
 */
export const QUEUE_DB = 'trasa-queue';
const STORE = 'changes';

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
  /** Refused by the server: kept, with the reason, until the user dismisses it. */
  refusal?: { status: number; message: string };
};

export type NewItem = Omit<QueuedItem, 'id'>;

interface QueueSchema extends DBSchema {
  changes: { key: number; value: QueuedItem };
}

let opened: Promise<IDBPDatabase<QueueSchema>> | null = null;

function db(): Promise<IDBPDatabase<QueueSchema>> {
  opened ??= openDB<QueueSchema>(QUEUE_DB, 1, {
    upgrade(database) {
      database.createObjectStore(STORE, { keyPath: 'id', autoIncrement: true });
    },
    // Another tab deleting or upgrading the database: let it, open again when next needed.
    blocking() {
      void opened?.then((d) => d.close());
      opened = null;
    },
  });
  return opened;
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

/** Removes the changes of every user but `userId`. */
export async function deleteOthers(userId: string): Promise<number> {
  const tx = (await db()).transaction(STORE, 'readwrite');
  let removed = 0;
  for (let cursor = await tx.store.openCursor(); cursor; cursor = await cursor.continue()) {
    if (cursor.value.userId !== userId) {
      await cursor.delete();
      removed++;
    }
  }
  await tx.done;
  return removed;
}

/** Removes everything: the database itself. */
export async function deleteAll(): Promise<void> {
  const current = opened;
  opened = null;
  if (current) (await current.catch(() => null))?.close();
  await deleteDB(QUEUE_DB);
}
