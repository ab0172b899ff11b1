import { foldForSearch } from '@trasa/domain';
import { or, type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Paging } from './paging.js';

/** A list's search: the typed text (eng), its transliteration (srb) and the paging. */
export type SearchInput = Paging & { eng: string; srb: string };

/** The typed texts worth searching: non-blank, one per folded form ('djordj' and 'дјордј' are one). */
export function searchTerms(input: { eng: string; srb: string }): string[] {
  const byFold = new Map<string, string>();
  for (const text of [input.eng.trim(), input.srb.trim()]) if (text) byFold.set(foldForSearch(text), text);
  return [...byFold.values()];
}

/** LIKE treats %, _ and \ specially: typed ones match themselves. */
const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * Rows whose folded text contains one of the folded terms (trasa_fold in the database equals
 * foldForSearch in the domain, so 'djordjevic', 'ђорђевић' and 'Đorđević' meet), served by the
 * trigram index on search_text. Both sides are folded to lower case already, so LIKE does what ILIKE
 * would, at a third of the cost per row (measured: 16 ms against 50 ms on 50,000 users).
 */
export function matchCondition(column: AnyPgColumn, terms: string[]): SQL | undefined {
  if (terms.length === 0) return undefined;
  return or(...terms.map((t) => sql`${column} like '%' || trasa_fold(${escapeLike(t)}) || '%'`));
}
