import { type SQL, sql } from 'drizzle-orm';
import { LRUCache } from 'lru-cache';
import pg from 'pg';
import { clientOf, type Executor } from '../database.js';
import { EPOCH_ROW, epochSql, NEVER_RESTORED } from '../epoch.js';
import { type KindName, kindOf, type VersionName } from './kinds.js';

/**
 * The one place values are kept in the server's memory (docs/ARCHITECTURE.md "Kept values"; the kinds and
 * the versions they are kept under: kinds.ts).
 *
 * One store per database pool (two databases' versions are unrelated numbers), holding one least
 * recently used set per kind (lru-cache), bounded by the kind's bytes and entries. None on a transaction's
 * connection (its own changes move no version before its commit): there every value is read afresh. A
 * value is kept with the version it was read under and used only while the version read now is the same
 * (`<epoch>/<name>:<version>.…`, versionSql: the epoch makes a restore's versions new); nothing is ever
 * invalidated, a value of another version is simply replaced.
 *
 * Settings (config.ts, per store): TRASA_KEPT_VERIFY computes every hit afresh and fails the request
 * (KeptValueMismatch, a 500 whose log line names the kind and the key) when the kept value differs beyond
 * its kind's tolerance; TRASA_KEPT_OFF keeps nothing of the named kinds (every use computes afresh).
 */

export type KeptSettings = {
  /** Every hit computed afresh and compared (TRASA_KEPT_VERIFY). */
  verify: boolean;
  /** Kinds that keep nothing (TRASA_KEPT_OFF): their values are computed on every use. */
  off: ReadonlySet<KindName> | 'all';
};

export const KEPT_DEFAULTS: KeptSettings = { verify: false, off: new Set() };

/** A kept value differs from the same value computed afresh (TRASA_KEPT_VERIFY): the request fails. */
export class KeptValueMismatch extends Error {
  constructor(
    readonly kind: KindName,
    readonly key: string,
    detail: string,
  ) {
    super(`kept value differs from a fresh one (TRASA_KEPT_VERIFY): kind ${kind}, key ${key}: ${detail}`);
    this.name = 'KeptValueMismatch';
  }
}

/** A kept value: the version it was read under ('' for a kind without versions) and its size in bytes. */
export type Entry<T> = { version: string; value: T; size: number };

/** The values kept for one database (or a store of its own: the tests of the store). */
export class KeptStore {
  private readonly sets = new Map<KindName, LRUCache<string, Entry<unknown>>>();
  /** Whole answers being built, by kind, key and version: concurrent misses build once (answers.ts). */
  readonly building = new Map<string, Promise<unknown>>();

  constructor(
    /** Shared with the application's other stores (config.ts); tests change `verify` for a step. */
    readonly settings: KeptSettings = { ...KEPT_DEFAULTS },
    /** Smaller budgets for tests of the eviction. */
    private readonly budgets: Partial<Record<KindName, { bytes?: number; entries?: number }>> = {},
  ) {}

  keeps(kind: KindName): boolean {
    const { off } = this.settings;
    return off !== 'all' && !off.has(kind);
  }

  set<T>(kind: KindName): LRUCache<string, Entry<T>> {
    let found = this.sets.get(kind);
    if (!found) {
      const decl = kindOf(kind);
      const bytes = this.budgets[kind]?.bytes ?? decl.bytes;
      const entries = this.budgets[kind]?.entries ?? decl.entries;
      found = new LRUCache<string, Entry<unknown>>({
        maxSize: bytes,
        maxEntrySize: Math.min(bytes, decl.entryBytes ?? bytes / 4),
        sizeCalculation: (entry, key) => Math.max(1, entry.size + 2 * key.length + 2 * entry.version.length + 48),
        ...(entries !== undefined && { max: entries }),
      });
      this.sets.set(kind, found);
    }
    return found as LRUCache<string, Entry<T>>;
  }

  /** Bytes and entries kept of `kind` (tests, diagnostics). */
  stats(kind: KindName): { bytes: number; entries: number } {
    const found = this.sets.get(kind);
    return { bytes: found?.calculatedSize ?? 0, entries: found?.size ?? 0 };
  }
}

const byPool = new WeakMap<object, KeptStore>();

/** The settings of the values kept for `db`'s database (app.ts; the test harness changes `verify` for a step). */
export function configureKept(db: Executor, settings: KeptSettings): KeptStore {
  const client = clientOf(db);
  const store = new KeptStore(settings);
  byPool.set(client, store);
  return store;
}

