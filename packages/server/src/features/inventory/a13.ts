import { type A13All, type A13Page, type A13Stats, asTyped, INVENTORY, type Sorting, type SortKey } from '@trasa/domain';
import { and, asc, count, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import { activities, activityFiles } from '../../db/schema-activities.js';
import { clusters } from '../../db/schema-clusters.js';
import { a13Confirmations } from '../../db/schema-inventory.js';
import { writeLog } from '../../platform/audit.js';
import type { Actor } from '../../platform/auth.js';
import { serbianOrder } from '../../platform/database.js';
import { notFound } from '../../platform/errors.js';
import { offsetOf, type Paging } from '../../platform/paging.js';
import { orderOf, type SortMap } from '../../platform/sorting.js';
import { matchCondition, searchTerms } from '../../platform/textSearch.js';
import { assertClusterVisible, type ClusterScope, clusterScopeOf, visibleClusterCondition } from '../clusters/policy.js';
import type { ZipEntry } from '../files/service.js';
import { assertInventoryUser, type RequestInfo } from './access.js';
import { inventoryLocationTotals } from './totals.js';

/**
 * A13 confirmations (spec 3 §7 "A13"; activity-catalogue.md A13): one record per location, its `_id` the
 * location's id; absent means not confirmed. Confirming is the client's act on the record; the A13
 * activity's status is never changed here.
 */

const confirmed = sql<boolean>`coalesce(${a13Confirmations.status}, false)`;

/**
 * `sort` of the inventory check (LIST_SORTS.a13): the location's name, the confirmation (not confirmed
 * first going up) and whether items are recorded (none first).
 */
const A13_SORTS: SortMap<'a13'> = {
  naziv: { text: clusters.naziv },
  status: { value: confirmed },
  // A location with items has a kept row (inventory_location_totals, migration 0028), left joined below.
  inventar: { value: sql`${inventoryLocationTotals.clusterId} is not null` },
};

/** GET /api/A13: every visible location by name (or `sort`), with its A13 status and whether items are recorded. */
export async function listA13(
  ctx: AppContext,
  actor: Actor,
  input: Paging & Sorting<SortKey<'a13'>> & { eng?: string; srb?: string },
): Promise<A13Page> {
  assertInventoryUser(actor);
  const scope = await clusterScopeOf(ctx.db, actor);
  const where = and(
    visibleClusterCondition(scope),
    matchCondition(clusters.searchText, searchTerms({ eng: input.eng ?? '', srb: input.srb ?? '' })),
  );
  // The page and the count of every visible location (an uncorrelated subquery: an InitPlan, counted once)
  // in one statement; a page past the end has no row to carry the count and counts on its own. The page's
  // A13 activities after it, for its ten rows only (in the page's statement, the select list would be
  // computed for every row the OFFSET skips: page 300 looked up 3,000 activities).
  const total = sql<number>`(select count(*)::int from ${clusters} where ${where})`;
  // The item count kept per location (inventory_location_totals): the sort by items joins 3,000 kept rows
  // instead of probing the items once per location, and the page's counts come with its rows.
  const rows = await ctx.db
    .select({ id: clusters.id, naziv: clusters.naziv, status: confirmed, n: sql<number>`coalesce(${inventoryLocationTotals.n}, 0)`, total })
    .from(clusters)
    .leftJoin(a13Confirmations, eq(a13Confirmations.clusterId, clusters.id))
    .leftJoin(inventoryLocationTotals, eq(inventoryLocationTotals.clusterId, clusters.id))
    .where(where)
    .orderBy(...orderOf(A13_SORTS, input, [serbianOrder(clusters.naziv), asc(clusters.id)], clusters.id))
    .limit(input.limit)
    .offset(offsetOf(input));
  const totalResults = rows[0]?.total ?? (await ctx.db.select({ n: count() }).from(clusters).where(where))[0]?.n ?? 0;
  const ids = rows.map((r) => r.id);
  const acts = ids.length
    ? await ctx.db
        .select({
          clusterId: activities.clusterId,
          id: activities.id,
          status: activities.status,
          // Written with its own alias: in a select of one table drizzle names columns without their table,
          // and an unqualified "id" here would be the file's own (the count was always 0).
          files: sql<number>`(select count(*)::int from ${activityFiles} f where f.activity_id = ${activities}.id and f.deleted_at is null)`,
        })
        .from(activities)
        .where(and(inArray(activities.clusterId, ids), eq(activities.code, 'A13')))
    : [];
  return {
    a13: rows.map((r) => {
      const n = r.n;
      const act = acts.find((a) => a.clusterId === r.id);
      return {
        _id: r.id,
        lokacija: { _id: r.id, naziv: r.naziv },
        status: Boolean(r.status),
        inventar: n > 0 ? INVENTORY.itemsPresent : INVENTORY.itemsAbsent,
        brojStavki: n,
        aktivnost: act ? { _id: act.id, status: act.status, brojFajlova: act.files } : null,
      };
    }),
    totalResults,
  };
}

/** GET /api/a13/get-all: every visible location's record. */
export async function allA13(ctx: AppContext, actor: Actor, knownScope?: ClusterScope): Promise<A13All> {
  assertInventoryUser(actor);
  const scope = knownScope ?? (await clusterScopeOf(ctx.db, actor));
  const rows = await ctx.db
    .select({ id: clusters.id, naziv: clusters.naziv, status: confirmed })
    .from(clusters)
    .leftJoin(a13Confirmations, eq(a13Confirmations.clusterId, clusters.id))
    .where(visibleClusterCondition(scope))
    .orderBy(serbianOrder(clusters.naziv), asc(clusters.id))
    .limit(100_000);
  return { a13: rows.map((r) => ({ _id: r.id, lokacija: { _id: r.id, naziv: r.naziv }, status: Boolean(r.status) })) };
}

/** GET /api/A13/get/stats over the visible locations. */
export async function statsA13(ctx: AppContext, actor: Actor): Promise<A13Stats> {
  assertInventoryUser(actor);
  const scope = await clusterScopeOf(ctx.db, actor);
  const [row] = await ctx.db
    .select({ ukupno: count(), potvrdjeno: sql<number>`count(*) filter (where ${a13Confirmations.status})::int` })
    .from(clusters)
    .leftJoin(a13Confirmations, eq(a13Confirmations.clusterId, clusters.id))
    .where(visibleClusterCondition(scope));
  const ukupno = row?.ukupno ?? 0;
  const potvrdjeno = row?.potvrdjeno ?? 0;
  return { potvrdjeno, nijePotvrdjeno: ukupno - potvrdjeno, ukupno };
}

/** PATCH /api/A13/{id} {status}: confirm or undo. */
export async function setA13(ctx: AppContext, actor: Actor, id: string, status: boolean, req: RequestInfo) {
  assertInventoryUser(actor);
  await assertClusterVisible(ctx.db, actor, id);
  return ctx.db.transaction(async (tx) => {
    await tx
      .insert(a13Confirmations)
      .values({ clusterId: id, status, updatedBy: actor.id })
      .onConflictDoUpdate({ target: a13Confirmations.clusterId, set: { status, updatedBy: actor.id, updatedAt: new Date() } });
    const [c] = await tx.select({ naziv: clusters.naziv }).from(clusters).where(eq(clusters.id, id));
    await writeLog(tx, {
      actor,
      ...req,
      message: `Korisnik ${asTyped(actor.email)} je ${status ? 'potvrdio' : 'poništio potvrdu'} A13 za lokaciju ${asTyped(c?.naziv ?? '')}.`,
    });
    return { message: INVENTORY.statusChanged, a13: { _id: id, lokacija: { _id: id, naziv: c?.naziv ?? '' }, status } };
  });
}

/**
 * GET /api/a13/download-files?aktId&lokId: the documents of the location's A13 activity (current ones),
 * named '<location name>-a13.zip'; 404 'Нема документа' when there are none.
 */
export async function planA13Zip(
  ctx: AppContext,
  actor: Actor,
  aktId: string | undefined,
  lokId: string,
): Promise<{ fileName: string; entries: ZipEntry[] }> {
  assertInventoryUser(actor);
  await assertClusterVisible(ctx.db, actor, lokId);
  const [c] = await ctx.db.select({ naziv: clusters.naziv }).from(clusters).where(eq(clusters.id, lokId));
  if (!c) throw notFound();
  const [act] = await ctx.db
    .select({ id: activities.id })
    .from(activities)
    .where(and(eq(activities.clusterId, lokId), eq(activities.code, 'A13'), aktId ? eq(activities.id, aktId) : undefined))
    .limit(1);
  if (!act) throw notFound(INVENTORY.noDocument);
  const files = await ctx.db
    .select({ storedName: activityFiles.storedName, originalnoIme: activityFiles.originalnoIme })
    .from(activityFiles)
    .where(and(eq(activityFiles.activityId, act.id), isNull(activityFiles.deletedAt)))
    .orderBy(asc(activityFiles.createdAt));
  if (files.length === 0) throw notFound(INVENTORY.noDocument);
  const used = new Set<string>();
  const entries = files.map((f) => {
    let name = f.originalnoIme.replace(/[/\\]/g, '_') || 'dokument';
    const dot = name.lastIndexOf('.');
    const [stem, ext] = dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ''];
    for (let i = 2; used.has(name.toLowerCase()); i++) name = `${stem} (${i})${ext}`;
    used.add(name.toLowerCase());
    return { name, storedName: f.storedName };
  });
  return { fileName: `${c.naziv}-a13.zip`, entries };
}
