import { asTyped, LOGS } from '@trasa/domain';
import { inArray } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import { auditLogs } from '../../db/schema.js';
import { writeLog } from '../../platform/audit.js';
import type { Actor } from '../../platform/auth.js';
import { notFound } from '../../platform/errors.js';

/**
 * The audit log at any size (bench/logs.mjs: 1,000,000 rows; docs/api/logs-comments-ijo.md "Speed").
 *
 * - A page is found on the (created_at, id) index and only its rows are read; a Rukovodilac's groups are
 *   merged range by range (one ordered range per group), so page 2,500 skips 25,000 index entries, never
 *   sorts the scope.
 * - `totalLogs` is exact up to a cap, counted with LIMIT cap + 1, and the planner's estimate past it
 *   (`totalExact: false`).
 * - A search first looks among the newest rows of the scope (a frequent word fills a page there at
 *   once; its total is the estimate); a scope no bigger than that window was searched whole there (exact);
 *   otherwise, when they don't hold the page, the trigram index finds every match, sorted and counted in
 *   one query (exact).
 *
 * The list is list.ts, the rows every path reads rows.ts; a search's paths are search/ (one file per
 * path, search/paths.ts the table that picks one).
 */

export { EXACT_COUNT_CAP, listLogs, logListCondition } from './list.js';
export { MATCH_INDEX } from './search/keptPositions.js';
export {
  addressQuery,
  addressRuns,
  exactLetterQuery,
  LETTER_PATHS,
  letterQuery,
  letterRuns,
  NARROWING,
  SUFFIX_INDEXES,
} from './search/narrowing.js';
export { searchLogs } from './search/searchLogs.js';
export { SEARCH_WINDOW } from './search/window.js';

export type RequestInfo = { ip: string; url: string };

/** 1 log, 2–4 loga, 5+ logova (21 log, 22 loga, 11–14 logova). */
function logsCount(n: number): string {
  const mod10 = n % 10;
  const mod100 = n % 100;
  if (mod10 === 1 && mod100 !== 11) return `${n} log`;
  if (mod10 >= 2 && mod10 <= 4 && (mod100 < 12 || mod100 > 14)) return `${n} loga`;
  return `${n} logova`;
}

/**
 * DELETE /api/log/ (Admin): the chosen rows go; the deletion itself leaves a row, so the trail shows
 * that someone thinned it. None of the ids found: 404.
 */
export async function deleteLogs(ctx: AppContext, actor: Actor, logIds: string[], req: RequestInfo): Promise<string> {
  return ctx.db.transaction(async (tx) => {
    const deleted = await tx.delete(auditLogs).where(inArray(auditLogs.id, logIds)).returning({ id: auditLogs.id });
    if (deleted.length === 0) throw notFound();
    await writeLog(tx, { actor, ...req, message: `Korisnik ${asTyped(actor.email)} je obrisao ${logsCount(deleted.length)}.` });
    return LOGS.deleted;
  });
}
