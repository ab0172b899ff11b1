import { CLUSTERS, isReservedGroupName, type Sorting, type SortKey, toCyrillic, toLatin, USERS } from '@trasa/domain';
import { and, eq, inArray, ne, sql } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import { groups, groupTypes } from '../../db/schema.js';
import { activities, activityFiles } from '../../db/schema-activities.js';
import { clusterGroups, clusterSettlements, clusters, contractClusters, contracts, settlements, topics } from '../../db/schema-clusters.js';
import { inventoryItems, schoolNotifications } from '../../db/schema-inventory.js';
import { writeLog } from '../../platform/audit.js';
import type { Actor } from '../../platform/auth.js';
import { type Executor, namedStatement, runNamed } from '../../platform/database.js';
import { badRequest, conflict, notFound } from '../../platform/errors.js';
import { offsetOf, type Paging } from '../../platform/paging.js';
import { onConstraint, UNIQUE_VIOLATION } from '../../platform/pgErrors.js';
import { orderOf, type SortMap } from '../../platform/sorting.js';
import { matchCondition, searchTerms } from '../../platform/textSearch.js';
import { appToday } from '../../platform/time.js';
import { ensureClusterActivities } from '../../shared/activityReference.js';
import { scopeOf } from '../groups/policy.js';
import { assertClusterVisible, type ClusterScope, clusterScopeOf, visibleClusterCondition, visibleClusterIds } from './policy.js';
import {
  type ClusterRow,
  clusterColumns,
  clusterInProgressSql,
  clusterOrder,
  clusterStatusSql,
  type LocationDto,
  type LocationListItem,
  locationListJsonSql,
  presentLocations,
} from './presenter.js';
import type { ClusterInput } from './schema.js';
import { clusterMatchCondition } from './search.js';

export type RequestInfo = { ip: string; url: string };
export type LocationsPage = { locations: LocationListItem[]; aktivne: number; totalResults: number };
export type LocationOption = { _id: string; nazivLokacije: string; cyr: string; lat: string };

/** Texts of the cluster forms the domain does not have yet (Cyrillic, like the forms). */
export const CLUSTER_TEXTS = {
  nameTaken: 'Кластер са тим називом већ постоји.',
  settlementsOverlap: 'Исто насеље не може бити и међу насељима и међу успутним насељима.',
  finishedContract: 'Završen ugovor se ne može menjati.',
} as const;

const GENERAL: 'contract' = 'contract';

/**
 * `sort` of the clusters list (LIST_SORTS.clusters): the responsible contractors as the list shows them
 * (the names of the groups of type Izvođač joined in Serbian order), the status in the order of progress
 * (not started, in progress, finished), the general contract's name.
 */
/**
 * `sort` of the clusters list (LIST_SORTS.clusters) as plain expressions over the cluster's row: the
 * definition of each key's value. The list reads the same values kept on the cluster (CLUSTER_SORTS).
 */
export const CLUSTER_SORT_DEFINITIONS: SortMap<'clusters'> = {
  naziv: { text: clusters.naziv },
  odgovoran: {
    // The responsible contractors (type Izvođač): what the column shows (migration 0032).
    text: sql`(select string_agg(g.naziv, ', ' order by g.naziv collate trasa_sr) from ${clusterGroups} cg
      join ${groups} g on g.id = cg.group_id join ${groupTypes} t on t.id = g.type_id and t.code = 'IZVODJAC'
      where cg.cluster_id = ${clusters.id})`,
  },
  status: { value: sql`(case ${clusterStatusSql} when 'Nije započet' then 0 when 'U toku' then 1 else 2 end)` },
  ugovor: {
    text: sql`(select min(c.naziv collate trasa_sr) from ${contractClusters} cc join ${contracts} c on c.id = cc.contract_id
      where cc.cluster_id = ${clusters.id} and cc.kind = 'contract')`,
  },
};

/**
 * The list's sort keys: groups and contract read from the keys kept on the cluster (migration 0021:
 * exactly CLUSTER_SORT_DEFINITIONS' values, kept by triggers on the links and the names; test:
 * clusters/sortKeys.test.ts), each with its index in trasa_sr order.
 */
