import { describe, expect, it, onTestFinished } from 'vitest';
import { useTestApp } from '../../../test/harness.js';
import { KINDS, VERSIONS } from './kinds.js';
import { KeptStore, KeptValueMismatch, kept, keptSettings, readVersion, versionText } from './store.js';

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
    const scopes = kept<string>('groupSubtree');
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
    const store = new KeptStore(undefined, { nameScripts: { bytes: 4_000 } });
    const names = kept<{ cyr: string; lat: string }>('nameScripts');
    // Each entry: 64 + 2 × (2 × 200) bytes of scripts, and its key: about 900 bytes.
    const scripts = (c: string) => ({ cyr: c.repeat(200), lat: c.repeat(200) });
    for (const k of ['a', 'b', 'c', 'd']) names.keep(store, k, '', scripts(k));
    expect(names.find(store, 'a')?.value.cyr).toHaveLength(200);
    names.keep(store, 'e', '', scripts('e'));
    // 'a' was used just now, 'b' is the least recently used.
    expect(names.find(store, 'b')).toBeUndefined();
    expect(names.find(store, 'a')).toBeDefined();
    expect(store.stats('nameScripts').bytes).toBeLessThanOrEqual(4_000);
    names.keep(store, 'big', '', { cyr: 'x'.repeat(600), lat: '' });
    expect(names.find(store, 'big')).toBeUndefined();
    expect(names.find(store, 'e')).toBeDefined();
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
    const off = new KeptStore({ verify: false, off: new Set(['groupSubtree']) });
    let reads = 0;
    const read = async () => ++reads;
    const subtrees = kept<number>('groupSubtree');
    expect(await subtrees.remember(off, 'a', '1', read)).toBe(1);
    expect(await subtrees.remember(off, 'a', '1', read)).toBe(2);
    expect(subtrees.find(off, 'a')).toBeNull();
    const lineages = kept<number>('contractLineage');
    expect(await lineages.remember(off, 'a', '1', read)).toBe(3);
    expect(await lineages.remember(off, 'a', '1', read)).toBe(3);
    const none = new KeptStore({ verify: false, off: 'all' });
    expect(lineages.keeps(none)).toBe(false);
  });

  it('under verify, computes every hit again and fails naming the kind and the key when it differs', async () => {
    const store = new KeptStore({ verify: true, off: new Set() });
    const names = kept<{ cyr: string; lat: string }>('nameScripts');
    let value = { cyr: 'Чачак', lat: 'Čačak' };
    const read = async () => value;
    expect(await names.remember(store, 'Čačak', '', read)).toEqual(value);
    expect(await names.remember(store, 'Čačak', '', read)).toEqual(value);
    value = { cyr: 'Чачак', lat: 'Cacak' };
    const failed = await names.remember(store, 'Čačak', '', read).catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(KeptValueMismatch);
    expect(failed).toMatchObject({ kind: 'nameScripts', key: 'Čačak' });
    expect(String((failed as Error).message)).toContain('kind nameScripts, key Čačak');
  });

  it('under verify, an approximate kind passes within its tolerance and fails beyond it', async () => {
    const store = new KeptStore({ verify: true, off: new Set() });
    const estimates = kept<number>('logListEstimate');
    estimates.keep(store, 'scope', 'minute', 50_000);
    const entry = estimates.find(store, 'scope');
    if (!entry) throw new Error('not kept');
    await estimates.check(store, 'scope', entry, 60_000);
    await estimates.check(store, 'scope', entry, 12_600);
    await expect(estimates.check(store, 'scope', entry, 250_000)).rejects.toThrow('kind logListEstimate, key scope');
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
    const subtrees = kept<string>('groupSubtree');
    const now = await readVersion(t.db, 'groupSubtree');
    expect(now).toMatch(/^\d+\/groups:\d+$/);
    subtrees.keep(t.db, 'race', 'an older version', 'old');
    subtrees.keep(t.db, 'wrong', now, 'old');
    const was = settings.verify;
    settings.verify = true;
    try {
      const race = subtrees.find(t.db, 'race');
      const wrong = subtrees.find(t.db, 'wrong');
      if (!race || !wrong) throw new Error('not kept');
      await subtrees.check(t.db, 'race', race, 'new');
      await expect(subtrees.check(t.db, 'wrong', wrong, 'new')).rejects.toThrow('kind groupSubtree, key wrong');
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

  it('declares every kind under versions it names, each version with tables', () => {
    for (const [name, kind] of Object.entries(KINDS)) {
      for (const v of kind.versions) expect(Object.keys(VERSIONS), name).toContain(v);
      if (kind.versions.length === 0) expect((kind as { lifetime?: string }).lifetime, name).toBeTruthy();
    }
    for (const [name, version] of Object.entries(VERSIONS)) expect(Object.keys(version.tables).length, name).toBeGreaterThan(0);
  });
});
