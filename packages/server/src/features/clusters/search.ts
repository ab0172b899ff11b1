import { or, type SQL, sql } from 'drizzle-orm';
import { groups } from '../../db/schema.js';
import { clusterGroups, clusterSettlements, clusters, settlements } from '../../db/schema-clusters.js';
import { matchCondition } from '../../platform/textSearch.js';

/**
 * GET /api/search/location: a cluster matches the typed text (either script, folded) by its own name,
 * by the name (or registry id, matični broj) of one of its settlements or incidental settlements, or by
 * the name (short or Cyrillic name) of one of its responsible groups. A stored folded column joining all
 * of these would need a migration; instead two semi-joins meet the trigram indexes on settlements and
 * groups `search_text`. They are written as uncorrelated `id in (…)` (an EXISTS by another name): PostgreSQL
 * runs each once as a hashed subplan, also inside the count's FILTER, where a correlated EXISTS ran per
 * cluster (5,000 clusters: 350 ms against 20 ms; bench/cluster-search.mjs).
 */
export function clusterMatchCondition(terms: string[]): SQL | undefined {
  const own = matchCondition(clusters.searchText, terms);
  if (!own) return undefined;
  const bySettlement = matchCondition(settlements.searchText, terms) as SQL;
  const byGroup = matchCondition(groups.searchText, terms) as SQL;
  return or(
    own,
    sql`${clusters.id} in (select ${clusterSettlements.clusterId} from ${clusterSettlements}
      join ${settlements} on ${settlements.id} = ${clusterSettlements.settlementId} where ${bySettlement})`,
    sql`${clusters.id} in (select ${clusterGroups.clusterId} from ${clusterGroups}
      join ${groups} on ${groups.id} = ${clusterGroups.groupId} where ${byGroup})`,
  );
}
