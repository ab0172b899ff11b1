import { randomBytes, timingSafeEqual } from 'node:crypto';
import { Worker } from 'node:worker_threads';
import { ACCOUNT } from '@trasa/domain';
import { COMMON_PASSWORD_LIST } from './commonPasswords.js';
import { AppError, badRequest } from './errors.js';

/**
 * scrypt with OWASP's parameters (N=2^17, r=8, p=1: 128 MiB, one thread). The parameters are stored
 * with the hash, so they can be raised later and old hashes still verify.
 */
const LOG_N = 17;
const R = 8;
const P = 1;
const KEY_LEN = 32;

/**
 * How much password work runs at once, and how much may wait (docs/decisions.md "Sign-in and
 * sessions (hardened)"). One hash takes ~0.4 s of one core and 128 MiB; on 2 cores, one at a time
 * keeps a core for every other request. Work from accounts under attack ('suspect') runs only when no
 * ordinary work waits and has its own, shorter queue; beyond the queues, or after waiting too long,
 * the caller gets 503 'Server je trenutno preopterećen…'.
 */
export type PasswordWorkLimits = {
  concurrency: number;
  /** Niceness of the hashing threads (Linux); main.ts sets 10 for the server, tests keep 0. */
  nice: number;
  maxWaiting: Record<Lane, number>;
  maxWaitMs: number;
};
const DEFAULT_LIMITS: PasswordWorkLimits = { concurrency: 1, nice: 0, maxWaiting: { known: 8, normal: 8, suspect: 2 }, maxWaitMs: 4000 };
let limits: PasswordWorkLimits = DEFAULT_LIMITS;

/** Tests and benchmarks only: other limits (omitted fields keep the defaults). */
export function configurePasswordWork(
  next: Partial<Omit<PasswordWorkLimits, 'maxWaiting'>> & { maxWaiting?: Partial<Record<Lane, number>> } = {},
): void {
  limits = { ...DEFAULT_LIMITS, ...next, maxWaiting: { ...DEFAULT_LIMITS.maxWaiting, ...next.maxWaiting } };
}

/**
 * Lanes, served in this order: 'known' (a sign-in from an address the account signed in from lately;
 * a session's own checks), 'normal', 'suspect' (an account under attack, from an unknown address).
 */
export type Lane = 'known' | 'normal' | 'suspect';
const LANES: readonly Lane[] = ['known', 'normal', 'suspect'];

export class PasswordWorkBusy extends AppError {
  constructor() {
    super(503, ACCOUNT.busy);
  }
}

type Job = { start: () => void; timer: NodeJS.Timeout };
const waiting: Record<Lane, Job[]> = { known: [], normal: [], suspect: [] };
let running = 0;
const stats = { hashed: 0, refused: 0 };

/** What the password work did so far (tests, benchmarks). */
export function passwordWorkStats() {
  return { ...stats, running, waiting: LANES.reduce((n, lane) => n + waiting[lane].length, 0) };
}

function dispatch(): void {
  while (running < limits.concurrency) {
    const job = waiting.known.shift() ?? waiting.normal.shift() ?? waiting.suspect.shift();
    if (!job) return;
    clearTimeout(job.timer);
    job.start();
  }
}

/** Runs `work` when a slot is free: at once, after waiting in its lane, or never (PasswordWorkBusy). */
export function runPasswordWork<T>(lane: Lane, work: () => Promise<T>): Promise<T> {
  const run = async () => {
    running++;
    try {
      return await work();
    } finally {
      running--;
      stats.hashed++;
      dispatch();
    }
  };
  // At once only when a slot is free and nothing of this lane or a better one waits.
  if (running < limits.concurrency && LANES.slice(0, LANES.indexOf(lane) + 1).every((l) => waiting[l].length === 0)) {
    return run();
  }
  const queue = waiting[lane];
  if (queue.length >= limits.maxWaiting[lane]) {
    stats.refused++;
    return Promise.reject(new PasswordWorkBusy());
  }
  return new Promise<T>((resolve, reject) => {
    const job: Job = {
      start: () => run().then(resolve, reject),
      timer: setTimeout(() => {
        const i = queue.indexOf(job);
        if (i >= 0) queue.splice(i, 1);
        stats.refused++;
        reject(new PasswordWorkBusy());
      }, limits.maxWaitMs),
    };
    queue.push(job);
  });
}

