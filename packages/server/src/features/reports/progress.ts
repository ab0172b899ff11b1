import { type ContractProgress, FINISHED, IN_PROGRESS, type ProgressReport, RESPONSIBLE_PARTIES } from '@trasa/domain';
import { and, asc, eq, type SQL, sql } from 'drizzle-orm';
import { activities, activityCatalogue } from '../../db/schema-activities.js';
import { clusters, contractClusters, contracts } from '../../db/schema-clusters.js';
import type { Executor } from '../../platform/database.js';
import { serbianCompare } from '../../platform/sorting.js';
import { sqlLiteral } from '../../platform/sqlText.js';
import { appToday } from '../../platform/time.js';
import { activityColourSql } from '../../shared/activityColour.js';
import { type ClusterScope, visibleClusterCondition } from '../clusters/policy.js';
import { contractFilter, underContract } from './service.js';

/**
 * GET /api/report/progress?contract (the report hub's charts; docs/api/reports.md): per general contract
 * of the visible clusters, how many clusters stand at each stage (their furthest finished activity, in
 * catalogue order) and, per responsible party, how many activities are late: in progress past their
 * deadline (the notifications' red) or finished after it (greenRed). Two set-based statements; the
 * colours are the notifications' own SQL (shared/activityColour.ts), for the application's today.
 */
export async function progressReport(
  db: Executor,
  scope: ClusterScope,
  contract: string | undefined,
  today = appToday(),
): Promise<ProgressReport> {
  const contractId = contractFilter(contract);
  // Qualified by hand: in a select list drizzle writes a column unqualified ("id"), which inside the
  // subqueries would name the subquery's own table.
  const clusterId = sql`${clusters}.${sql.identifier('id')}`;
  const furthest = sql<string | null>`(select a.code from ${activities} a
    where a.cluster_id = ${clusterId} and a.status = ${FINISHED} order by a.position desc limit 1)`;
  // The general contract by a hash join (one per cluster at most: contract_clusters_one_per_kind_uq), the
  // furthest finished activity by one index-only lookup per cluster (drizzle/0037).
  const stageRows = await db
    .select({ contractId: contractClusters.contractId, code: furthest, n: sql<number>`count(*)::int` })
    .from(clusters)
    .leftJoin(contractClusters, and(eq(contractClusters.clusterId, clusters.id), eq(contractClusters.kind, 'contract')))
    .where(and(visibleClusterCondition(scope), underContract(contractId)))
    .groupBy(sql`1`, sql`2`);

  // The late activities alone (the only ones counted: red or greenRed), then their parties and their
  // cluster's general contract by hash joins. Looking the contract up for every activity with a deadline
  // (the Admin's 50,000) and counting the on-time ones as zeros was most of the report. Only the rows that
  // can be red or greenRed are read, each kind from its partial index: in progress past the deadline
  // (activities_in_progress_idx) and finished with a deadline, after it or with no finish date
  // (activities_finished_late_idx, drizzle/0042); the colour is still the shared expression. Reading every
  // activity with a deadline and colouring it was 20 ms of the Admin's report (bench case `report progress`).
  const colour = activityColourSql(today);
  const inScope = sql`${visibleClusterCondition(scope, activities.clusterId)} and ${underContract(contractId, activities.clusterId)}`;
  const candidates = (condition: SQL) =>
    sql`select ${activities.clusterId} as cluster_id, ${activities.code} as code, ${colour} as colour from ${activities}
        where ${condition} and ${inScope}`;
  const lateRows = (
    await db.execute<{ contract_id: string | null; party: string; kasni: number; kasno: number }>(sql`
      select cc.contract_id, o.party,
        count(*) filter (where x.colour = 'red')::int as kasni,
        count(*) filter (where x.colour = 'greenRed')::int as kasno
      from (
        ${candidates(sql`${activities.status} = ${sqlLiteral(IN_PROGRESS)} and ${activities.rokZavrsetka} < ${today}::date`)}
        union all
        ${candidates(
          sql`${activities.status} = ${sqlLiteral(FINISHED)} and ${activities.rokZavrsetka} is not null
            and (${activities.datumZavrsetka} is null or ${activities.datumZavrsetka} > ${activities.rokZavrsetka})`,
        )}
      ) x
      join ${activityCatalogue} on ${activityCatalogue.code} = x.code
      cross join lateral unnest(${activityCatalogue.odgovoran}) as o(party)
      left join ${contractClusters} cc on cc.cluster_id = x.cluster_id and cc.kind = 'contract'
      where x.colour in ('red', 'greenRed')
      group by 1, 2`)
  ).rows;

  const catalogue = await db
    .select({ code: activityCatalogue.code, naziv: activityCatalogue.naziv, position: activityCatalogue.position })
    .from(activityCatalogue)
    .orderBy(asc(activityCatalogue.position));
  const position = new Map(catalogue.map((c) => [c.code, c.position]));
  const nazivOf = new Map(catalogue.map((c) => [c.code, c.naziv]));
  const ids = [...new Set(stageRows.map((r) => r.contractId).filter((id): id is string => !!id))];
  const named = new Map(
    ids.length
      ? (
          await db
            .select({ id: contracts.id, naziv: contracts.naziv, broj: contracts.broj })
            .from(contracts)
            .where(
              sql`${contracts.id} in (${sql.join(
                ids.map((id) => sql`${id}::uuid`),
                sql`, `,
              )})`,
            )
        ).map((c) => [c.id, c])
      : [],
  );

  const byContract = new Map<string | null, ContractProgress>();
  const entry = (id: string | null): ContractProgress => {
    let e = byContract.get(id);
    if (!e) {
      const c = id ? named.get(id) : undefined;
      e = { _id: id, naziv: c?.naziv ?? '', broj: c?.broj ?? '', clusters: 0, stages: [], late: [] };
      byContract.set(id, e);
    }
    return e;
  };
  for (const r of stageRows) {
    const e = entry(r.contractId);
    e.clusters += r.n;
    e.stages.push({ kratakNaziv: r.code, naziv: r.code ? (nazivOf.get(r.code) ?? r.code) : '', count: r.n });
  }
  for (const r of lateRows) {
    entry(r.contract_id).late.push({ odgovoran: r.party, kasni: r.kasni, zavrsenoKasno: r.kasno });
  }
  const partyOrder = (p: string) => {
    const i = (RESPONSIBLE_PARTIES as readonly string[]).indexOf(p);
    return i < 0 ? RESPONSIBLE_PARTIES.length : i;
  };
  for (const e of byContract.values()) {
    e.stages.sort(
      (a, b) => (a.kratakNaziv ? (position.get(a.kratakNaziv) ?? 0) : -1) - (b.kratakNaziv ? (position.get(b.kratakNaziv) ?? 0) : -1),
    );
    e.late.sort((a, b) => partyOrder(a.odgovoran) - partyOrder(b.odgovoran) || a.odgovoran.localeCompare(b.odgovoran));
  }
  // Contracts by name; the clusters under none last.
  const list = [...byContract.values()].sort((a, b) => (a._id === null ? 1 : b._id === null ? -1 : serbianCompare(a.naziv, b.naziv)));
  return { contracts: list };
}
