import { randomUUID } from 'node:crypto';
import { createWriteStream, type WriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { COMMON, IMPORTS } from '@trasa/domain';
import type { FastifyRequest } from 'fastify';
import { AppError, badRequest } from '../../platform/errors.js';
import {
  CsvRowCount,
  checkRowLimit,
  detectFormat,
  FORMAT_HEAD_BYTES,
  type RowLimit,
  readSheet,
  SHEET_ROW_LIMIT,
  type SheetFormat,
  type SheetRow,
  SpreadsheetError,
} from '../../platform/spreadsheet.js';

/** The uploaded spreadsheet, on disk while it is read; `dispose` removes it. */
export type UploadedSheet = {
  originalName: string;
  format: SheetFormat;
  rows: () => AsyncGenerator<SheetRow>;
  /** Refuses an xlsx over the row limit before its rows are read (checkRowLimit). */
  checkRows: () => Promise<void>;
  dispose: () => Promise<void>;
};

class TooLarge extends Error {}

/** Bytes of import uploads written to DATA_DIR/tmp since the start (tests and benchmarks read it). */
export const UPLOAD_STATS = { storedBytes: 0 };

/**
 * The rows of an upload named .csv, counted as it streams (the name decides: such a file is read as csv
 * or refused). One with a NUL byte where detectFormat looks is no csv: it is not counted, and the format
 * check refuses it.
 */
function csvCount(name: string, limit: RowLimit) {
  if (!name.toLowerCase().endsWith('.csv')) return null;
  let counter: CsvRowCount | null = new CsvRowCount(limit);
  let head = 0;
  return {
    push(chunk: Buffer) {
      if (head < FORMAT_HEAD_BYTES) {
        if (chunk.subarray(0, FORMAT_HEAD_BYTES - head).includes(0)) counter = null;
        head += chunk.length;
      }
      counter?.push(chunk);
    },
    end: () => counter?.end(),
  };
}

const tooLarge = () => new AppError(413, IMPORTS.tooLarge);

/**
 * The rest of a refused upload is read and dropped, neither stored nor parsed, as Node drops a body no
 * one reads: otherwise the connection, paused in the middle of the body, could carry no further request
 * (a keep-alive client's next request waited for the server's headers timeout). Past the upload limit's
 * worth the connection is closed instead.
 */
function discardRest(request: FastifyRequest): void {
  const raw = request.raw;
  if (raw.readableEnded || raw.destroyed) return;
  let left = IMPORTS.maxBytes;
  raw.unpipe();
  raw.on('data', (chunk: Buffer) => {
    left -= chunk.length;
    if (left < 0) raw.socket?.destroy();
  });
  raw.resume();
}

async function drain(stream: Readable): Promise<void> {
  for await (const _ of stream) {
    /* discard */
  }
}

/**
 * Receives the multipart file of an import (the field is `file`; the first file part counts) into
 * DATA_DIR/tmp, refusing more than IMPORTS.maxBytes (10,000,000) while it streams, and a csv's row past
 * `limit` as soon as it arrives (400 with the limit's message; the rest of the upload is discarded
 * unread). The format is then decided by the content; the sheet's rows are read with the same limit.
 */
export async function receiveSheet(request: FastifyRequest, dataDir: string, limit: RowLimit = SHEET_ROW_LIMIT): Promise<UploadedSheet> {
  if (!request.isMultipart()) throw badRequest(IMPORTS.failed);
  const dir = path.join(dataDir, 'tmp');
  await fs.mkdir(dir, { recursive: true, mode: 0o700 });
  const target = path.join(dir, `import-${randomUUID()}`);
  let out: WriteStream | undefined;
  // A refused upload's file stream may still be opening its file when the refusal comes (pipeline destroys
  // it, and the open completes afterwards): wait for it to close, or the file appears after the removal and
  // stays in DATA_DIR/tmp (the fuzz found it under load).
  const dispose = async () => {
    const stream = out;
    if (stream && !stream.closed) await new Promise<void>((resolve) => stream.once('close', () => resolve()));
    await fs.rm(target, { force: true });
  };
  let originalName: string | undefined;
  let refusal: AppError | undefined;
  try {
    // One byte over the limit is enough to know; busboy discards the rest of a longer file.
    for await (const part of request.parts({ limits: { fileSize: IMPORTS.maxBytes + 1, files: 1, fields: 10, parts: 12 } })) {
      if (part.type !== 'file') continue;
      if (originalName !== undefined || !part.filename) {
        await drain(part.file);
        continue;
      }
      originalName = part.filename.replace(/%22/g, '"');
      let size = 0;
      const rows = csvCount(originalName, limit);
      out = createWriteStream(target, { mode: 0o600 });
      try {
        await pipeline(
          part.file,
          async function* (source: AsyncIterable<Buffer>) {
            for await (const chunk of source) {
              size += chunk.length;
              if (size > IMPORTS.maxBytes) throw new TooLarge();
              rows?.push(chunk);
              UPLOAD_STATS.storedBytes += chunk.length;
              yield chunk;
            }
            if (!part.file.truncated) rows?.end();
          },
          out,
        );
        if (part.file.truncated) throw new TooLarge();
      } catch (err) {
        if (err instanceof TooLarge) refusal = tooLarge();
        else if (err instanceof SpreadsheetError) refusal = badRequest(err.message);
        else throw err;
        if (!part.file.destroyed) await drain(part.file);
      }
    }
  } catch (err) {
    await dispose();
    discardRest(request);
    if ((err as NodeJS.ErrnoException).errno !== undefined && !(err instanceof AppError)) throw err;
    const code = (err as { code?: unknown }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw tooLarge();
    throw err instanceof AppError ? err : badRequest(COMMON.badRequest);
  }
  if (refusal) {
    await dispose();
    discardRest(request);
    throw refusal;
  }
  if (originalName === undefined) {
    await dispose();
    throw badRequest(IMPORTS.failed);
  }
  try {
    const format = await detectFormat(target, originalName);
    return {
      originalName,
      format,
      rows: () => readSheet(target, format, limit),
      checkRows: () => checkRowLimit(target, format, limit),
      dispose,
    };
  } catch (err) {
    await dispose();
    if (err instanceof SpreadsheetError) throw badRequest(err.message);
    throw err;
  }
}

/**
 * Runs `work` over the sheet's rows, once the sheet is known to be within the row limit (in the imports'
 * queue: an xlsx may be parsed to count), turning a spreadsheet that can't be read into the client's error.
 */
export async function withSheet<T>(sheet: UploadedSheet, work: (sheet: UploadedSheet) => Promise<T>): Promise<T> {
  try {
    await sheet.checkRows();
    return await work(sheet);
  } catch (err) {
    if (err instanceof SpreadsheetError) throw badRequest(err.message);
    throw err;
  }
}