/**
 * scrypt runs in worker threads of its own, at a lower CPU priority in the server (nice 10, Linux,
 * set by main.ts): when the machine is busy the kernel serves the request thread and PostgreSQL first,
 * so password work can slow sign-ins down but not the other requests; libuv's thread pool (JWT
 * verification, the database driver, files) is not used for it at all. Tests keep nice 0: their
 * parallel files would starve a niced hasher.
 */
const HASHER = `
const { parentPort, workerData } = require('node:worker_threads');
const { scryptSync } = require('node:crypto');
try {
  const tid = Number(require('node:fs').readlinkSync('/proc/thread-self').split('/').pop());
  if (tid > 0 && workerData.nice > 0) require('node:os').setPriority(tid, workerData.nice);
} catch {}
parentPort.on('message', (job) => {
  try {
    const key = scryptSync(job.password, Buffer.from(job.salt), job.keyLen, { N: job.N, r: job.r, p: job.p, maxmem: job.maxmem });
    parentPort.postMessage({ id: job.id, key });
  } catch (err) {
    parentPort.postMessage({ id: job.id, error: String((err && err.message) || err) });
  }
});`;

type Pending = { resolve: (key: Buffer) => void; reject: (err: Error) => void };
const idle: Worker[] = [];
const pendingJobs = new Map<number, Pending>();
let nextJob = 0;

function newHasher(): Worker {
  // No inherited loaders (tsx, test runners): the hasher needs Node's built-ins only.
  const worker = new Worker(HASHER, { eval: true, execArgv: [], workerData: { nice: limits.nice } });
  worker.on('message', (m: { id: number; key?: Uint8Array; error?: string }) => {
    const job = pendingJobs.get(m.id);
    pendingJobs.delete(m.id);
    if (m.key) job?.resolve(Buffer.from(m.key));
    else job?.reject(new Error(m.error ?? 'scrypt failed'));
  });
  worker.on('error', () => undefined);
  // After the listeners: adding a 'message' listener refs the worker's port again, and an idle hasher
  // must never keep a process (the demo seed, a CLI) from exiting.
  worker.unref();
  return worker;
}

function scrypt(password: string, salt: Buffer, logN: number, r: number, p: number): Promise<Buffer> {
  const N = 2 ** logN;
  const worker = idle.pop() ?? newHasher();
  const id = nextJob++;
  return new Promise<Buffer>((resolve, reject) => {
    const fail = (err: Error) => {
      pendingJobs.delete(id);
      reject(err);
    };
    const onExit = () => fail(new Error('password worker stopped'));
    worker.once('exit', onExit);
    // A hash in progress keeps the process alive; an idle hasher does not.
    worker.ref();
    pendingJobs.set(id, {
      resolve: (key) => {
        worker.off('exit', onExit);
        worker.unref();
        idle.push(worker);
        resolve(key);
      },
      reject: (err) => {
        worker.off('exit', onExit);
        worker.unref();
        idle.push(worker);
        reject(err);
      },
    });
    worker.postMessage({
      id,
      password: password.normalize('NFKC'),
      salt,
      keyLen: KEY_LEN,
      N,
      r,
      p,
      maxmem: 256 * N * r + 16 * 1024 * 1024,
    });
  });
}

export async function hashPassword(password: string, lane: Lane = 'normal'): Promise<string> {
  const salt = randomBytes(16);
  const key = await runPasswordWork(lane, () => scrypt(password, salt, LOG_N, R, P));
  return `scrypt$${LOG_N}$${R}$${P}$${salt.toString('base64')}$${key.toString('base64')}`;
}

