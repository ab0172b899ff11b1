import { type CompareReport, formatDate, parseReportDate, REPORTS, ROUTE_LENGTH_REPORTS, rolesFor, SNAPSHOT_TYPES } from '@trasa/domain';
import { z } from 'zod';
import { badRequest, notFound } from '../../platform/errors.js';
import { appToday } from '../../platform/time.js';
import { clusterScopeOf } from '../clusters/policy.js';
import {
  activityReport,
  contractFilter,
  finishedReport,
  ijoTaxReport,
  payerFilter,
  routeLengthReport,
  summaryReport,
} from '../reports/service.js';
import { compareDate, compareSnapshots } from '../reports/snapshots.js';
import { define } from './lists.js';
import { inBatches, paged, primed } from './serviceRows.js';
import { TEXTS } from './texts.js';

/**
 * The reports' exports (spec 3 §2.7; docs/api/exports.md): each report as its call answers it
 * (features/reports/service.ts, snapshots.ts — the same visibility, filters and order), read page by
 * page of the service (500 clusters at a time) and written as it comes. Columns as the report screens
 * show them; dates DD.MM.YYYY, amounts and lengths as numbers.
 */

const text = z.string().max(200).optional();
const R = TEXTS.report;
const date = (d: string | null | undefined) => formatDate(d ?? null) || TEXTS.empty;
const orEmpty = (v: string | null | undefined) => v || TEXTS.empty;
/** A title is also the sheet's name, which may not hold * ? : \ / [ ]. */
const titled = (title: string) => title.replace(/[*?:\\/[\]]/g, '-');

/** GET /api/report/finished: the visible clusters with finished activities, by name. */
const finishedList = define({
  name: 'report-finished',
  roles: rolesFor('reports'),
  query: z.object({}),
  plan: async (ctx, actor) => {
    const scope = await clusterScopeOf(ctx.db, actor);
    return {
      title: TEXTS.titles.reportFinished,
      columns: [
        { header: R.klaster, width: 28 },
        { header: R.ugovor, width: 24 },
        { header: R.zavrsene, width: 60 },
        { header: R.uRoku, width: 8 },
        { header: R.kasni, width: 8 },
      ],
      batches: await primed(
        paged(
          async (page, limit) => (await finishedReport(ctx.db, scope, { page, limit })).clusters,
          (c) => [
            [
              c.klaster,
              orEmpty(c.ugovor?.naziv),
              c.zavrsene.map((a) => `${a.kratakNaziv} (${date(a.datumZavrsetka)}${a.uRoku ? '' : `, ${R.late}`})`).join(', '),
              c.uRoku,
              c.kasni,
            ],
          ],
        ),
      ),
    };
  },
});

/** GET /api/report/summary?contract: per catalogue activity, the visible clusters with it finished; the clusters' count last. */
const summaryList = define({
  name: 'report-summary',
  roles: rolesFor('reports'),
  query: z.object({ contract: text }),
  plan: async (ctx, actor, q) => {
    const report = await summaryReport(ctx.db, await clusterScopeOf(ctx.db, actor), q.contract);
    const rows: unknown[][] = report.summary.map((r) => [r.kratakNaziv, r.naziv, r.count]);
    rows.push([TEXTS.empty, R.totalClusters, report.totalClusters]);
    return {
      title: TEXTS.titles.reportSummary,
      columns: [
        { header: R.kratakNaziv, width: 8 },
        { header: R.naziv, width: 60 },
        { header: R.count, width: 14 },
      ],
      batches: await primed(inBatches(rows)),
    };
  },
});

/** GET /api/report/{activity}?eng&srb&contract (and /api/search/location?…&activity): that activity on every visible cluster. */
const activityList = define({
  name: 'report-activity',
  roles: rolesFor('reports'),
  query: z.object({ activity: z.string().max(20), eng: text, srb: text, contract: text }),
  plan: async (ctx, actor, q) => {
    const scope = await clusterScopeOf(ctx.db, actor);
    let title: string = TEXTS.titles.reportActivity;
    const batches = await primed(
      paged(
        async (page, limit) => {
          const report = await activityReport(ctx.db, scope, q.activity, { ...q, page, limit });
          title = titled(`${report.activity.kratakNaziv} – ${report.activity.naziv}`);
          return report.rows;
        },
        (r) => [
          [
            r.klaster.naziv,
            orEmpty(r.ugovor?.naziv),
            r.status,
            date(r.datumPocetka),
            date(r.datumZavrsetka),
            date(r.rokZavrsetka),
            r.podaci
              .filter((p) => p.vrednost !== '')
              .map((p) => `${p.naziv || p.key}: ${p.vrednost}`)
              .join('; ') || TEXTS.empty,
            r.fajlovi.map((f) => f.originalnoIme).join(', ') || TEXTS.empty,
          ],
        ],
      ),
    );
    return {
      title,
      columns: [
        { header: R.klaster, width: 26 },
        { header: R.ugovor, width: 20 },
        { header: R.status, width: 12 },
        { header: R.datumPocetka, width: 11 },
        { header: R.datumZavrsetka, width: 11 },
        { header: R.rok, width: 11 },
        { header: R.podaci, width: 50 },
        { header: R.fajlovi, width: 30 },
      ],
      batches,
    };
  },
});

