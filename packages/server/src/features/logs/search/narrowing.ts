import { foldForSearch } from '@trasa/domain';
import { type SQL, sql } from 'drizzle-orm';
import { auditLogs } from '../../../db/schema.js';
import { type Db, runBatch } from '../../../platform/database.js';
import { estimateOf, explainRows } from '../rows.js';

/**
 * Where a search looks, by the rows the planner expects the letter index (drizzle/0023_log_letters.sql)
 * to find. Tests set them to walk every path on a small table.
 */
export const LETTER_PATHS = {
  /**
   * Up to this the letter index answers before the window: a word not frequent enough to be among
   * the index's most common elements (~700, each in ≥ 0.08 % of rows) is estimated at half the least
   * of them (~420 rows at 1,000,000), and a hundred rows are read in well under a millisecond; the
   * window would read thousands of rows to find none.
   */
  firstMax: 1_000,
  /**
   * Past this, after the window, the trigram index is asked instead: 'cacak' (13,160 rows) cost 29 ms
   * through the letters and 33 ms through the trigrams, but a text whose letters are frequent and
   * whose digits are rare ('marko.1969': 'marko' in 76,000 rows, the text in 21) costs the letters a
   * heap read of every 'marko' row.
   */
  rowsMax: 20_000,
};
/** Letters of a run the letter index keeps suffixes of (shorter runs are not looked up). */
const LETTER_RUN_MIN = 3;
/** Characters of a suffix both indexes keep (drizzle/0026_log_addresses.sql): a longer run is looked up by its start. */
const SUFFIX_MAX = 64;
/** The key a row gets when it has more than 1,000 suffixes (the rest not kept): every lookup asks for it too. */
export const LONG_ROW_KEY = "'~long'";

/**
 * The runs of letters a–z of a folded text, as trasa_letter_suffixes splits search_text (both split
 * at anything else: digits, spaces, punctuation, letters of other alphabets), cut to the suffixes' length.
 */
export function letterRuns(term: string): string[] {
  return foldForSearch(term)
    .split(/[^a-z]+/)
    .filter((run) => run.length >= LETTER_RUN_MIN)
    .map((run) => run.slice(0, SUFFIX_MAX));
}

/**
 * The runs of an address's characters (a–z, 0–9, . _ @ + -) of a folded text that hold a '.' or an '@'
 * before their final dots, without those dots, as trasa_address_suffixes keeps them (drizzle/0026):
 * 'marko.123@firma.rs.' → 'marko.123@firma.rs', '10.20.30' → itself, 'prijavio.' → none.
 */
export function addressRuns(term: string): string[] {
  return (foldForSearch(term).match(/[a-z0-9._@+-]+/g) ?? [])
    .map((run) => run.replace(/\.+$/, ''))
    .filter((run) => run.length >= LETTER_RUN_MIN && /[.@]/.test(run))
    .map((run) => run.slice(0, SUFFIX_MAX));
}

/**
 * The tsquery of a suffix index: each term's runs as prefixes, all of one term, any term; null when a
 * term has no run. Runs hold only a–z, 0–9 and . _ @ + -: quoted, nothing in them means anything to
 * tsquery's syntax.
 */
function suffixQuery(terms: string[], runsOf: (term: string) => string[]): string | null {
  const runs = terms.map(runsOf);
  if (runs.length === 0 || runs.some((r) => r.length === 0)) return null;
  return runs.map((r) => `(${r.map((run) => `'${run}':*`).join(' & ')})`).join(' | ');
}

/** The tsquery of the letter index (drizzle/0023_log_letters.sql). */
export function letterQuery(terms: string[]): string | null {
  return suffixQuery(terms, letterRuns);
}

/** The tsquery of the address index (drizzle/0026_log_addresses.sql). */
export function addressQuery(terms: string[]): string | null {
  return suffixQuery(terms, addressRuns);
}

/** The suffix indexes a search may narrow by: the function of each and its runs (tests choose among them). */
export const SUFFIX_INDEXES = {
  letters: { fn: sql.raw('trasa_letter_suffixes'), query: letterQuery },
  addresses: { fn: sql.raw('trasa_address_suffixes'), query: addressQuery },
};
export const NARROWING: { use: (keyof typeof SUFFIX_INDEXES)[] } = { use: ['letters', 'addresses'] };

