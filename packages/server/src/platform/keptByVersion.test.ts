import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../test/harness.js';
import { keptByVersion } from './keptByVersion.js';

const t = useTestApp();

describe('values kept by data version', () => {
  it('keeps a value under its version only, none inside a transaction', async () => {
    const kept = keptByVersion<string>();
    let reads = 0;
    const read = async () => `v${++reads}`;
    expect(await kept.remember(t.db, 'a', '1', read)).toBe('v1');
    expect(await kept.remember(t.db, 'a', '1', read)).toBe('v1');
    expect(await kept.remember(t.db, 'a', '2', read)).toBe('v2');
    expect(await kept.remember(t.db, 'a', null, read)).toBe('v3');
    expect(await kept.remember(t.db, 'a', '2', read)).toBe('v2');
    await t.db.transaction(async (tx) => {
      expect(kept.get(tx, 'a')).toBeNull();
      expect(await kept.remember(tx, 'a', '2', read)).toBe('v4');
    });
  });

  it('holds at most the bytes it is given: a value too big is not kept, one that does not fit starts the set again', async () => {
    const kept = keptByVersion<string>(100, { of: (v) => v.length, max: 100 });
    kept.set(t.db, 'a', '1', 'x'.repeat(60));
    kept.set(t.db, 'b', '1', 'y'.repeat(30));
    expect(kept.get(t.db, 'a')?.value).toHaveLength(60);
    expect(kept.get(t.db, 'b')?.value).toHaveLength(30);
    // Replacing a key counts its new size, not both.
    kept.set(t.db, 'a', '2', 'x'.repeat(70));
    expect(kept.get(t.db, 'a')?.version).toBe('2');
    expect(kept.get(t.db, 'b')?.value).toHaveLength(30);
    // 70 + 30 + 20 is over 100: the set starts again with the new value alone.
    kept.set(t.db, 'c', '1', 'z'.repeat(20));
    expect(kept.get(t.db, 'a')).toBeUndefined();
    expect(kept.get(t.db, 'b')).toBeUndefined();
    expect(kept.get(t.db, 'c')?.value).toHaveLength(20);
    // Bigger than the whole bound: answered by remember, never kept (the others stay).
    expect(await kept.remember(t.db, 'd', '1', async () => 'w'.repeat(101))).toHaveLength(101);
    expect(kept.get(t.db, 'd')).toBeUndefined();
    expect(kept.get(t.db, 'c')?.value).toHaveLength(20);
  });

  it('holds at most `max` keys', async () => {
    const kept = keptByVersion<number>(3);
    for (const k of ['a', 'b', 'c']) kept.set(t.db, k, '1', 1);
    expect(kept.get(t.db, 'c')?.value).toBe(1);
    kept.set(t.db, 'c', '2', 2);
    expect(kept.get(t.db, 'a')?.value).toBe(1);
    kept.set(t.db, 'd', '1', 4);
    expect(kept.get(t.db, 'a')).toBeUndefined();
    expect(kept.get(t.db, 'd')?.value).toBe(4);
  });
});