/** GET /api/report/ijo-takse?contract&payer: a row per holder on each A7; the totals of spec 3 §3 after them. */
const ijoTaxList = define({
  name: 'report-ijo',
  roles: rolesFor('reports'),
  query: z.object({ contract: text, payer: text }),
  plan: async (ctx, actor, q) => {
    const report = await ijoTaxReport(ctx.db, await clusterScopeOf(ctx.db, actor), { ...q, page: 1, limit: Number.MAX_SAFE_INTEGER });
    const rows: unknown[][] = report.rows.map((r) => [
      orEmpty(r.ugovor),
      r.klaster,
      r.imaoc,
      r.zaduzen,
      r.zaduzen === 'Izvođač' ? orEmpty(r.izvodjacNaziv) : TEXTS.empty,
      r.status ? TEXTS.yes : TEXTS.no,
      r.taksa,
    ]);
    const total = (label: string, sum: number) => [TEXTS.empty, TEXTS.empty, label, TEXTS.empty, TEXTS.empty, TEXTS.empty, sum];
    rows.push(total(R.narucilacTotal, report.narucilacTotal), total(R.izvodjaciTotal, report.izvodjaciTotal));
    for (const c of report.byContractor) rows.push(total(`${R.izvodjac}: ${c.naziv}`, c.sum));
    rows.push(total(R.totalTax, report.totalTax));
    return {
      title: TEXTS.titles.reportIjo,
      columns: [
        { header: R.ugovor, width: 20 },
        { header: R.klaster, width: 22 },
        { header: R.imaoc, width: 30 },
        { header: R.payer, width: 11 },
        { header: R.izvodjac, width: 20 },
        { header: R.done, width: 8 },
        { header: R.taksa, width: 12 },
      ],
      batches: await primed(inBatches(rows)),
    };
  },
});

/** GET /api/report/duzine/{A1|A9|A12}?eng&srb&contract: the route length in metres; the sum last. */
const lengthsList = define({
  name: 'report-lengths',
  roles: rolesFor('reports'),
  query: z.object({ code: z.string().max(10), eng: text, srb: text, contract: text }),
  plan: async (ctx, actor, q) => {
    const code = ROUTE_LENGTH_REPORTS.find((c) => c === q.code.toUpperCase());
    if (!code) throw notFound(REPORTS.unknownReport);
    const scope = await clusterScopeOf(ctx.db, actor);
    const perSettlement = code === 'A1';
    let sum = 0;
    const rowsOf = async function* () {
      yield* paged(
        async (page, limit) => {
          const report = await routeLengthReport(ctx.db, scope, code, { ...q, page, limit });
          sum = report.ukupno;
          return report.rows;
        },
        (r) => [
          [
            r.klaster.naziv,
            ...(perSettlement ? [orEmpty(r.naselje?.naziv)] : []),
            orEmpty(r.ugovor?.naziv),
            r.status,
            date(r.datumZavrsetka),
            r.duzina,
          ],
        ],
      );
      yield [[R.ukupno, ...(perSettlement ? [TEXTS.empty] : []), TEXTS.empty, TEXTS.empty, TEXTS.empty, sum]];
    };
    return {
      title: `${TEXTS.titles.reportLengths} ${code}`,
      columns: [
        { header: R.klaster, width: 26 },
        ...(perSettlement ? [{ header: R.naselje, width: 22 }] : []),
        { header: R.ugovor, width: 22 },
        { header: R.status, width: 12 },
        { header: R.datumZavrsetka, width: 11 },
        { header: R.duzina, width: 12 },
      ],
      batches: await primed(rowsOf()),
    };
  },
});

