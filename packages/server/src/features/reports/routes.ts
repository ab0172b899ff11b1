import {
  asTyped,
  BACKFILL_DEFAULT_DAYS,
  backfillDays,
  MAX_LIMIT,
  parseReportDate,
  REPORTS,
  ROUTE_LENGTH_REPORTS,
  rolesFor,
  SNAPSHOT_TYPES,
  sortQuery,
} from '@trasa/domain';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.js';
import { writeLog } from '../../platform/audit.js';
import { type Actor, actorOf } from '../../platform/auth.js';
import { contentDisposition } from '../../platform/contentDisposition.js';
import { badRequest, forbidden, notFound } from '../../platform/errors.js';
import { scopeKey, sendKept } from '../../platform/kept/answers.js';
import { actorVersion } from '../../platform/kept/store.js';
import { appToday } from '../../platform/time.js';
import { activityFileStore } from '../../shared/activityFileStore.js';
import { type ClusterScope, clusterScopeOf } from '../clusters/policy.js';
import type { ZipEntry } from '../files/service.js';
import { zipStream } from '../files/zip.js';
import { progressReport } from './progress.js';
import * as service from './service.js';
import * as snapshots from './snapshots.js';

/** A whole number from the query, clamped: a huge or tiny value is not an error (like pageQuery). */
const clamped = (min: number, max: number, fallback: number) =>
  z.coerce
    .number()
    .catch(fallback)
    .transform((n) => (Number.isFinite(n) ? Math.min(max, Math.max(min, Math.trunc(n))) : fallback))
    .default(fallback);
const text = z.string().max(200).optional();
const paged = { page: clamped(1, 1_000_000, 1), limit: clamped(1, MAX_LIMIT, 10) };
const searchPaged = z.object({ ...paged, eng: text, srb: text, contract: text });
const summaryQuery = z.object({ contract: text });
/** The IJO report without paging gives every row (the spec calls it without page and limit). */
const ijoQuery = z.object({ contract: text, payer: text, page: clamped(1, 1_000_000, 1), limit: clamped(1, MAX_LIMIT, MAX_LIMIT) });
const activityParam = z.object({ activity: z.string().max(20) });
const lengthParam = z.object({ code: z.string().max(10) });
const backfillQuery = z.object({ days: z.string().max(20).optional(), randomize: z.string().max(10).optional() });
const compareQuery = z.object({ type: z.string().max(50).optional(), dateA: text, dateB: text, contract: text, payer: text });