/**
 * A narrowing of a search: the condition on one suffix index (every row of the table that may hold a
 * term, and some more, which the LIKE then drops) and the planner's estimate of those rows; `exact` when
 * the index's keys alone decide (exactLetterQuery).
 */
export type Narrowing = { condition: SQL; rows: number; exact?: { fn: SQL; query: string } };

/**
 * The letter index's tsquery when its keys alone decide which rows hold the terms: every term folds to
 * one run of 3–64 letters a–z ('cacak', 'чачак'). A row's folded text holds such a term exactly when one
 * of its runs of letters does, that is when a suffix of that run starts with the term — a key
 * `'term':*` finds (a suffix kept whole, or its first 64 characters, which still start with a term of
 * at most 64). Only a row cut at 1,000 suffixes ('~long') may hold the term without the key. Null for
 * any other text (several runs, digits, punctuation, a longer run: the LIKE decides).
 */
export function exactLetterQuery(terms: string[]): string | null {
  const exact = terms.every((term) => {
    const folded = foldForSearch(term);
    return folded.length >= LETTER_RUN_MIN && folded.length <= SUFFIX_MAX && /^[a-z]+$/.test(folded);
  });
  return exact ? letterQuery(terms) : null;
}

/**
 * The suffix index that narrows the search most, by the planner's estimate (from the statistics of each
 * index's expression), or null when neither can (a term without a run: '10', 'ab'). 'markovac' → the
 * letters ('markovac':*, ~420 rows estimated); 'marko.123' → the addresses (the letters would read every
 * 'marko': 76,000 rows); '10.20.30' → the addresses (no letters). The table's rows, not the scope's: a
 * Rukovodilac's page 1 of 'cacak' (~103 of their rows) is cheaper in the window (~770 rows read in
 * order) than as a BitmapAnd of the letter and group indexes (9,000 group entries; measured 10 against
 * 14 ms median at load 16), which pays off for the pages past the window.
 */
export async function narrowestMatch(db: Db, terms: string[]): Promise<{ narrow: Narrowing | null; tableRows: number }> {
  const asked = NARROWING.use.flatMap((name) => {
    const index = SUFFIX_INDEXES[name];
    const query = index.query(terms);
    return query === null ? [] : [{ name, index, query }];
  });
  // Each index's estimate and the table's rows (windowReadsMore) in one round trip.
  const answers = await runBatch(db, [
    ...asked.map(({ index, query }) => explainRows(sql`${index.fn}(${auditLogs.searchText}) @@ ${query}::tsquery`)),
    sql`select reltuples::float8 as n from pg_class where oid = 'audit_logs'::regclass`,
  ]);
  const estimates = { rows: asked.map((_, i) => estimateOf(answers[i] ?? [])), tableRows: Number(answers.at(-1)?.[0]?.n ?? 0) };
  let narrow: Narrowing | null = null;
  asked.forEach(({ name, index, query }, i) => {
    const rows = estimates.rows[i] ?? 0;
    if (narrow === null || rows < narrow.rows) {
      const exact = name === 'letters' ? exactLetterQuery(terms) : null;
      narrow = {
        condition: sql`${index.fn}(${auditLogs.searchText}) @@ ${`${query} | ${LONG_ROW_KEY}`}::tsquery`,
        rows,
        ...(exact !== null && { exact: { fn: index.fn, query: exact } }),
      };
    }
  });
  return { narrow, tableRows: estimates.tableRows };
}

/**
 * The narrowing every match is read by: a suffix index whose keys decide (any number of rows: the heap
 * is read for the matches alone, as the trigram index's would be, without its rechecks), or one that
 * finds at most LETTER_PATHS.rowsMax rows; otherwise none (the trigram index).
 */
export const lettersOf = (narrow: Narrowing | null) => (narrow && (narrow.exact || narrow.rows <= LETTER_PATHS.rowsMax) ? narrow : null);
