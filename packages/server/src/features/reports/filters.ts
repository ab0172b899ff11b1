import { ACTIVITY_STATUSES, REPORTS, type ReportContract } from '@trasa/domain';
import { and, eq, type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { activityCatalogue } from '../../db/schema-activities.js';
import { clusters, contractClusters, contracts } from '../../db/schema-clusters.js';
import type { Executor } from '../../platform/database.js';
import { badRequest, notFound } from '../../platform/errors.js';
import { sqlLiteral } from '../../platform/sqlText.js';
import { searchTerms } from '../../platform/textSearch.js';
import { clusterMatchCondition } from '../clusters/search.js';

/**
 * What the reports (service.ts lists them) share: paging, the contract filter and a row's contract, an
 * activity's progress order, the catalogue entry of a report's code and the search over cluster names.
 */

export type Paging = { page: number; limit: number };
export const offsetOf = (p: Paging) => (p.page - 1) * p.limit;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const round2 = (n: number) => Math.round(n * 100) / 100;

/** The general contract a cluster is under (at most one per kind). */
export const generalLink = and(eq(contractClusters.clusterId, clusters.id), eq(contractClusters.kind, 'contract'));
export const contractColumns = { id: contracts.id, naziv: contracts.naziv, broj: contracts.broj };
export const contractOf = (c: { id: string | null; naziv: string | null; broj: string | null } | null): ReportContract | null =>
  c?.id ? { _id: c.id, naziv: c.naziv ?? '', broj: c.broj ?? '' } : null;

/** `contract` of a filter: empty or 'all' = every contract; a malformed id is a 400. */
export function contractFilter(contract: string | undefined): string | null {
  const c = (contract ?? '').trim();
  if (!c || c.toLowerCase() === 'all' || c.toLowerCase() === 'sve') return null;
  if (!UUID.test(c)) throw badRequest(REPORTS.unknownReport, { contract: 'Neispravna vrednost.' });
  return c.toLowerCase();
}

/** Clusters (by `clusterId`) under the general contract, or true without one. */
export function underContract(contractId: string | null, clusterId: SQL | AnyPgColumn = clusters.id): SQL {
  if (!contractId) return sql`true`;
  return sql`${clusterId} in (select ${contractClusters.clusterId} from ${contractClusters} where ${contractClusters.contractId} = ${contractId})`;
}

/** An activity's status in the order of progress (not started, in progress, finished), as the clusters list sorts it. */
export const progressOf = (status: SQL | AnyPgColumn) =>
  sql`case ${status} ${sql.join(
    ACTIVITY_STATUSES.map((s, i) => sql`when ${s} then ${sqlLiteral(i)}`),
    sql` `,
  )} end`;

export function groupBy<T, K>(items: readonly T[], key: (t: T) => K): Map<K, T[]> {
  const map = new Map<K, T[]>();
  for (const item of items) {
    const k = key(item);
    const list = map.get(k);
    if (list) list.push(item);
    else map.set(k, [item]);
  }
  return map;
}

/** The catalogue entry of a report's activity code (case aside); 404 for an unknown one. */
export async function catalogueEntryOf(db: Executor, code: string): Promise<{ code: string; naziv: string }> {
  const [row] = await db
    .select({ code: activityCatalogue.code, naziv: activityCatalogue.naziv })
    .from(activityCatalogue)
    .where(sql`upper(${activityCatalogue.code}) = upper(${code.trim()})`)
    .limit(1);
  if (!row) throw notFound(REPORTS.unknownActivity);
  return row;
}

export type SearchText = { eng?: string; srb?: string };
export const matchOf = (search: SearchText) => clusterMatchCondition(searchTerms({ eng: search.eng ?? '', srb: search.srb ?? '' }));
