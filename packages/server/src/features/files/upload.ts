import type { Readable } from 'node:stream';
import { ACTIVITIES, COMMON } from '@trasa/domain';
import type { FastifyRequest } from 'fastify';
import { AppError, badRequest } from '../../platform/errors.js';
import { FileRejected } from '../../platform/files.js';
import { isUnacceptableInput } from '../../platform/input.js';
import type { ActivityFileStore, StoredActivityFile } from '../../shared/activityFileStore.js';

/**
 * Activity uploads (docs/api/activities.md "Upload"): up to 10 files of 50 MB each per request (CAD
 * drawings, surveys and archives run larger than contract documents), fields as a browser's FormData
 * sends them.
 */
export const ACTIVITY_UPLOAD_LIMITS = {
  fileSize: 50 * 1024 * 1024,
  files: 10,
  fields: 20,
  fieldSize: 100 * 1024,
  parts: 40,
} as const;

export type ActivityForm = { fields: Map<string, string[]>; files: StoredActivityFile[] };

async function drain(stream: Readable): Promise<void> {
  for await (const _ of stream) {
    /* discard */
  }
}

function limitError(err: unknown): AppError {
  const code = (err as { code?: unknown }).code;
  if (code === 'FST_REQ_FILE_TOO_LARGE') return badRequest(ACTIVITIES.fileTooLarge);
  if (code === 'FST_FILES_LIMIT') return badRequest(ACTIVITIES.tooManyFiles);
  if (code === 'FST_FIELDS_LIMIT' || code === 'FST_PARTS_LIMIT') return badRequest(COMMON.tooLarge);
  return badRequest(COMMON.badRequest);
}

export async function removeStored(store: ActivityFileStore, stored: readonly StoredActivityFile[]): Promise<void> {
  await Promise.all(stored.map((f) => store.remove(f.storedName)));
}

/**
 * Reads a multipart upload: each file part is streamed into the store (size limit while streaming,
 * type by content); fields are collected. On any refusal the files this request stored are removed and
 * the first refusal is thrown once the body has been read (the browser gets the answer, not a broken
 * connection). A request that is not multipart is refused.
 */
export async function readActivityForm(request: FastifyRequest, store: ActivityFileStore): Promise<ActivityForm> {
  if (!request.isMultipart()) throw badRequest(ACTIVITIES.noFiles);
  const fields = new Map<string, string[]>();
  const saved: StoredActivityFile[] = [];
  let refusal: AppError | undefined;
  try {
    for await (const part of request.parts({ limits: ACTIVITY_UPLOAD_LIMITS })) {
      if (part.type === 'file') {
        // A browser sends an empty file input as a nameless, empty part.
        if (refusal || !part.filename) {
          await drain(part.file);
          continue;
        }
        try {
          const name = part.filename.replace(/%22/g, '"');
          saved.push(await store.save(part.file, name, { maxBytes: ACTIVITY_UPLOAD_LIMITS.fileSize }));
        } catch (err) {
          if (!(err instanceof FileRejected)) throw err;
          refusal = badRequest(err.message, { [part.fieldname]: err.message });
          if (!part.file.destroyed) await drain(part.file);
        }
      } else {
        if (part.valueTruncated || part.fieldnameTruncated) refusal ??= badRequest(COMMON.tooLarge, { [part.fieldname]: COMMON.tooLarge });
        const value = typeof part.value === 'string' ? part.value : JSON.stringify(part.value);
        if (isUnacceptableInput(value) || isUnacceptableInput(part.fieldname)) refusal ??= badRequest(COMMON.badRequest);
        fields.set(part.fieldname, [...(fields.get(part.fieldname) ?? []), value]);
      }
    }
  } catch (err) {
    if ((err as NodeJS.ErrnoException).errno !== undefined) {
      await removeStored(store, saved);
      throw err;
    }
    refusal ??= err instanceof AppError ? err : limitError(err);
  }
  if (refusal) {
    await removeStored(store, saved);
    throw refusal;
  }
  return { fields, files: saved };
}
