import { Readable } from 'node:stream';
import archiver from 'archiver';
import type { ActivityFileStore } from '../../shared/activityFileStore.js';
import type { ZipEntry } from './service.js';

/**
 * A zip of stored files, streamed: entries are stored (documents and drawings are compressed already),
 * each file opened only when the archive reaches it, so one file is open at a time and nothing is held
 * in memory. A file missing from the disk is left out. The archive is aborted when the client goes away.
 */
export function zipStream(store: ActivityFileStore, entries: readonly ZipEntry[]): archiver.Archiver {
  const archive = archiver('zip', { store: true });
  let aborted = false;
  archive.on('close', () => {
    aborted = true;
  });
  (async () => {
    for (const entry of entries) {
      if (aborted) return;
      if (!(await store.exists(entry.storedName))) continue;
      const lazy = Readable.from(
        (async function* () {
          for await (const chunk of store.open(entry.storedName)) yield chunk as Buffer;
        })(),
      );
      archive.append(lazy, { name: entry.name });
    }
    await archive.finalize();
  })().catch((err) => archive.destroy(err as Error));
  return archive;
}