export const CLUSTER_SORTS: SortMap<'clusters'> = {
  naziv: { text: clusters.naziv },
  odgovoran: { text: sql`${clusters}.sort_groups` },
  status: CLUSTER_SORT_DEFINITIONS.status,
  ugovor: { text: sql`${clusters}.sort_contract` },
};
export type ClusterSorting = Sorting<SortKey<'clusters'>>;

/** The list's answer with `locations` as JSON text (locationListJsonSql): GET /api/location sends it as it is. */
export type LocationsPageJson = { locations: string; aktivne: number; totalResults: number };

/**
 * The list's rows as JSON text (locationListJsonSql) of the clusters whose ids `ids` names, in that order,
 * coloured as of `today`: one named statement, the same for every page, role, sort and search. Written
 * once, PostgreSQL keeps its generic plan after five runs (index lookups of ≤ limit ids); as a part of
 * the page's statement it was parsed and planned on every request: ≈1.5 of the statement's 2.3 ms of
 * backend CPU for a Rukovodilac's page (bench case `clusters`, manager; docs/decisions.md "Named statements").
 */
const locationListStatement = namedStatement<{ locations: string }>(
  'cluster_list_json',
  sql`with page as (select u.id, u.n from unnest(${sql.placeholder('ids')}::uuid[]) with ordinality as u(id, n))
    select (${locationListJsonSql(sql`page`, sql.placeholder('today'))}) as locations`,
);

/**
 * GET /api/location, GET /api/search/location: visible clusters by name (or `sort`); `aktivne` counts all
 * visible ones in progress. Two statements (after the scope's groups, for a limited scope): the page's ids
 * in list order with both counts over the stored status, then the page built as JSON in SQL
 * (locationListStatement, prepared).
 *
 * A limited scope's search reads its clusters once (`scoped`: each visible cluster with whether it matches
 * and whether it is in progress, the match's semi-joins run once) and takes the page and both counts from
 * them. Written as for the Admin, the scope's condition and the match would be planned and run twice (page
 * and counts) and the counts would scan every cluster against the scope's hashed ids: an employee's search
 * of 300 clusters costs 1.8 ms of PostgreSQL per request this way against 3.5 ms (a word no cluster has: 1.5
 * against 4.4; a single letter every cluster has: 9.2 against 7.7; bench case `clusters search cacak`,
 * employee). The Admin's (and a plain list's) form measures faster for them as it is.
 */
export async function listClustersJson(
  ctx: AppContext,
  actor: Actor,
  input: Paging & ClusterSorting & { eng?: string; srb?: string },
  knownScope?: ClusterScope,
): Promise<LocationsPageJson> {
  const scope = knownScope ?? (await clusterScopeOf(ctx.db, actor));
  const visible = visibleClusterCondition(scope);
  const match = clusterMatchCondition(searchTerms({ eng: input.eng ?? '', srb: input.srb ?? '' }));
  const order = orderOf(CLUSTER_SORTS, input, clusterOrder, clusters.id);
  const scopedSearch = match !== undefined && !scope.all;
  const page = ctx.db
    .select({ id: clusters.id, n: sql<number>`row_number() over (order by ${sql.join(order, sql`, `)})`.as('n') })
    .from(clusters)
    .where(scopedSearch ? sql`${clusters.id} in (select id from scoped where matched)` : and(visible, match))
    .orderBy(...order)
    .limit(input.limit)
    .offset(offsetOf(input));
  const result = await ctx.db.execute<{ ids: string[] | null; total: number; aktivne: number }>(
    scopedSearch
      ? sql`
    with scoped as materialized (
      select ${clusters.id} as id, (${match}) as matched, (${clusterInProgressSql}) as active
      from ${clusters} where ${clusters.id} in (${visibleClusterIds(scope)})
    ),
    page as (${page}),
    counts as (select (count(*) filter (where matched))::int as total, (count(*) filter (where active))::int as aktivne from scoped)
    select (select array_agg(page.id::text order by page.n) from page) as ids, counts.total, counts.aktivne from counts`
      : sql`
    with page as (${page}),
    counts as (
      select (count(*) filter (where ${match ?? sql`true`}))::int as total, (count(*) filter (where ${clusterInProgressSql}))::int as aktivne
      from ${clusters} where ${visible}
    )
    select (select array_agg(page.id::text order by page.n) from page) as ids, counts.total, counts.aktivne from counts`,
  );
  const row = result.rows[0];
  const ids = row?.ids ?? [];
  const locations = ids.length
    ? ((await runNamed(ctx.db, locationListStatement, { ids, today: appToday() })).rows[0]?.locations ?? '[]')
    : '[]';
  return { locations, aktivne: row?.aktivne ?? 0, totalResults: row?.total ?? 0 };
}