type Line = { label: string[]; values: string[] };
/** A comparison's columns per report (as the compare view shows them, web features/reports/compare.ts). */
const COMPARE: Record<
  CompareReport['type'],
  { key: (r: Record<string, unknown>) => string; labels: string[]; values: string[]; line: (r: Record<string, unknown>) => Line }
> = {
  finishedReport: {
    key: (r) => String(r._id),
    labels: [R.klaster, R.ugovor],
    values: [R.zavrseno, R.uRoku, R.kasni, R.aktivnosti],
    line: (r) => ({
      label: [String(r.klaster ?? ''), String(r.ugovor ?? '')],
      values: [r.zavrseno, r.uRoku, r.kasni, r.aktivnosti].map((v) => String(v ?? '')),
    }),
  },
  summaryReport: {
    key: (r) => String(r.kratakNaziv),
    labels: [R.kratakNaziv, R.naziv],
    values: [R.count],
    line: (r) => ({ label: [String(r.kratakNaziv), String(r.naziv)], values: [String(r.count ?? '')] }),
  },
  ijoTaxesReport: {
    key: (r) => `${r.klasterId}|${r.imaocId}`,
    labels: [R.ugovor, R.klaster, R.imaoc, R.payer],
    values: [R.done, R.taksa],
    line: (r) => ({
      label: [r.ugovor, r.klaster, r.imaoc, r.zaduzen].map((v) => String(v ?? '')),
      values: [r.status ? TEXTS.yes : TEXTS.no, typeof r.taksa === 'number' ? String(r.taksa) : ''],
    }),
  },
};
const collator = new Intl.Collator('sr-Latn');

/**
 * GET /api/report/compare?type&dateA&dateB&contract&payer: the two dates' snapshots matched row by row,
 * each value column once per date, and 'Измењено' naming the columns that differ. No snapshot on
 * either date: 404 'Nisu sačuvani podaci za izabrane datume'.
 */
const compareList = define({
  name: 'report-compare',
  roles: rolesFor('reports'),
  query: z.object({ type: text, dateA: text, dateB: text, contract: text, payer: text }),
  plan: async (ctx, actor, q) => {
    const type = SNAPSHOT_TYPES.find((t) => t === q.type);
    if (!type) throw badRequest(REPORTS.unknownReport, { type: REPORTS.unknownReport });
    const today = appToday();
    const dateA = compareDate(q.dateA, 'dateA', parseReportDate, today);
    const dateB = compareDate(q.dateB, 'dateB', parseReportDate, today);
    const answer = await compareSnapshots(ctx.db, await clusterScopeOf(ctx.db, actor), {
      type,
      dateA,
      dateB,
      contractId: contractFilter(q.contract),
      payer: payerFilter(q.payer),
    });
    if (!answer.reportA && !answer.reportB) throw notFound(REPORTS.noSnapshot);
    const spec = COMPARE[type];
    const mapOf = (r: CompareReport | null) => new Map((r?.rows ?? []).map((x) => [spec.key(x as never), spec.line(x as never)]));
    const a = mapOf(answer.reportA);
    const b = mapOf(answer.reportB);
    const keys = [...new Set([...a.keys(), ...b.keys()])];
    const lines = keys.map((k) => {
      const la = a.get(k);
      const lb = b.get(k);
      const label = (la ?? lb)?.label ?? [];
      const changed = spec.values.filter((_, i) => (la?.values[i] ?? null) !== (lb?.values[i] ?? null));
      return [...label, ...spec.values.flatMap((_, i) => [la?.values[i] ?? TEXTS.empty, lb?.values[i] ?? TEXTS.empty]), changed.join(', ')];
    });
    if (type !== 'summaryReport')
      lines.sort((x, y) => collator.compare(x.slice(0, spec.labels.length).join(' '), y.slice(0, spec.labels.length).join(' ')));
    const da = formatDate(dateA);
    const db = formatDate(dateB);
    return {
      title: titled(`${TEXTS.titles.reportCompare} – ${TEXTS.compareTitles[type]} (${da} – ${db})`),
      columns: [
        ...spec.labels.map((header) => ({ header, width: 22 })),
        ...spec.values.flatMap((h) => [
          { header: `${h} (${da})`, width: 14 },
          { header: `${h} (${db})`, width: 14 },
        ]),
        { header: R.changed, width: 20 },
      ],
      batches: await primed(inBatches(lines)),
    };
  },
});

export const REPORT_LISTS = [finishedList, summaryList, activityList, ijoTaxList, lengthsList, compareList];
