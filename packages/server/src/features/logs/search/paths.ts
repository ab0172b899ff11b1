import type { LogsPage } from '@trasa/domain';
import { allMatches } from './allMatches.js';
import type { SearchFacts } from './facts.js';
import { indexedMatches } from './keptPositions.js';
import { LETTER_PATHS, lettersOf } from './narrowing.js';
import { windowPage, windowReadsMore } from './window.js';

/**
 * One way a search may be answered: taken when `when` holds; `answer` may still pass (null) to the
 * next row.
 */
type SearchPath = {
  name: string;
  when: (facts: SearchFacts) => boolean | Promise<boolean>;
  answer: (facts: SearchFacts) => Promise<LogsPage | null>;
};

/** The narrowing's estimated rows (a row whose condition asked for a narrowing has one). */
const narrowRows = (facts: SearchFacts) => facts.narrow?.rows ?? 0;

/**
 * The paths of a search with terms, in the order they are tried (searchLogs takes the first whose
 * condition holds and whose answer is not null). A search without terms is the plain list (list.ts).
 */
export const SEARCH_PATHS: readonly SearchPath[] = [
  {
    // A page the window is not expected to hold, of a search whose matches' positions are kept
    // (MATCH_INDEX): its deeper pages are walks from a kept match, exact. Only when already kept
    // (otherwise the next rows decide); not a page the newest rows are expected to hold (page 1 of a
    // frequent word): the window answers it in one short read, where the walk from a kept match and the
    // count of the newer matches cost three times as much ('cacak' page 1, Admin, p99 18 → 72 ms once kept).
    name: 'kept positions',
    when: (f) => f.fallsShort,
    answer: (f) => indexedMatches(f.search, lettersOf(f.narrow), { keptOnly: true }),
  },
  {
    // A text the letter index expects in few rows (LETTER_PATHS.firstMax): every match through it at
    // once, counted; the window would read thousands of rows to find none.
    name: 'few matches',
    when: (f) => f.narrow !== null && f.narrow.rows <= LETTER_PATHS.firstMax,
    answer: (f) => allMatches(f.search, f.narrow, narrowRows(f)),
  },
  {
    // A text the narrowing finds in fewer rows than the window would read for this page
    // (windowReadsMore): every match through the narrowing, up to LETTER_PATHS.rowsMax of its rows.
    name: 'narrowing cheaper than the window',
    when: (f) =>
      f.narrow !== null &&
      f.narrow.rows <= LETTER_PATHS.rowsMax &&
      windowReadsMore(f.tableRows, f.narrow, f.offset + f.search.query.limit, f.window),
    answer: (f) => allMatches(f.search, f.narrow, narrowRows(f)),
  },
  {
    // The whole log's page the window can't be expected to hold ('prijavio' at page 2,500: 25,000
    // matches wanted, ~5,000 expected among 100,000 rows, 100 ms of PostgreSQL for nothing): every
    // match at once, through the narrowing where it can (lettersOf), else the trigram index.
    name: 'whole log past the window',
    when: (f) => f.search.scope.all && f.narrow !== null && f.fallsShort,
    answer: (f) => allMatches(f.search, lettersOf(f.narrow), narrowRows(f)),
  },
  {
    // A scope's page the window can't be expected to hold (a Rukovodilac's 'cacak', page 13: 130
    // matches wanted, ~68 expected among 5,000 rows): every match at once, unless the window is the
    // whole scope (then the window's read is exact and cheaper).
    name: 'scope past the window',
    when: async (f) =>
      !f.search.scope.all && f.narrow !== null && f.narrow.rows <= LETTER_PATHS.rowsMax && f.fallsShort && !(await f.within()),
    answer: (f) => allMatches(f.search, f.narrow, narrowRows(f)),
  },
  {
    // Any other: the newest rows of the scope first (a frequent word fills the page at once), every
    // match after all when the window falls short of the page (windowPage).
    name: 'window',
    when: () => true,
    answer: windowPage,
  },
];
