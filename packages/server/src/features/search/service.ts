import { type ActivityReport, foldForSearch, type GroupsPage, type LocationsPage, roleIn, rolesFor } from '@trasa/domain';
import { and, type SQL, sql } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import { groups, users } from '../../db/schema.js';
import type { Actor } from '../../platform/auth.js';
import type { Executor } from '../../platform/database.js';
import { forbidden } from '../../platform/errors.js';
import { matchCondition, type SearchInput, searchTerms } from '../../platform/textSearch.js';
import { clusterScopeOf } from '../clusters/policy.js';
import { type ClusterSorting, listClusters } from '../clusters/service.js';
import { groupCondition, memberCondition, scopeOf } from '../groups/policy.js';
import { type GroupSorting, pageOfGroups } from '../groups/service.js';
import { activityReport } from '../reports/service.js';
import { keptCountKey, type UserSorting, usersPageJson } from '../users/service.js';

export { matchCondition, type SearchInput, searchTerms } from '../../platform/textSearch.js';

/**
 * Runs a search's queries. PostgreSQL prices a LIKE per row far below its real cost and, on tables of a
 * few tens of thousands of rows, prefers reading the whole table (21 ms) to the trigram index (5 ms);
 * within the transaction it is told to prefer the index. Terms shorter than a trigram gain nothing from
 * the index and run as planned.
 */
async function searching<T>(ctx: AppContext, terms: string[], fn: (db: Executor) => Promise<T>): Promise<T> {
  if (terms.length === 0 || terms.some((t) => foldForSearch(t).length < 3)) return fn(ctx.db);
  return ctx.db.transaction(async (tx) => {
    await tx.execute(sql`set local enable_seqscan = off`);
    return fn(tx);
  });
}

/** GET /api/search/user: within the same scope as GET /api/user; nothing typed gives that list. JSON text of UsersPage. */
export async function searchUsers(ctx: AppContext, actor: Actor, input: SearchInput & UserSorting): Promise<string> {
  const scope = await scopeOf(ctx.db, actor);
  const terms = searchTerms(input);
  const where = and(memberCondition(scope), matchCondition(users.searchText, terms)) as SQL;
  // No planner setting here: the page walks users_list_order_idx (it carries search_text) and the
  // count stops at EXACT_COUNT_LIMIT; forcing the index scans cost more than they saved (issue 15).
  return usersPageJson(ctx.db, where, input, { keptCount: keptCountKey(scope, terms) });
}

/** GET /api/search/group: within the same scope as GET /api/group; nothing typed gives that list. */
export async function searchGroups(ctx: AppContext, actor: Actor, input: SearchInput & GroupSorting): Promise<GroupsPage> {
  const scope = await scopeOf(ctx.db, actor);
  const terms = searchTerms(input);
  const where = and(groupCondition(scope), matchCondition(groups.searchText, terms)) as SQL;
  return pageOfGroups(ctx.db, scope, where, input);
}

export type LocationSearchInput = SearchInput & ClusterSorting & { activity: string; contract?: string | undefined };

/**
 * GET /api/search/location (spec 2 §7, spec 3 §7): without `activity`, the clusters list searched (the
 * clusters the caller sees, by their name, settlements and responsible groups); with `activity` (a
 * catalogue code, case aside; 404 'Nepostojeća aktivnost.' for another), the per-activity report of the
 * matching clusters (GET /api/report/{activity}?eng&srb&contract), for the reports' readers.
 */
export async function searchLocations(ctx: AppContext, actor: Actor, input: LocationSearchInput): Promise<LocationsPage | ActivityReport> {
  const { activity, contract, sort, order, ...search } = input;
  if (!activity.trim()) return listClusters(ctx, actor, { ...search, sort, order });
  if (!roleIn(actor.role, rolesFor('reports'))) throw forbidden();
  const scope = await clusterScopeOf(ctx.db, actor);
  const terms = searchTerms(search);
  return searching(ctx, terms, (db) => activityReport(db, scope, activity, { ...search, contract }));
}