/** listClustersJson's answer as objects (the search route's; tests). */
export async function listClusters(
  ctx: AppContext,
  actor: Actor,
  input: Paging & ClusterSorting & { eng?: string; srb?: string },
): Promise<LocationsPage> {
  const page = await listClustersJson(ctx, actor, input);
  return { locations: JSON.parse(page.locations) as LocationListItem[], aktivne: page.aktivne, totalResults: page.totalResults };
}

/** The JSON text of a LocationsPage, from listClustersJson's parts (keys in LocationsPage's order). */
export function locationsPageText(page: LocationsPageJson): string {
  return `{"locations":${page.locations},"aktivne":${page.aktivne},"totalResults":${page.totalResults}}`;
}

async function locationOf(db: Executor, id: string): Promise<LocationDto> {
  const rows: ClusterRow[] = await db.select(clusterColumns).from(clusters).where(eq(clusters.id, id)).limit(1);
  const [location] = await presentLocations(db, rows, { withActivities: true });
  if (!location) throw notFound();
  return location;
}

/** GET /api/location/:id: a cluster outside the caller's visibility is 404 like a missing one. */
export async function getCluster(ctx: AppContext, actor: Actor, id: string): Promise<LocationDto> {
  await assertClusterVisible(ctx.db, actor, id);
  return locationOf(ctx.db, id);
}

/** GET /api/location/get/autocomplete: up to 20 visible clusters whose name matches, in either script. */
export async function autocomplete(ctx: AppContext, actor: Actor, value: string): Promise<LocationOption[]> {
  const scope = await clusterScopeOf(ctx.db, actor);
  const rows = await ctx.db
    .select({ id: clusters.id, naziv: clusters.naziv })
    .from(clusters)
    .where(and(visibleClusterCondition(scope), matchCondition(clusters.searchText, searchTerms({ eng: value, srb: '' }))))
    .orderBy(...clusterOrder)
    .limit(20);
  return rows.map(presentOption);
}

/**
 * Both scripts of a cluster's name, kept by the name: the link autocomplete writes ~150 options per
 * keystroke (toCyrillic was 6 % of the server's CPU under its load). Bounded: emptied past 10,000 names.
 */
const scriptsOfName = new Map<string, { cyr: string; lat: string }>();
function scriptsOf(naziv: string): { cyr: string; lat: string } {
  let kept = scriptsOfName.get(naziv);
  if (!kept) {
    if (scriptsOfName.size >= 10_000) scriptsOfName.clear();
    kept = { cyr: toCyrillic(naziv), lat: toLatin(naziv) };
    scriptsOfName.set(naziv, kept);
  }
  return kept;
}

export function presentOption(row: { id: string; naziv: string }): LocationOption {
  const { cyr, lat } = scriptsOf(row.naziv);
  return { _id: row.id, nazivLokacije: row.naziv, cyr, lat };
}

const unique = (ids: string[]) => [...new Set(ids)];
const nameTaken = () => conflict(CLUSTER_TEXTS.nameTaken, { naziv: CLUSTER_TEXTS.nameTaken });
const invalid = (field: string) => badRequest(USERS.invalidOption, { [field]: USERS.invalidOption });
const chooseContract = () => badRequest(CLUSTERS.chooseContract, { ugovor: CLUSTERS.chooseContract });