export async function verifyPassword(password: string, stored: string, lane: Lane = 'normal'): Promise<boolean> {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
  const [, logN, r, p, salt, key] = parts as [string, string, string, string, string, string];
  const expected = Buffer.from(key, 'base64');
  const actual = await runPasswordWork(lane, () => scrypt(password, Buffer.from(salt, 'base64'), Number(logN), Number(r), Number(p)));
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** Serbian additions to the common list, folded like the candidates (lower case, no diacritics). */
const SERBIAN_COMMON = [
  'lozinka',
  'mojalozinka',
  'sifra',
  'mojasifra',
  'tajna',
  'tajnasifra',
  'pristup',
  'korisnik',
  'srbija',
  'srbijadosubote',
  'beograd',
  'novisad',
  'kragujevac',
  'jugoslavija',
  'zvezda',
  'crvenazvezda',
  'delije',
  'partizan',
  'grobari',
  'volimte',
  'volimtebe',
  'ljubav',
  'ljubavi',
  'sunce',
  'suncica',
  'mama',
  'tata',
  'qwertz',
  'qwertzu',
  'qwertzuiop',
  'yxcvbnm',
  'asdfghjkl',
  'trasa',
  'ministarstvo',
  'telekom',
];

const SEQUENCES = ['abcdefghijklmnopqrstuvwxyz', 'qwertyuiop', 'qwertzuiop', 'asdfghjkl', 'zxcvbnm', 'yxcvbnm'].flatMap((s) => [
  s,
  [...s].reverse().join(''),
]);

let common: Set<string> | undefined;
function commonPasswords(): Set<string> {
  common ??= new Set([...COMMON_PASSWORD_LIST.split('\n').filter(Boolean), ...SERBIAN_COMMON]);
  return common;
}

/** Lower case, Serbian Latin letters folded to ASCII (š→s, đ→dj …), other accents dropped. */
function fold(text: string): string {
  return text.toLowerCase().replace(/đ/g, 'dj').normalize('NFKD').replace(/\p{M}/gu, '');
}

/** The word a password is built on: trailing digits and symbols dropped ('Lozinka123!' → 'lozinka'). */
const stem = (folded: string) => folded.replace(/[^\p{L}]+$/u, '');

export type PasswordOwner = { ime?: string | null; prezime?: string | null; email?: string | null };

/**
 * Why a new password is refused beyond the domain's length and letter rules, or null: one of the most
 * common passwords (or one of them with digits and symbols appended), or built on the owner's name or
 * e-mail address. Server-side only: the list stays out of the browser.
 */
export function passwordWeakness(password: string, owner: PasswordOwner = {}): string | null {
  const folded = fold(password);
  const base = stem(folded);
  const list = commonPasswords();
  if (list.has(folded) || (base.length >= 4 && list.has(base))) return ACCOUNT.passwordTooCommon;
  // 'aaaaaaaa', 'abababab12', 'abcdefgh', 'qwertzui': too few characters, or a run of the alphabet or a keyboard row.
  if (new Set(folded).size < 4 || (base.length >= 4 && SEQUENCES.some((s) => s.includes(base)))) return ACCOUNT.passwordTooCommon;
  const local = owner.email?.split('@')[0] ?? '';
  const parts = [owner.ime, owner.prezime, local, ...local.split(/[^\p{L}\p{N}]+/u)]
    .map((p) => fold(p ?? '').trim())
    .filter((p) => p.length >= 3);
  for (const part of parts) {
    // Short parts (three letters) only as the whole word; longer ones anywhere in the password.
    if (base === part || folded === part || (part.length >= 4 && folded.includes(part))) return ACCOUNT.passwordPersonal;
  }
  return null;
}

/** Refuses a weak new password with 400 and the message on `field`. */
export function assertStrongPassword(password: string, owner: PasswordOwner, field: string): void {
  const weakness = passwordWeakness(password, owner);
  if (weakness) throw badRequest(weakness, { [field]: weakness });
}
