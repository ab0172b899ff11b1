import type { LogSearchQuery, LogsPage } from '@trasa/domain';
import type { AppContext } from '../../../context.js';
import type { Actor } from '../../../platform/auth.js';
import { offsetOf } from '../../../platform/paging.js';
import { searchTerms } from '../../../platform/textSearch.js';
import { listLogs } from '../list.js';
import { logScopeOf } from '../policy.js';
import { directionOf } from '../rows.js';
import type { LogSearch, SearchFacts } from './facts.js';
import { narrowestMatch } from './narrowing.js';
import { SEARCH_PATHS } from './paths.js';
import { SEARCH_WINDOW, scopeWithin, windowFallsShort } from './window.js';

/**
 * GET /api/search/log: the same list narrowed by the typed text (eng) or its transliteration (srb).
 * A text the letter index expects in few rows is answered there at once (every match, counted). Any
 * other is looked for among the newest rows of the scope first (window), where a frequent word fills
 * the page at once; when the window doesn't hold the page, every match is found through the letter
 * index or, for a text it can't narrow enough, the trigram index (planner told to use it: it can't tell
 * a rare text from a frequent one by their trigrams). The path is chosen by SEARCH_PATHS (paths.ts).
 */
export async function searchLogs(ctx: AppContext, actor: Actor, query: LogSearchQuery): Promise<LogsPage> {
  const terms = searchTerms(query);
  if (terms.length === 0) return listLogs(ctx, actor, query);
  const dir = directionOf(query);
  const scope = await logScopeOf(ctx.db, actor, query.group);
  const offset = offsetOf(query);
  const window = Math.min(SEARCH_WINDOW.max, Math.max(SEARCH_WINDOW.rows, 20 * (offset + query.limit)));
  const { narrow, tableRows } = await narrowestMatch(ctx.db, terms);
  const search: LogSearch = { db: ctx.db, scope, terms, query, dir };
  let within: Promise<boolean> | undefined;
  const facts: SearchFacts = {
    search,
    narrow,
    tableRows,
    offset,
    window,
    fallsShort: !narrow || windowFallsShort(tableRows, narrow, offset + query.limit, window),
    within: () => {
      within ??= scopeWithin(ctx.db, scope, window);
      return within;
    },
  };
  for (const path of SEARCH_PATHS) {
    if (!(await path.when(facts))) continue;
    const page = await path.answer(facts);
    if (page) return page;
  }
  // The last path (the window) always answers.
  throw new Error('no search path answered');
}