async function assertNameFree(db: Executor, naziv: string, exceptId?: string): Promise<void> {
  const [taken] = await db
    .select({ id: clusters.id })
    .from(clusters)
    .where(and(sql`lower(${clusters.naziv}) = lower(${naziv})`, exceptId ? ne(clusters.id, exceptId) : undefined))
    .limit(1);
  if (taken) throw nameTaken();
}

type Current = { groupIds: string[]; contract: { id: string; status: string } | null };

/**
 * The responsible groups to save: existing, not reserved (nor named Admin/Админ). An Admin assigns any;
 * a Rukovodilac adds and removes only groups of their subtree, and the cluster's groups outside it stay.
 */
async function resolveGroups(tx: Executor, actor: Actor, requested: string[], current: string[]): Promise<string[]> {
  const ids = unique(requested);
  if (ids.length > 0) {
    const found = await tx
      .select({ id: groups.id, naziv: groups.naziv, cirilica: groups.cirilica, reserved: groups.reserved })
      .from(groups)
      .where(inArray(groups.id, ids));
    const ok = found.filter((g) => !g.reserved && !isReservedGroupName(g.naziv) && !isReservedGroupName(g.cirilica));
    if (ok.length !== ids.length) throw invalid('odgovoran');
  }
  const scope = await scopeOf(tx, actor);
  if (scope.all) return ids;
  const mine = new Set(scope.groupIds);
  const kept = current.filter((id) => !mine.has(id));
  for (const id of ids) if (!mine.has(id) && !current.includes(id)) throw invalid('odgovoran');
  return unique([...ids.filter((id) => mine.has(id)), ...kept]);
}

async function assertSettlementsExist(tx: Executor, ids: string[], field: string): Promise<void> {
  if (ids.length === 0) return;
  const [found] = await tx.select({ n: sql<number>`count(*)::int` }).from(settlements).where(inArray(settlements.id, ids));
  if ((found?.n ?? 0) !== ids.length) throw invalid(field);
}

/**
 * The general contract to link: unchanged is always fine; a new one must be a general contract that is
 * not finished (its row is locked so it can't finish meanwhile); leaving a finished one is refused
 * (a finished contract's clusters don't change). `ugovor` left out keeps the current one; '' or null clears it.
 * Only an Admin changes it: the contract dropdown is theirs (GET /api/contract is Admin only), so a
 * Rukovodilac's form keeps the current contract.
 */
async function resolveContract(
  tx: Executor,
  actor: Actor,
  requested: string | null | undefined,
  current: Current['contract'],
): Promise<string | null> {
  if (actor.role !== 'Admin' || requested === undefined) return current?.id ?? null;
  if (requested === (current?.id ?? null)) return requested;
  if (current && current.status === 'Završen') throw badRequest(CLUSTER_TEXTS.finishedContract, { ugovor: CLUSTER_TEXTS.finishedContract });
  if (requested === null) return null;
  const [contract] = await tx
    .select({ id: contracts.id, kind: contracts.kind, status: contracts.status })
    .from(contracts)
    .where(eq(contracts.id, requested))
    .for('share');
  if (!contract || contract.kind !== GENERAL || contract.status === 'Završen') throw chooseContract();
  return contract.id;
}

type Resolved = {
  naziv: string;
  groupIds: string[];
  contractId: string | null;
  naselja: string[];
  usputnaNaselja: string[];
  indikativnaDuzinaKlastera: number | null;
  ugovorenaVrednostKlastera: number | null;
};

