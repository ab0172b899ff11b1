import { COMMON, type SortedList, type Sorting, type SortKey } from '@trasa/domain';
import { type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { badRequest } from './errors.js';

/**
 * The one in-memory comparator of names in the Serbian alphabet's order (ICU sr-Latn, like trasa_sr),
 * for the few lists sorted in the server rather than in SQL (report comparisons by cluster, a handful of
 * contracts). One collator for every call: localeCompare with a locale builds one per call, slow on
 * thousands of rows. Equal names compare 0 (a stable sort keeps their order), where trasa_sr, a
 * deterministic collation, would order them by their bytes.
 */
export const serbianCompare: (a: string, b: string) => number = new Intl.Collator('sr-Latn').compare;

/** How one sort key orders: a text (compared in trasa_sr) or a value compared naturally (dates, numbers, flags). */
export type SortExpression = { text: SQL | AnyPgColumn } | { value: SQL | AnyPgColumn };

/** Each list's whitelist: every key of LIST_SORTS[list] mapped to its SQL expression (docs/decisions.md "Sorting"). */
export type SortMap<L extends SortedList> = Record<SortKey<L>, SortExpression>;

/**
 * The ORDER BY of a page: without `sort` the list's own default order, unchanged (its indexes serve it);
 * with one, that expression in the asked direction (text in the Serbian alphabet's order, empty values
 * last going up and first going down, as PostgreSQL does), then `tieBreaker` (the row's id) so pages
 * never overlap or skip rows. The key was checked by the route's schema (sortQuery): only the map's
 * expressions ever reach SQL.
 */
export function orderOf<L extends SortedList>(
  map: SortMap<L>,
  sorting: Sorting<SortKey<L>>,
  defaultOrder: readonly (SQL | AnyPgColumn)[],
  tieBreaker: AnyPgColumn,
): SQL[] {
  const key = sortKeyOf(map, sorting);
  if (!key) return defaultOrder.map((e) => sql`${e}`);
  return [sql`${key.expression} ${key.direction}`, sql`${tieBreaker} ${key.direction}`];
}

/**
 * The chosen sort as an expression (text already in trasa_sr) and a direction, for a list written in
 * SQL that carries the key through a CTE (the activity lists); null without `sort`.
 */
export function sortKeyOf<L extends SortedList>(map: SortMap<L>, sorting: Sorting<SortKey<L>>): { expression: SQL; direction: SQL } | null {
  if (!sorting.sort) return null;
  const entry = Object.hasOwn(map, sorting.sort) ? map[sorting.sort] : undefined;
  if (!entry) throw badRequest(COMMON.badSort, { sort: COMMON.badSort });
  const direction = sorting.order === 'desc' ? sql.raw('desc') : sql.raw('asc');
  const expression = 'text' in entry ? sql`(${entry.text} collate trasa_sr)` : sql`(${entry.value})`;
  return { expression, direction };
}
