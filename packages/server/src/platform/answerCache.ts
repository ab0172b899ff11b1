import { promisify } from 'node:util';
import { brotliCompress, gzip, constants as zlibConstants } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * A bounded in-process cache of whole JSON answers (docs/decisions.md "Reports: whole answers kept by
 * data version"): the serialised answer, and its brotli and gzip bytes once a client asked for them,
 * so a big report is neither rebuilt nor compressed again while the data it was built from stays.
 *
 * The key is the caller's: the route, the normalised query, the visibility scope and a DATA VERSION the
 * route reads from PostgreSQL on every request (so two server instances on one database never answer
 * from stale data — a change made through the other instance moves the version both read). An entry
 * is never invalidated; a new version is simply another key, and the old one ages out of the LRU.
 *
 * Bounded by bytes (body and compressed copies together), least recently used first out; an answer
 * bigger than a quarter of the bound is sent but not kept. Concurrent misses of one key build once.
 */

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

type Encoding = 'br' | 'gzip';
type Entry = { body: Buffer; encoded: Partial<Record<Encoding, Promise<Buffer>>>; bytes: number };

/** Answers under this size go out as they are (as @fastify/compress's threshold in app.ts). */
const THRESHOLD = 1024;

/** The encoding to answer with, as @fastify/compress chooses (br before gzip; q=0 refuses). */
export function acceptedEncoding(header: string | string[] | undefined): Encoding | null {
  const value = Array.isArray(header) ? header.join(',') : (header ?? '');
  const q = new Map<string, number>();
  for (const part of value.split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    const qParam = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const weight = qParam ? Number(qParam.slice(2)) : 1;
    q.set(name, Number.isFinite(weight) ? weight : 0);
  }
  const of = (name: Encoding) => q.get(name) ?? q.get('*') ?? 0;
  if (of('br') > 0) return 'br';
  if (of('gzip') > 0) return 'gzip';
  return null;
}

export type AnswerCache = {
  /**
   * Sends the answer kept under `key`, or builds it (`build` answers the JSON text), keeps it and
   * sends it; compressed for the client's Accept-Encoding from the kept bytes.
   */
  send(request: FastifyRequest, reply: FastifyReply, key: string, build: () => Promise<string>): Promise<FastifyReply>;
  /** Bytes kept now (body and compressed copies) and entries: for tests and diagnostics. */
  stats(): { bytes: number; entries: number };
};

export function answerCache(maxBytes = 64 * 1024 * 1024): AnswerCache {
  const entries = new Map<string, Entry>();
  const building = new Map<string, Promise<Entry>>();
  let bytes = 0;

  const evict = () => {
    for (const [key, entry] of entries) {
      if (bytes <= maxBytes) break;
      entries.delete(key);
      bytes -= entry.bytes;
    }
  };
  const keep = (key: string, entry: Entry) => {
    if (entry.bytes > maxBytes / 4) return;
    entries.set(key, entry);
    bytes += entry.bytes;
    evict();
  };
  const lookup = (key: string) => {
    const entry = entries.get(key);
    if (entry) {
      // Most recently used last (a Map iterates in insertion order).
      entries.delete(key);
      entries.set(key, entry);
    }
    return entry;
  };

  const encodedOf = (key: string, entry: Entry, encoding: Encoding): Promise<Buffer> => {
    let pending = entry.encoded[encoding];
    if (!pending) {
      pending = encoding === 'br' ? brotli(entry.body, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 4 } }) : gzipAsync(entry.body);
      entry.encoded[encoding] = pending;
      void pending.then(
        (buf) => {
          entry.bytes += buf.length;
          if (entries.get(key) === entry) {
            bytes += buf.length;
            evict();
          }
        },
        () => {
          delete entry.encoded[encoding];
        },
      );
    }
    return pending;
  };

  return {
    async send(request, reply, key, build) {
      let entry = lookup(key);
      if (!entry) {
        let pending = building.get(key);
        if (!pending) {
          pending = build().then((text) => {
            const body = Buffer.from(text, 'utf8');
            return { body, encoded: {}, bytes: body.length + key.length };
          });
          building.set(key, pending);
          void pending.then(
            (built) => {
              building.delete(key);
              keep(key, built);
            },
            () => building.delete(key),
          );
        }
        entry = await pending;
      }
      reply.header('content-type', 'application/json; charset=utf-8').header('vary', 'accept-encoding');
      const encoding = entry.body.length >= THRESHOLD ? acceptedEncoding(request.headers['accept-encoding']) : null;
      if (!encoding) return reply.send(entry.body);
      // A Content-Encoding already set: @fastify/compress leaves the answer as it is.
      const encoded = await encodedOf(key, entry, encoding);
      return reply.header('content-encoding', encoding).header('content-length', encoded.length).send(encoded);
    },
    stats: () => ({ bytes, entries: entries.size }),
  };
}
