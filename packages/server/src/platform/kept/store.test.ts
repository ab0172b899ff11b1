import { sql } from 'drizzle-orm';
import { describe, expect, it, onTestFinished } from 'vitest';
import { useTestApp } from '../../../test/harness.js';
import { KINDS, VERSIONS } from './kinds.js';
import {
  actorVersion,
  KeptStore,
  KeptValueMismatch,
  kept,
  keptSettings,
  parseVersions,
  readVersion,
  VERSIONS_AGGREGATE,
  versionText,
} from './store.js';

const t = useTestApp();

describe('values kept by data version (platform/kept/store.ts)', () => {
  it('keeps a value under its version only, none inside a transaction', async () => {
    // (`read` answers another value each time: under TRASA_KEPT_VERIFY a hit would rightly fail.)
    const settings = keptSettings(t.db);
    const was = settings.verify;
    settings.verify = false;
    onTestFinished(() => {
      settings.verify = was;
    });
    const scopes = kept<string>('clusterScope');
    let reads = 0;
    const read = async () => `v${++reads}`;
    expect(await scopes.remember(t.db, 'a', '1', read)).toBe('v1');
    expect(await scopes.remember(t.db, 'a', '1', read)).toBe('v1');
    expect(await scopes.remember(t.db, 'a', '2', read)).toBe('v2');
    expect(await scopes.remember(t.db, 'a', null, read)).toBe('v3');
    expect(await scopes.remember(t.db, 'a', '2', read)).toBe('v2');
    await t.db.transaction(async (tx) => {
      expect(scopes.find(tx, 'a')).toBeNull();
      expect(await scopes.remember(tx, 'a', '2', read)).toBe('v4');
    });
  });

  it('holds at most its bytes, least recently used out; a value over a quarter of them is used, not kept', () => {
    const store = new KeptStore(undefined, { clusterScope: { bytes: 4_000 } });
    const scopes = kept<{ all: false; groupIds: string[]; clusterIds: string }>('clusterScope');
    // Each entry: 100 + 800 characters of ids, and its key and version: about 960 bytes.
    const scope = (c: string) => ({ all: false as const, groupIds: [], clusterIds: c.repeat(800) });
    for (const k of ['a', 'b', 'c', 'd']) scopes.keep(store, k, '1', scope(k));
    expect(scopes.find(store, 'a')?.value.clusterIds).toHaveLength(800);
    scopes.keep(store, 'e', '1', scope('e'));
    // 'a' was used just now, 'b' is the least recently used.
    expect(scopes.find(store, 'b')).toBeUndefined();
    expect(scopes.find(store, 'a')).toBeDefined();
    expect(store.stats('clusterScope').bytes).toBeLessThanOrEqual(4_000);
    scopes.keep(store, 'big', '1', { all: false, groupIds: [], clusterIds: 'x'.repeat(1_000) });
    expect(scopes.find(store, 'big')).toBeUndefined();
    expect(scopes.find(store, 'e')).toBeDefined();
  });

  it('holds at most its entries', () => {
    const store = new KeptStore(undefined, { userCount: { entries: 3 } });
    const counts = kept<number>('userCount');
    for (const k of ['a', 'b', 'c']) counts.keep(store, k, '1', 1);
    counts.keep(store, 'c', '2', 2);
    expect(counts.find(store, 'a')?.value).toBe(1);
    counts.keep(store, 'd', '1', 4);
    expect(counts.find(store, 'b')).toBeUndefined();
    expect(counts.find(store, 'd')?.value).toBe(4);
    expect(store.stats('userCount').entries).toBe(3);
  });

  it('keeps nothing of a kind switched off (TRASA_KEPT_OFF), and of none with `all`', async () => {
    const off = new KeptStore({ verify: false, off: new Set(['clusterScope']) });
    let reads = 0;
    const read = async () => ++reads;
    const scopes = kept<number>('clusterScope');
    expect(await scopes.remember(off, 'a', '1', read)).toBe(1);
    expect(await scopes.remember(off, 'a', '1', read)).toBe(2);
    expect(scopes.find(off, 'a')).toBeNull();
    const counts = kept<number>('userCount');
    expect(await counts.remember(off, 'a', '1', read)).toBe(3);
    expect(await counts.remember(off, 'a', '1', read)).toBe(3);
    const none = new KeptStore({ verify: false, off: 'all' });
    expect(counts.keeps(none)).toBe(false);
  });

  it('under verify, computes every hit again and fails naming the kind and the key when it differs', async () => {
    const store = new KeptStore({ verify: true, off: new Set() });
    const scopes = kept<{ all: false; groupIds: string[] }>('clusterScope');
    let value = { all: false as const, groupIds: ['g1'] };
    const read = async () => value;
    expect(await scopes.remember(store, 'g1:false', '1', read)).toEqual(value);
    expect(await scopes.remember(store, 'g1:false', '1', read)).toEqual(value);
    value = { all: false, groupIds: ['g1', 'g2'] };
    const failed = await scopes.remember(store, 'g1:false', '1', read).catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(KeptValueMismatch);
    expect(failed).toMatchObject({ kind: 'clusterScope', key: 'g1:false' });
    expect(String((failed as Error).message)).toContain('kind clusterScope, key g1:false');
  });

  it("under verify, an approximate kind (a search's total) passes within its tolerance and fails beyond it", async () => {
    const store = new KeptStore({ verify: true, off: new Set() });
    // A search's total: equal up to the exact limit, both past it beyond.
    const counts = kept<number>('userCount');
    counts.keep(store, 'q', '1', 12_000);
    const count = counts.find(store, 'q');
    if (!count) throw new Error('not kept');
    await counts.check(store, 'q', count, 15_000);
    await expect(counts.check(store, 'q', count, 9_000)).rejects.toThrow(KeptValueMismatch);
  });

  it('under verify, a kept value whose versions moved since is newer data, not a wrong value (a change raced with the request)', async () => {
    const settings = keptSettings(t.db);
    const scopes = kept<string>('clusterScope');
    const now = await readVersion(t.db, 'clusterScope');
    expect(now).toMatch(/^\d+\/groups:\d+\.visibility:\d+$/);
    scopes.keep(t.db, 'race', 'an older version', 'old');
    scopes.keep(t.db, 'wrong', now, 'old');
    const was = settings.verify;
    settings.verify = true;
    try {
      const race = scopes.find(t.db, 'race');
      const wrong = scopes.find(t.db, 'wrong');
      if (!race || !wrong) throw new Error('not kept');
      await scopes.check(t.db, 'race', race, 'new');
      await expect(scopes.check(t.db, 'wrong', wrong, 'new')).rejects.toThrow('kind clusterScope, key wrong');
    } finally {
      settings.verify = was;
    }
  });

  it('writes versions as the statements read them: the epoch, then each name and counter in name order', async () => {
    expect(versionText('comparison', null, { snapshots: '4', visibility: '2', catalogue: '9' })).toBe(
      '0/catalogue:9.snapshots:4.visibility:2',
    );
    expect(versionText('comparison', '77', { snapshots: '4', visibility: '2' })).toBeNull();
    const read = await readVersion(t.db, 'comparison');
    expect(read).toMatch(/^\d+\/catalogue:\d+\.snapshots:\d+\.visibility:\d+$/);
  });

  it("reads every kind's versions with the user as readVersion reads them on their own", async () => {
    const result = await t.db.execute<{ versions: string | null }>(sql`select ${VERSIONS_AGGREGATE} as versions`);
    const versions = parseVersions(result.rows[0]?.versions);
    for (const kind of Object.keys(KINDS) as (keyof typeof KINDS)[]) {
      expect(actorVersion(kind, { versions }), kind).toBe(await readVersion(t.db, kind));
    }
    // An epoch row read with them is the one the versions are written after; a row missing: none kept.
    expect(actorVersion('groupList', { versions: parseVersions('epoch:42.groups:7') })).toBe('42/groups:7');
    expect(actorVersion('a13List', { versions: parseVersions('a13:1.locations:3') })).toBeNull();
    // An actor built without them (outside a request): undefined, the caller reads them or keeps nothing.
    expect(actorVersion('clusterScope', { epoch: '5' })).toBeUndefined();
  });

  it('declares every kind under versions it names, each version with tables', () => {
    for (const [name, kind] of Object.entries(KINDS)) {
      for (const v of kind.versions) expect(Object.keys(VERSIONS), name).toContain(v);
      expect(kind.versions.length, name).toBeGreaterThan(0);
    }
    for (const [name, version] of Object.entries(VERSIONS)) expect(Object.keys(version.tables).length, name).toBeGreaterThan(0);
  });
});
