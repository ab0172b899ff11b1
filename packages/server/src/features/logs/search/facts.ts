import type { LogSearchQuery } from '@trasa/domain';
import type { SQL } from 'drizzle-orm';
import type { Db } from '../../../platform/database.js';
import type { LogScope } from '../policy.js';
import type { Narrowing } from './narrowing.js';

/** A search of the log as searchLogs resolved it: the caller's scope, the terms, the query and its time direction. */
export type LogSearch = { db: Db; scope: LogScope; terms: string[]; query: LogSearchQuery; dir: SQL };

/** What the table of paths (paths.ts) decides by: read once per search, before any path is taken. */
export type SearchFacts = {
  search: LogSearch;
  /** The suffix index that narrows the search most, and its estimate (narrowestMatch); null when none can. */
  narrow: Narrowing | null;
  /** The table's rows (pg_class), read with the narrowing's estimates. */
  tableRows: number;
  /** The page's first row among the matches. */
  offset: number;
  /** The newest rows of the scope the window reads (SEARCH_WINDOW, more for deeper pages). */
  window: number;
  /** Whether the window is expected to hold fewer matches than the page needs (no narrowing: not known). */
  fallsShort: boolean;
  /** Whether the scope has no more rows than the window (scopeWithin): read at the first path that asks, then kept. */
  within: () => Promise<boolean>;
};
