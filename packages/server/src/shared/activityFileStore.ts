import type { Readable } from 'node:stream';
import { displayName, FILE_TEXTS, FileRejected, type FileStore, fileStore } from '../platform/files.js';
import { ACTIVITY_FILE_MIME, type ActivityFileKind, extensionOf, hasAllowedExtension, sniffActivityFile } from './activityFileKinds.js';

export type StoredActivityFile = { storedName: string; originalName: string; mimetype: string; size: number; kind: ActivityFileKind };

/**
 * Activity documents in the same store as the contracts' (DATA_DIR/files, generated names): the size
 * limit is enforced while streaming, the type by content (kinds.ts), the original name kept for display.
 * `copy` (the base store's) duplicates a stored file under a new name: A6 holds its own copy of A5.1's LU.
 */
export function activityFileStore(dataDir: string) {
  const base: FileStore = fileStore(dataDir);
  return {
    ...base,
    async save(stream: Readable, originalName: string, opts: { maxBytes: number }): Promise<StoredActivityFile> {
      const name = displayName(originalName);
      if (!hasAllowedExtension(name)) throw new FileRejected(FILE_TEXTS.wrongType);
      const {
        storedName,
        size,
        found: kind,
      } = await base.saveInspected(stream, opts.maxBytes, (target) => sniffActivityFile(target, extensionOf(name)));
      return { storedName, originalName: name, mimetype: ACTIVITY_FILE_MIME[kind], size, kind };
    },
  };
}
export type ActivityFileStore = ReturnType<typeof activityFileStore>;