async function resolveInput(tx: Executor, actor: Actor, input: ClusterInput, current: Current, exceptId?: string): Promise<Resolved> {
  await assertNameFree(tx, input.naziv, exceptId);
  const groupIds = await resolveGroups(tx, actor, input.odgovoran, current.groupIds);
  const naselja = unique(input.naselja);
  const usputnaNaselja = unique(input.usputnaNaselja);
  const inCluster = new Set(naselja);
  if (usputnaNaselja.some((id) => inCluster.has(id))) {
    throw badRequest(CLUSTER_TEXTS.settlementsOverlap, { usputnaNaselja: CLUSTER_TEXTS.settlementsOverlap });
  }
  await assertSettlementsExist(tx, naselja, 'naselja');
  await assertSettlementsExist(tx, usputnaNaselja, 'usputnaNaselja');
  const contractId = await resolveContract(tx, actor, input.ugovor === undefined ? undefined : input.ugovor || null, current.contract);
  return {
    naziv: input.naziv,
    groupIds,
    contractId,
    naselja,
    usputnaNaselja,
    // The form leaves an empty number out: saving the form without it clears it.
    indikativnaDuzinaKlastera: input.indikativnaDuzinaKlastera,
    ugovorenaVrednostKlastera: input.ugovorenaVrednostKlastera,
  };
}

/** Replaces the cluster's groups, settlements and general-contract link with the resolved ones. */
async function writeRelations(tx: Executor, clusterId: string, r: Resolved, current: Current): Promise<void> {
  await tx.delete(clusterGroups).where(eq(clusterGroups.clusterId, clusterId));
  if (r.groupIds.length > 0) await tx.insert(clusterGroups).values(r.groupIds.map((groupId) => ({ clusterId, groupId })));
  await tx.delete(clusterSettlements).where(eq(clusterSettlements.clusterId, clusterId));
  const linked = [
    ...r.naselja.map((settlementId, position) => ({ clusterId, settlementId, usputno: false, position })),
    ...r.usputnaNaselja.map((settlementId, position) => ({ clusterId, settlementId, usputno: true, position })),
  ];
  if (linked.length > 0) await tx.insert(clusterSettlements).values(linked);
  if (r.contractId !== (current.contract?.id ?? null)) {
    await tx.delete(contractClusters).where(and(eq(contractClusters.clusterId, clusterId), eq(contractClusters.kind, GENERAL)));
    if (r.contractId) {
      await onConstraint(() => tx.insert(contractClusters).values({ contractId: r.contractId as string, clusterId, kind: GENERAL }), {
        [UNIQUE_VIOLATION]: chooseContract,
      });
    }
  }
}

async function currentOf(tx: Executor, clusterId: string): Promise<Current> {
  const groupRows = await tx.select({ id: clusterGroups.groupId }).from(clusterGroups).where(eq(clusterGroups.clusterId, clusterId));
  const [contract] = await tx
    .select({ id: contracts.id, status: contracts.status })
    .from(contractClusters)
    .innerJoin(contracts, eq(contracts.id, contractClusters.contractId))
    .where(and(eq(contractClusters.clusterId, clusterId), eq(contractClusters.kind, GENERAL)))
    .limit(1);
  return { groupIds: groupRows.map((g) => g.id), contract: contract ?? null };
}

