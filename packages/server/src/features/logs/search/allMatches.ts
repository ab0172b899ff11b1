import type { LogsPage } from '@trasa/domain';
import { everyMatch } from './everyMatch.js';
import type { LogSearch } from './facts.js';
import { indexedMatches, MATCH_INDEX } from './keptPositions.js';
import type { Narrowing } from './narrowing.js';

/**
 * The page of every match: through the kept positions of the matches when more than MATCH_INDEX.min are
 * `expected` (the whole table's estimate: a limited scope's own share is less, and its positions are
 * kept the same way), else (or where nothing can be kept) read, sorted and counted at once (everyMatch).
 */
export async function allMatches(search: LogSearch, letters: Narrowing | null, expected: number): Promise<LogsPage> {
  const indexed = expected > MATCH_INDEX.min ? await indexedMatches(search, letters) : null;
  return indexed ?? everyMatch(search, letters);
}