/** What is kept for `owner` (a database pool, or a store of its own), null on a transaction's connection. */
export function storeOf(owner: Executor | KeptStore): KeptStore | null {
  if (owner instanceof KeptStore) return owner;
  const client = clientOf(owner);
  if (!(client instanceof pg.Pool)) return null;
  let store = byPool.get(client);
  if (!store) {
    store = new KeptStore();
    byPool.set(client, store);
  }
  return store;
}

/** The settings in force for `db`'s kept values (tests turn verify off for a step that changes data behind the triggers). */
export function keptSettings(db: Executor): KeptSettings {
  const store = storeOf(db);
  if (!store) throw new Error('keptSettings: no kept values on a transaction');
  return store.settings;
}

// ----------------------------------------------------------------------------------------- versions

const sortedNames = new Map<KindName, readonly VersionName[]>();
const versionNames = (kind: KindName): readonly VersionName[] => {
  let names = sortedNames.get(kind);
  if (!names) {
    if (kindOf(kind).versions.length === 0) throw new Error(`kept kind ${kind} declares no data version`);
    names = [...kindOf(kind).versions].sort();
    sortedNames.set(kind, names);
  }
  return names;
};
const versionSqls = new Map<KindName, SQL>();

/**
 * The kind's data versions as one text expression, after the database's epoch: `<epoch>/<name>:<version>.…`
 * (names sorted), null when a version's row is missing. Read in a statement of the request (or on its
 * own: readVersion).
 */
export function versionSql(kind: KindName): SQL {
  let found = versionSqls.get(kind);
  if (!found) {
    const names = versionNames(kind);
    found = sql`(${epochSql} || '/' || (select case when count(*) = ${names.length} then string_agg(name || ':' || version, '.' order by name) end
    from report_cache_state where name in (${sql.join(
      names.map((n) => sql`${n}`),
      sql`, `,
    )})))`;
    versionSqls.set(kind, found);
  }
  return found;
}

/**
 * The kind's current data versions as versionSql writes them, read on their own: the rows themselves
 * (a third of versionSql's aggregate in PostgreSQL's CPU, 50 against 155 µs), written here.
 */
export async function readVersion(db: Executor, kind: KindName): Promise<string | null> {
  const names = versionNames(kind);
  const result = await db.execute<{ name: string; version: string }>(
    sql`select name, version::text as version from report_cache_state where name in (${sql.join(
      [EPOCH_ROW, ...names].map((n) => sql`${n}`),
      sql`, `,
    )})`,
  );
  const read: Partial<Record<string, string>> = {};
  for (const row of result.rows) read[row.name] = row.version;
  return versionText(kind, read[EPOCH_ROW], read);
}

/** versionSql's text for versions already read (`epoch` null or absent: a database never restored). */
export function versionText(
  kind: KindName,
  epoch: string | null | undefined,
  read: Partial<Record<VersionName, string | null>>,
): string | null {
  const parts = versionNames(kind).map((name) => {
    const v = read[name];
    return v == null ? null : `${name}:${v}`;
  });
  return parts.every((p) => p !== null) ? `${epoch ?? NEVER_RESTORED}/${parts.join('.')}` : null;
}

/**
 * Every data version's row as load_active_user reads them with the user, in one aggregate
 * (`<name>:<version>` joined by '.', any order; the epoch's row among them when there is one): the SQL
 * (VERSIONS_AGGREGATE, one scan of the table's few rows) and its parse into name → version. The names and the counters hold neither
 * ':' nor '.'.
 */
export const VERSIONS_AGGREGATE: SQL = sql`(select string_agg(name || ':' || version, '.') from report_cache_state)`;

export type ReadVersions = Readonly<Partial<Record<string, string>>>;

export function parseVersions(text: string | null | undefined): ReadVersions {
  const read: Partial<Record<string, string>> = {};
  if (text)
    for (const part of text.split('.')) {
      const colon = part.indexOf(':');
      if (colon > 0) read[part.slice(0, colon)] = part.slice(colon + 1);
    }
  return read;
}

/** What a request's actor carries of the versions read with it (platform/auth.ts Actor). */
export type ActorVersions = {
  epoch?: string | null;
  /** Every version's row read with the user (load_active_user), the epoch's among them. */
  versions?: ReadVersions;
};

/**
 * The kind's versions as read with the request's user (load_active_user reads every version's row with
 * the epoch, Actor.versions), written as versionSql writes them: null when one of them has no row,
 * undefined when the actor carries none (an actor built outside a request: the caller reads them itself,
 * or keeps nothing).
 */