/** ASCII-safe name of a zip entry (no path separators or characters Windows refuses). */
const safe = (s: string) => s.replace(/[\\/:*?"<>|]/g, '_').trim() || 'dokument';

function uniqueNames(entries: ZipEntry[]): ZipEntry[] {
  const used = new Set<string>();
  return entries.map((e) => {
    let name = e.name;
    const dot = name.lastIndexOf('.');
    const slash = name.lastIndexOf('/');
    const [stem, ext] = dot > slash + 1 ? [name.slice(0, dot), name.slice(dot)] : [name, ''];
    for (let i = 2; used.has(name.toLowerCase()); i++) name = `${stem} (${i})${ext}`;
    used.add(name.toLowerCase());
    return { ...e, name };
  });
}

/** The test panel (snapshots): the Admin, or a caller whose group sees everything (sveVideci, also inherited). */
export function mayManageSnapshots(actor: Actor, scope: ClusterScope): boolean {
  return actor.role === 'Admin' || scope.all;
}

/**
 * Reports and snapshots (spec 3 §2.7, §7 "Reports"; docs/api/reports.md). Every call: the reports hub's
 * roles (Admin, Rukovodilac, Zaposleni); every answer holds only the caller's visible clusters. The
 * snapshot tools (backfill, clear): the Admin or a sees-all group, 403 otherwise.
 */
export async function reportRoutes(fastify: FastifyInstance, ctx: AppContext): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const readers = ctx.auth.requireRoles(rolesFor('reports'));
  const scopeOf = (actor: Actor) => clusterScopeOf(ctx.db, actor);
  const store = activityFileStore(ctx.config.dataDir);
  // The snapshot comparisons' whole answers are kept by data version (platform/kept kind 'comparison';
  // docs/decisions.md "Reports: whole answers kept by data version").

  app.get('/api/report/contracts', { onRequest: readers }, async (request) => ({
    contracts: await service.reportContracts(ctx.db, await scopeOf(actorOf(request))),
  }));

  app.get('/api/report/summary', { schema: { querystring: summaryQuery }, onRequest: readers }, async (request) =>
    service.summaryReport(ctx.db, await scopeOf(actorOf(request)), request.query.contract),
  );

  app.get('/api/report/progress', { schema: { querystring: summaryQuery }, onRequest: readers }, async (request) =>
    progressReport(ctx.db, await scopeOf(actorOf(request)), request.query.contract),
  );

  app.get(
    '/api/report/finished',
    { schema: { querystring: z.object({ ...paged, ...sortQuery('finishedReport') }) }, onRequest: readers },
    async (request) => service.finishedReport(ctx.db, await scopeOf(actorOf(request)), request.query),
  );

  app.get(
    '/api/report/ijo-takse',
    { schema: { querystring: ijoQuery.extend(sortQuery('ijoReport')) }, onRequest: readers },
    async (request) => service.ijoTaxReport(ctx.db, await scopeOf(actorOf(request)), request.query),
  );

  app.get(
    '/api/report/duzine/:code',
    { schema: { params: lengthParam, querystring: searchPaged.extend(sortQuery('routeLengthReport')) }, onRequest: readers },
    async (request) => {
      const code = request.params.code.toUpperCase();
      const known = ROUTE_LENGTH_REPORTS.find((c) => c === code);
      if (!known) throw notFound(REPORTS.unknownReport);
      return service.routeLengthReport(ctx.db, await scopeOf(actorOf(request)), known, request.query);
    },
  );

  app.get('/api/report/snapshots', { onRequest: readers }, async (request) => {
    const actor = actorOf(request);
    return snapshots.listSnapshots(ctx.db, mayManageSnapshots(actor, await scopeOf(actor)));
  });

  app.get('/api/report/compare', { schema: { querystring: compareQuery }, onRequest: readers }, async (request, reply) => {
    const q = request.query;
    const type = SNAPSHOT_TYPES.find((t) => t === q.type);
    if (!type) throw badRequest(REPORTS.unknownReport, { type: REPORTS.unknownReport });
    const today = appToday();
    const dateA = snapshots.compareDate(q.dateA, 'dateA', parseReportDate, today);
    const dateB = snapshots.compareDate(q.dateB, 'dateB', parseReportDate, today);
    const actor = actorOf(request);
    const scope = await scopeOf(actor);
    const input = { type, dateA, dateB, contractId: service.contractFilter(q.contract), payer: service.payerFilter(q.payer) };
    // Built in SQL and sent as the text it is (snapshots.compareSnapshotsText): megabytes not parsed and
    // serialised again here; kept while the snapshots, the scope's links and the catalogue stay.
    const build = () => snapshots.compareSnapshotsText(ctx.db, scope, input);
    return sendKept(ctx.db, 'comparison', request, reply, ['compare', scopeKey(scope), input], build, actorVersion('comparison', actor));
  });

  const snapshotTool = async (actor: Actor) => {
    if (!mayManageSnapshots(actor, await scopeOf(actor))) throw forbidden(REPORTS.testPanelForbidden);
  };

  app.post('/api/report/backfill-snapshots', { schema: { querystring: backfillQuery }, onRequest: readers }, async (request) => {
    const actor = actorOf(request);
    await snapshotTool(actor);
    const days = request.query.days === undefined ? BACKFILL_DEFAULT_DAYS : backfillDays(request.query.days);
    const randomize = request.query.randomize === 'true';
    const results = await snapshots.backfillSnapshots(ctx.db, days, randomize);
    await writeLog(ctx.db, {
      actor: actor,
      ip: request.ip,
      url: request.url,
      message: `Korisnik ${asTyped(actor.email)} je popunio snimke izveštaja za ${days} dana${randomize ? ' (nasumično izmenjene)' : ''}.`,
    });
    return { message: REPORTS.backfilled(days), results };
  });

  app.post('/api/report/clear-snapshots', { onRequest: readers }, async (request) => {
    const actor = actorOf(request);
    await snapshotTool(actor);
    const deleted = await snapshots.clearSnapshots(ctx.db);
    await writeLog(ctx.db, {
      actor,
      ip: request.ip,
      url: request.url,
      message: `Korisnik ${asTyped(actor.email)} je obrisao snimke izveštaja (${deleted}).`,
    });
    return { message: REPORTS.cleared(deleted), deleted };
  });

  // Registered last: the static routes above win over the parameter.
  app.get(
    '/api/report/:activity/zip',
    { schema: { params: activityParam, querystring: searchPaged }, onRequest: readers },
    async (request, reply) => {
      const scope = await scopeOf(actorOf(request));
      const { code, rows } = await service.activityZipFiles(ctx.db, scope, request.params.activity, request.query);
      const entries = uniqueNames(rows.map((r) => ({ name: `${safe(r.klaster)}/${safe(r.name)}`, storedName: r.storedName })));
      const archive = zipStream(store, entries);
      reply.raw.on('close', () => {
        if (!reply.raw.writableFinished) archive.abort();
      });
      return reply
        .header('content-type', 'application/zip')
        .header('content-disposition', contentDisposition(`${code} - dokumenta.zip`))
        .header('x-content-type-options', 'nosniff')
        .header('cache-control', 'private, no-store')
        .send(archive);
    },
  );

  app.get(
    '/api/report/:activity',
    { schema: { params: activityParam, querystring: searchPaged.extend(sortQuery('activityReport')) }, onRequest: readers },
    async (request) => service.activityReport(ctx.db, await scopeOf(actorOf(request)), request.params.activity, request.query),
  );
}
