import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * drizzle's migrator applies a journal entry only when its `when` is later than the last applied
 * migration's: an entry written with an earlier `when` (a branch given an old slot) would be skipped on
 * every database already migrated, without an error. The journal must stay in step with the SQL files.
 */
const drizzle = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../drizzle');
type Entry = { idx: number; when: number; tag: string };
const journal = JSON.parse(readFileSync(path.join(drizzle, 'meta/_journal.json'), 'utf8')) as { entries: Entry[] };

describe('the migration journal', () => {
  it('lists every SQL file once, numbered in order, each `when` later than the one before', () => {
    const entries = journal.entries;
    expect(entries.map((e) => e.idx)).toEqual(entries.map((_, i) => i));
    for (const [i, e] of entries.entries()) {
      expect(e.tag.startsWith(String(i).padStart(4, '0'))).toBe(true);
      if (i > 0) expect(e.when, e.tag).toBeGreaterThan(entries[i - 1]?.when ?? 0);
    }
    const files = readdirSync(drizzle)
      .filter((f) => f.endsWith('.sql'))
      .map((f) => f.replace(/\.sql$/, ''))
      .sort();
    expect(entries.map((e) => e.tag)).toEqual(files);
  });
});
