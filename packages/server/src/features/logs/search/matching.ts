import { and, type SQL, sql } from 'drizzle-orm';
import { auditLogs } from '../../../db/schema.js';
import { logListCondition } from '../list.js';
import { type LogScope, logScopeCondition } from '../policy.js';
import { ID_COLUMNS, matchCondition, SEARCH_TEXT } from '../rows.js';
import { LONG_ROW_KEY, type Narrowing } from './narrowing.js';

/**
 * Every match of the terms in the scope as a query of (id, created_at): the scope's rows the letter or
 * the address index finds (`letters`), read once (materialized: the planner must not compute each row's
 * suffixes to filter a range of the trigram index) and kept where the text is in them, or, without it,
 * the trigram index's. When the index's keys alone decide (`letters.exact`: every term one run of
 * letters), its rows are the matches without reading their text (see exactLetterQuery). Read with
 * index and sequential scans off (only the indexes' bitmaps: no walk of the time index filtering a
 * million rows).
 */
export function matchingSql(scope: LogScope, terms: string[], query: { eng?: string; srb?: string }, letters: Narrowing | null): SQL {
  const inScope = logScopeCondition(scope);
  const likeAny = (column: SQL) => matchCondition(column, terms) as SQL;
  // The scope is read with the index's rows (a Rukovodilac's groups: a BitmapAnd of the two indexes,
  // the heap read only for the scope's matches: 'cacak' 118 rows instead of 13,160).
  if (letters?.exact) {
    // The keys decide: every row holding a key is a match, read for its time only (no text, no LIKE:
    // 'cacak', 13,160 rows, 15 → 8 ms of CPU). A row cut at 1,000 suffixes ('~long') may hold a term
    // past its keys: those rows are read and filtered, unless the first arm already has them.
    const { fn, query: keys } = letters.exact;
    const keyed = sql`${fn}(${auditLogs.searchText}) @@ ${keys}::tsquery`;
    return sql`select ${ID_COLUMNS} from ${auditLogs} where ${and(keyed, inScope)}
      union all
      select ${ID_COLUMNS} from ${auditLogs}
        where ${and(sql`${fn}(${auditLogs.searchText}) @@ ${LONG_ROW_KEY}::tsquery`, inScope, likeAny(SEARCH_TEXT), sql`not (${keyed})`)}`;
  }
  if (letters) {
    return sql`with m as materialized (select id, created_at, search_text from ${auditLogs} where ${and(letters.condition, inScope)})
        select id, created_at from m where ${likeAny(sql`m.search_text`)}`;
  }
  return sql`select ${ID_COLUMNS} from ${auditLogs} where ${logListCondition(scope, query) as SQL}`;
}
