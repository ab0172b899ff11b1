import { foldHeader } from './columns.js';

/** What a name typed in a cell resolves to: one record, none, or several (each named, so the row can say which). */
export type Resolved<T> = { kind: 'one'; item: T } | { kind: 'none' } | { kind: 'many'; items: T[] };

/**
 * Records found by any of their names, folded as headers are (either script, case, diacritics and
 * spacing aside). A record of a higher `rank` wins over lower ones of the same name (a built-in role
 * over an extra role carrying the same base key); records of the same rank sharing a name are ambiguous.
 */
export class NameIndex<T> {
  private readonly byName = new Map<string, { item: T; rank: number }[]>();

  constructor(items: readonly T[], names: (item: T) => (string | null | undefined)[], rank: (item: T) => number = () => 0) {
    for (const item of items) {
      const r = rank(item);
      for (const name of new Set(
        names(item)
          .filter((n): n is string => !!n)
          .map(foldHeader),
      )) {
        if (!name) continue;
        const list = this.byName.get(name) ?? [];
        list.push({ item, rank: r });
        this.byName.set(name, list);
      }
    }
  }

  resolve(name: string): Resolved<T> {
    const found = this.byName.get(foldHeader(name)) ?? [];
    if (found.length === 0) return { kind: 'none' };
    const top = Math.max(...found.map((f) => f.rank));
    const best = found.filter((f) => f.rank === top).map((f) => f.item);
    return best.length === 1 ? { kind: 'one', item: best[0] as T } : { kind: 'many', items: best };
  }
}
