import type { Readable } from 'node:stream';
import { COMMON, CONTRACTS, type RefusedDocument } from '@trasa/domain';
import type { FastifyRequest } from 'fastify';
import { AppError, badRequest } from '../../platform/errors.js';
import { displayName, FILE_TEXTS, FileRejected, type FileStore, type StoredFile } from '../../platform/files.js';
import { isUnacceptableInput } from '../../platform/input.js';
import { DOCUMENT_KINDS, UPLOAD_LIMITS } from './kinds.js';

/**
 * The fields (each with its values in order) and the files already stored of one multipart request,
 * and the documents refused one by one (type or size): the others are kept.
 */
export type ContractForm = { fields: Map<string, string[]>; files: StoredFile[]; refused: RefusedDocument[] };

/**
 * The message of an upload answer: `saved` when a document was stored or none was sent; when every
 * document sent was refused, that no document was saved (and, when fields were edited, that they were).
 */
export function uploadMessage(saved: string, fieldsEdited: boolean, form: Pick<ContractForm, 'files' | 'refused'>): string {
  if (form.files.length > 0 || form.refused.length === 0) return saved;
  return fieldsEdited ? CONTRACTS.editedNoDocument : CONTRACTS.noDocumentSaved;
}

async function drain(stream: Readable): Promise<void> {
  for await (const _ of stream) {
    /* discard */
  }
}

/** Limit errors of @fastify/multipart, as the client's error. */
function limitError(err: unknown): AppError {
  const code = (err as { code?: unknown }).code;
  if (code === 'FST_REQ_FILE_TOO_LARGE') return badRequest(FILE_TEXTS.tooLarge);
  if (code === 'FST_FILES_LIMIT' || code === 'FST_FIELDS_LIMIT' || code === 'FST_PARTS_LIMIT') return badRequest(COMMON.tooLarge);
  return badRequest(COMMON.badRequest);
}

/**
 * A file over the size limit is truncated and refused by the store, alone, not the whole request
 * (@fastify/multipart reads `throwFileSizeLimit` per request; its types leave it out of `parts()`).
 */
const PART_OPTIONS = { limits: UPLOAD_LIMITS, throwFileSizeLimit: false };

export async function removeStored(files: FileStore, stored: StoredFile[]): Promise<void> {
  await Promise.all(stored.map((f) => files.remove(f.storedName)));
}

/**
 * Reads a multipart contract form: every file part is stored through the file store (type by content,
 * size limit while streaming); fields are collected. A document the store refuses (type, size) is
 * listed in `refused` with its reason and the others are kept. Any other refusal (a field, too many
 * parts) removes the files already stored by this request and is thrown, after the rest of the body has
 * been read (so the browser gets the answer instead of a broken connection). A JSON body gives its
 * fields and no files.
 */
export async function readContractForm(request: FastifyRequest, files: FileStore): Promise<ContractForm> {
  const fields = new Map<string, string[]>();
  const add = (name: string, value: string) => fields.set(name, [...(fields.get(name) ?? []), value]);
  if (!request.isMultipart()) {
    const body = request.body;
    if (body !== undefined && body !== null && (typeof body !== 'object' || Array.isArray(body))) throw badRequest(COMMON.badRequest);
    for (const [name, value] of Object.entries((body ?? {}) as Record<string, unknown>)) {
      if (Array.isArray(value)) for (const v of value) add(name, typeof v === 'string' ? v : JSON.stringify(v));
      else if (value !== undefined && value !== null) add(name, typeof value === 'string' ? value : String(value));
      else add(name, '');
    }
    return { fields, files: [], refused: [] };
  }

  const saved: StoredFile[] = [];
  const refused: RefusedDocument[] = [];
  let refusal: AppError | undefined;
  try {
    for await (const part of request.parts(PART_OPTIONS)) {
      if (part.type === 'file') {
        // A browser sends an empty file input as a nameless, empty part.
        if (refusal || !part.filename) {
          await drain(part.file);
          continue;
        }
        // Browsers send a double quote in a file name as %22 (the HTML form encoding).
        const name = part.filename.replace(/%22/g, '"');
        try {
          saved.push(await files.saveDocument(part.file, name, { maxBytes: UPLOAD_LIMITS.fileSize, allowed: DOCUMENT_KINDS }));
        } catch (err) {
          if (!(err instanceof FileRejected)) throw err;
          refused.push({ originalnoIme: displayName(name), razlog: err.message, polje: part.fieldname });
          if (!part.file.destroyed) await drain(part.file);
        }
      } else {
        if (part.valueTruncated || part.fieldnameTruncated) refusal ??= badRequest(COMMON.tooLarge, { [part.fieldname]: COMMON.tooLarge });
        const value = typeof part.value === 'string' ? part.value : JSON.stringify(part.value);
        if (isUnacceptableInput(value) || isUnacceptableInput(part.fieldname)) refusal ??= badRequest(COMMON.badRequest);
        add(part.fieldname, value);
      }
    }
  } catch (err) {
    // A failing disk is the server's fault, not the request's.
    if ((err as NodeJS.ErrnoException).errno !== undefined) {
      await removeStored(files, saved);
      throw err;
    }
    refusal ??= err instanceof AppError ? err : limitError(err);
  }
  if (refusal) {
    await removeStored(files, saved);
    throw refusal;
  }
  return { fields, files: saved, refused };
}