/** Cluster names are unique regardless of case; creating serialises on the name so the check holds. */
const lockName = (tx: Executor, naziv: string) =>
  tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`trasa:cluster:${naziv.toLowerCase()}`}))`);

/** POST /api/location (Admin). */
export async function createCluster(ctx: AppContext, actor: Actor, input: ClusterInput, req: RequestInfo): Promise<LocationDto> {
  return ctx.db.transaction(async (tx) => {
    await lockName(tx, input.naziv);
    const none: Current = { groupIds: [], contract: null };
    const r = await resolveInput(tx, actor, input, none);
    const [row] = await onConstraint(
      () =>
        tx
          .insert(clusters)
          .values({
            naziv: r.naziv,
            indikativnaDuzinaKlastera: r.indikativnaDuzinaKlastera,
            ugovorenaVrednostKlastera: r.ugovorenaVrednostKlastera,
          })
          .returning({ id: clusters.id }),
      { [UNIQUE_VIOLATION]: nameTaken },
    );
    if (!row) throw new Error('cluster not created');
    await writeRelations(tx, row.id, r, none);
    await ensureClusterActivities(tx, [row.id]);
    await writeLog(tx, { actor, ...req, message: `Korisnik ${actor.email} je dodao klaster ${r.naziv}.` });
    return locationOf(tx, row.id);
  });
}

/** PATCH /api/location/:id (Admin; Rukovodilac for visible clusters): the form's whole payload replaces the cluster. */
export async function editCluster(ctx: AppContext, actor: Actor, id: string, input: ClusterInput, req: RequestInfo): Promise<LocationDto> {
  return ctx.db.transaction(async (tx) => {
    await assertClusterVisible(tx, actor, id);
    await lockName(tx, input.naziv);
    const [existing] = await tx.select({ id: clusters.id, naziv: clusters.naziv }).from(clusters).where(eq(clusters.id, id)).for('update');
    if (!existing) throw notFound();
    const current = await currentOf(tx, id);
    const r = await resolveInput(tx, actor, input, current, id);
    await onConstraint(
      () =>
        tx
          .update(clusters)
          .set({
            naziv: r.naziv,
            indikativnaDuzinaKlastera: r.indikativnaDuzinaKlastera,
            ugovorenaVrednostKlastera: r.ugovorenaVrednostKlastera,
            updatedAt: new Date(),
          })
          .where(eq(clusters.id, id)),
      { [UNIQUE_VIOLATION]: nameTaken },
    );
    await writeRelations(tx, id, r, current);
    await writeLog(tx, { actor, ...req, message: `Korisnik ${actor.email} je izmenio klaster ${existing.naziv}.` });
    return locationOf(tx, id);
  });
}

/**
 * What keeps a cluster from being deleted: its open topics, the documents of its activities and its
 * started activities (status other than 'Nije započeta', or any file uploaded). The cluster row and its
 * activities are locked first, so nothing starts or opens on it while it goes (a new topic or file
 * waits for the lock and then finds nothing to refer to). Its inventory (spec 3: items and stocktaking
 * lists sent) holds it too; its links to inventory contracts and its A13 record go with it.
 */
async function deleteBlockers(tx: Executor, id: string) {
  await tx.select({ id: activities.id }).from(activities).where(eq(activities.clusterId, id)).for('update');
  const result = await tx.execute<{ openTopics: number; documents: number; startedActivities: number; inventory: number }>(sql`
    select
      (select count(*)::int from ${topics} where ${topics.clusterId} = ${id} and ${topics.status} = 'otvoren') as "openTopics",
      (select count(*)::int from ${activityFiles} join ${activities} on ${activities.id} = ${activityFiles.activityId}
        where ${activities.clusterId} = ${id} and ${activityFiles.deletedAt} is null) as "documents",
      (select count(*)::int from ${activities} where ${activities.clusterId} = ${id}
        and (${activities.status} <> 'Nije započeta'
          or exists (select 1 from ${activityFiles} where ${activityFiles.activityId} = ${activities.id}))) as "startedActivities",
      ((select count(*)::int from ${inventoryItems} where ${inventoryItems.clusterId} = ${id})
        + (select count(*)::int from ${schoolNotifications} where ${schoolNotifications.clusterId} = ${id})) as "inventory"`);
  return result.rows[0] ?? { openTopics: 0, documents: 0, startedActivities: 0, inventory: 0 };
}

/**
 * DELETE /api/location/:id (Admin): refused (409, naming what holds it) while the cluster has open
 * topics, documents or started activities. Otherwise its groups, settlements, contract links, closed
 * topics and not-started activity records go with it.
 */
export async function deleteCluster(ctx: AppContext, actor: Actor, id: string, req: RequestInfo): Promise<string> {
  return ctx.db.transaction(async (tx) => {
    const [locked] = await tx.select({ id: clusters.id }).from(clusters).where(eq(clusters.id, id)).for('update');
    if (!locked) throw notFound();
    const held = await deleteBlockers(tx, id);
    if (held.openTopics > 0 || held.documents > 0 || held.startedActivities > 0 || held.inventory > 0)
      throw conflict(CLUSTERS.deleteBlocked(held));
    const [existing] = await tx.delete(clusters).where(eq(clusters.id, id)).returning({ naziv: clusters.naziv });
    if (!existing) throw notFound();
    await writeLog(tx, { actor, ...req, message: `Korisnik ${actor.email} je obrisao klaster ${existing.naziv}.` });
    return CLUSTERS.deleted;
  });
}