export function actorVersion(kind: KindName, actor: ActorVersions): string | null | undefined {
  if (!actor.versions) return undefined;
  return versionText(kind, actor.versions[EPOCH_ROW] ?? actor.epoch, actor.versions);
}

// ----------------------------------------------------------------------------------------- a kind's values

/** The values of one kind (kinds.ts), in the store of whatever database or owner they are asked of. */
export type Kept<T> = {
  readonly kind: KindName;
  /** Whether `owner` keeps values of this kind now (not on a transaction's connection, not switched off). */
  keeps(owner: Executor | KeptStore): boolean;
  /** The value kept for `key` (any version), undefined when none, null when nothing is kept here. */
  find(owner: Executor | KeptStore, key: string): Entry<T> | undefined | null;
  /** Keeps `value` for `key` under `version` (nothing for a null version, or where nothing is kept). */
  keep(owner: Executor | KeptStore, key: string, version: string | null, value: T): void;
  /** Forgets `key`. */
  drop(owner: Executor | KeptStore, key: string): void;
  /**
   * A hit under TRASA_KEPT_VERIFY: `fresh` (the value computed now) must equal the kept one within the
   * kind's tolerance, unless the kind's versions moved since it was kept (a change that raced with the
   * request: the fresh value is newer, not wrong). Throws KeptValueMismatch otherwise.
   */
  check(owner: Executor | KeptStore, key: string, entry: Entry<T>, fresh: T): Promise<void>;
  /** check for a kind without versions, at once (a value computed without the database). */
  checkNow(key: string, entry: Entry<T>, fresh: T): void;
  /** Whether hits are to be checked (TRASA_KEPT_VERIFY) for `owner`. */
  verifying(owner: Executor | KeptStore): boolean;
  /**
   * The value kept for `key` under `version`, else `read()`'s, kept under it. `read` must read the data as
   * of that version or later (a statement after the one that read the version). A null or undefined version,
   * a transaction's connection or the kind switched off: read() every time, nothing kept.
   */
  remember(db: Executor | KeptStore, key: string, version: string | null | undefined, read: () => Promise<T>): Promise<T>;
};

/** Shows a kept value in a log line: at most 300 characters. */
function shown(value: unknown): string {
  let text: string;
  try {
    text = typeof value === 'string' ? value : JSON.stringify(value);
  } catch {
    text = String(value);
  }
  return text.length > 300 ? `${text.slice(0, 300)}…` : text;
}

/** Throws KeptValueMismatch unless `same`, or the kind's versions moved since `entry` was kept. */
export async function checkKept(
  owner: Executor | KeptStore,
  kind: KindName,
  key: string,
  entry: { version: string },
  same: boolean,
  detail: () => string,
): Promise<void> {
  if (same) return;
  if (kindOf(kind).versions.length > 0 && !(owner instanceof KeptStore)) {
    const now = await readVersion(owner, kind);
    if (now !== entry.version) return;
  }
  throw new KeptValueMismatch(kind, key, detail());
}

export function kept<T>(kind: KindName): Kept<T> {
  const decl = kindOf(kind);
  const sizeOf = (decl.size ?? (() => 64)) as (value: T) => number;
  const setOf = (owner: Executor | KeptStore) => {
    const store = storeOf(owner);
    return store?.keeps(kind) ? store.set<T>(kind) : null;
  };
  const handle: Kept<T> = {
    kind,
    keeps: (owner) => setOf(owner) !== null,
    find(owner, key) {
      const set = setOf(owner);
      return set ? set.get(key) : null;
    },
    keep(owner, key, version, value) {
      const set = setOf(owner);
      if (!set || version === null) return;
      set.set(key, { version, value, size: sizeOf(value) });
    },
    drop(owner, key) {
      setOf(owner)?.delete(key);
    },
    verifying: (owner) => storeOf(owner)?.settings.verify === true,
    checkNow(key, entry, fresh) {
      if (!decl.compare.same(entry.value, fresh))
        throw new KeptValueMismatch(kind, key, `kept ${shown(entry.value)}, fresh ${shown(fresh)}`);
    },
    check: (owner, key, entry, fresh) =>
      checkKept(owner, kind, key, entry, decl.compare.same(entry.value, fresh), () => `kept ${shown(entry.value)}, fresh ${shown(fresh)}`),
    async remember(owner, key, version, read) {
      if (version == null) return read();
      const found = handle.find(owner, key);
      if (found === null) return read();
      if (found && found.version === version) {
        if (handle.verifying(owner)) await handle.check(owner, key, found, await read());
        return found.value;
      }
      const value = await read();
      handle.keep(owner, key, version, value);
      return value;
    },
  };
  return handle;
}
