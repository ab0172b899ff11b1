import { promisify } from 'node:util';
import { brotliCompress, gzip, constants as zlibConstants } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Executor } from '../database.js';
import type { AnswerKind } from './kinds.js';
import { checkKept, type KeptStore, readVersion, storeOf } from './store.js';

/**
 * Whole JSON answers kept by data version (docs/decisions.md "Pickers: whole lists kept by data version",
 * "Reports: whole answers kept by data version"): the serialised answer, and its brotli and gzip bytes once
 * a client asked for them, so a big answer is neither rebuilt nor compressed again while the data it was
 * built from stays. A kind of kinds.ts each (clusterList, groupList, a13List, comparison), in the store of
 * the database (store.ts): bounded by the kind's bytes (body and compressed copies together), least
 * recently used out; an answer bigger than a quarter of them is sent, not kept. Concurrent misses of one
 * key and version build once.
 *
 * A call for at least WHOLE_LIST_LIMIT rows — the pickers' GET /api/location?limit=1000 and GET
 * /api/group?limit=50000, made on every dialog opened — is answered from here; smaller pages are built on every request (cheap, and keeping them would
 * only flatter the benchmark).
 */
export const WHOLE_LIST_LIMIT = 1000;

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

type Encoding = 'br' | 'gzip';
/** A kept answer: the text's bytes and its compressed copies, added as clients ask for them. */
type Answer = { body: Buffer; encoded: Partial<Record<Encoding, Promise<Buffer>>>; encodedBytes: number };

/** Answers under this size go out as they are (as @fastify/compress's threshold in app.ts). */
const THRESHOLD = 1024;

/**
 * The encoding chosen for the last Accept-Encoding headers seen (a browser sends the same one on every
 * request): a hit reads it here instead of parsing the header again.
 */
const chosen = new Map<string, Encoding | null>();
const CHOSEN_MAX = 64;

/** The encoding to answer with, as @fastify/compress chooses (br before gzip; q=0 refuses). */
export function acceptedEncoding(header: string | string[] | undefined): Encoding | null {
  const value = Array.isArray(header) ? header.join(',') : (header ?? '');
  const known = chosen.get(value);
  if (known !== undefined) return known;
  const choice = chooseEncoding(value);
  if (chosen.size >= CHOSEN_MAX) chosen.clear();
  chosen.set(value, choice);
  return choice;
}

function chooseEncoding(value: string): Encoding | null {
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

type ScopeLike = { all: true } | { all: false; groupIds: string[] };
/** scopeKey of scope objects seen (a kept cluster scope is the same object on every hit): not sorted again. */
const scopeKeys = new WeakMap<ScopeLike, string>();

/** The part of a kept answer's key that names what the caller sees: 'all', or their scope's groups sorted. */
export function scopeKey(scope: ScopeLike): string {
  if (scope.all) return 'all';
  let key = scopeKeys.get(scope);
  if (key === undefined) {
    key = [...scope.groupIds].sort().join(',');
    scopeKeys.set(scope, key);
  }
  return key;
}

const sendPlain = async (reply: FastifyReply, build: () => Promise<string>) =>
  reply.type('application/json; charset=utf-8').send(await build());

/**
 * Sends the answer of `kind` kept for `key` under the kind's current data versions, or builds it (`build`
 * answers the JSON text), keeps it and sends it. `version`: the kind's versions as the request read them
 * (store.ts actorVersion: with the user, no statement of its own; null: a row missing); undefined: read
 * here (readVersion). Either way read before `build` reads the data. Compressed for the client's
 * Accept-Encoding from the kept bytes. Built and sent as it is where nothing is kept (a transaction's connection, the kind switched off, a version's
 * row missing). Under TRASA_KEPT_VERIFY a kept answer is built again and must be the same text.
 */
export async function sendKept(
  owner: Executor | KeptStore,
  kind: AnswerKind,
  request: FastifyRequest,
  reply: FastifyReply,
  key: unknown[],
  build: () => Promise<string>,
  version?: string | null,
): Promise<FastifyReply> {
  const store = storeOf(owner);
  if (!store?.keeps(kind)) return sendPlain(reply, build);
  const current = version !== undefined ? version : await readVersion(owner as Executor, kind);
  if (current === null) return sendPlain(reply, build);
  const keyText = JSON.stringify(key);
  const set = store.set<Answer>(kind);
  const entry = set.get(keyText);
  let answer: Answer;
  if (entry && entry.version === current) {
    answer = entry.value;
    if (store.settings.verify) {
      const fresh = await build();
      await checkKept(owner, kind, keyText, entry, answer.body.equals(Buffer.from(fresh, 'utf8')), () =>
        describeDifference(answer.body.toString('utf8'), fresh),
      );
    }
  } else {
    const buildKey = `${kind}\u0000${keyText}\u0000${current}`;
    let pending = store.building.get(buildKey) as Promise<Answer> | undefined;
    if (!pending) {
      pending = build().then((text) => ({ body: Buffer.from(text, 'utf8'), encoded: {}, encodedBytes: 0 }));
      store.building.set(buildKey, pending);
      void pending.then(
        (built) => {
          store.building.delete(buildKey);
          set.set(keyText, { version: current, value: built, size: built.body.length });
        },
        () => store.building.delete(buildKey),
      );
    }
    answer = await pending;
  }
  reply.header('content-type', 'application/json; charset=utf-8').header('vary', 'accept-encoding');
  const encoding = answer.body.length >= THRESHOLD ? acceptedEncoding(request.headers['accept-encoding']) : null;
  if (!encoding) return reply.send(answer.body);
  // A Content-Encoding already set: @fastify/compress leaves the answer as it is.
  const encoded = await encodedOf(store, kind, keyText, current, answer, encoding);
  return reply.header('content-encoding', encoding).header('content-length', encoded.length).send(encoded);
}

/** The answer's bytes in `encoding`, compressed once and counted in the kept size while it is kept. */
function encodedOf(store: KeptStore, kind: AnswerKind, key: string, version: string, answer: Answer, encoding: Encoding): Promise<Buffer> {
  let pending = answer.encoded[encoding];
  if (!pending) {
    pending = encoding === 'br' ? brotli(answer.body, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 4 } }) : gzipAsync(answer.body);
    answer.encoded[encoding] = pending;
    void pending.then(
      (buf) => {
        answer.encodedBytes += buf.length;
        // Counted again with its copies while it is the kept one (a new entry object: lru-cache sizes it anew).
        const set = store.set<Answer>(kind);
        if (set.peek(key)?.value === answer) set.set(key, { version, value: answer, size: answer.body.length + answer.encodedBytes });
      },
      () => {
        delete answer.encoded[encoding];
      },
    );
  }
  return pending;
}

/** Where two answers' texts part, for the log line of a verify failure. */
function describeDifference(kept: string, fresh: string): string {
  let i = 0;
  while (i < kept.length && i < fresh.length && kept[i] === fresh[i]) i++;
  const around = (s: string) => JSON.stringify(s.slice(Math.max(0, i - 60), i + 60));
  return `the texts differ at character ${i} (kept ${kept.length}, fresh ${fresh.length} characters): kept …${around(kept)}…, fresh …${around(fresh)}…`;
}
