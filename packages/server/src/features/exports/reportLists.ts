import {
  asTyped,
  type CompareReport,
  formatDate,
  parseReportDate,
  REPORTS,
  ROUTE_LENGTH_REPORTS,
  rolesFor,
  SNAPSHOT_TYPES,
} from '@trasa/domain';
import { z } from 'zod';
import type { AppContext } from '../../context.js';
import { badRequest, notFound } from '../../platform/errors.js';
import { serbianCompare } from '../../platform/sorting.js';
import { appToday } from '../../platform/time.js';
import type { Cell, NumberFormat, SheetColumn } from '../../platform/xlsxWriter.js';
import { type ClusterScope, clusterScopeOf } from '../clusters/policy.js';
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
import { ours } from './cells.js';
import { define, type ExportList, type ExportPlan } from './lists.js';
import { inBatches, paged, primed } from './serviceRows.js';
import { TEXTS } from './texts.js';

/**
 * The reports' exports (spec 3 §2.7; docs/api/exports.md): each report as its call answers it
 * (features/reports/service.ts, snapshots.ts — the same visibility, filters and order), read page by
 * page of the service (500 clusters at a time) and written as it comes. Columns as the report screens
 * show them; dates DD.MM.YYYY, amounts and lengths as numbers. Statuses, payers, catalogue names and the
 * totals' captions are the product's words (cells.ts `ours`), in the reader's script.
 */

const text = z.string().max(200).optional();
const R = TEXTS.report;
const date = (d: string | null | undefined) => formatDate(d ?? null) || TEXTS.empty;
const orEmpty = (v: string | null | undefined) => v || TEXTS.empty;
/** A title is also the sheet's name, which may not hold * ? : \ / [ ]. */
const titled = (title: string) => title.replace(/[*?:\\/[\]]/g, '-');
/** The sheet's columns as [header, width, number format] triples, in the order the report's screen shows them. */
const sheet = (...columns: [string, number, NumberFormat?][]): SheetColumn[] =>
  columns.map(([header, width, format]) => (format ? { header, width, format } : { header, width }));

/**
 * One report's export: the reports hub's roles, and `plan` given the caller's visible clusters (the
 * scope every report call reads with).
 */
function reportList<Q extends z.ZodObject>(list: {
  name: string;
  query: Q;
  plan: (ctx: AppContext, scope: ClusterScope, q: z.output<Q>) => Promise<ExportPlan>;
}): ExportList {
  return define({
    name: list.name,
    roles: rolesFor('reports'),
    query: list.query,
    plan: async (ctx, actor, q) => list.plan(ctx, await clusterScopeOf(ctx.db, actor), q),
  });
}

/** GET /api/report/finished: the visible clusters with finished activities, by name. */
const finishedList = reportList({
  name: 'report-finished',
  query: z.object({}),
  plan: async (ctx, scope) => {
    return {
      title: TEXTS.titles.reportFinished,
      columns: sheet([R.klaster, 28], [R.ugovor, 24], [R.zavrsene, 60], [R.uRoku, 8, 'count'], [R.kasni, 8, 'count']),
      batches: await primed(
        paged(
          async (page, limit) => (await finishedReport(ctx.db, scope, { page, limit })).clusters,
          (c) => [
            [
              c.klaster,
              orEmpty(c.ugovor?.naziv),
              ours(c.zavrsene.map((a) => `${a.kratakNaziv} (${date(a.datumZavrsetka)}${a.uRoku ? '' : `, ${R.late}`})`).join(', ')),
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
const summaryList = reportList({
  name: 'report-summary',
  query: z.object({ contract: text }),
  plan: async (ctx, scope, q) => {
    const report = await summaryReport(ctx.db, scope, q.contract);
    const rows: unknown[][] = report.summary.map((r) => [r.kratakNaziv, ours(r.naziv), r.count]);
    rows.push([TEXTS.empty, ours(R.totalClusters), report.totalClusters]);
    return {
      title: TEXTS.titles.reportSummary,
      columns: sheet([R.kratakNaziv, 8], [R.naziv, 60], [R.count, 14, 'count']),
      batches: await primed(inBatches(rows)),
    };
  },
});

/** GET /api/report/{activity}?eng&srb&contract (and /api/search/location?…&activity): that activity on every visible cluster. */
const activityList = reportList({
  name: 'report-activity',
  query: z.object({ activity: z.string().max(20), eng: text, srb: text, contract: text }),
  plan: async (ctx, scope, q) => {
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
            ours(r.status),
            date(r.datumPocetka),
            date(r.datumZavrsetka),
            date(r.rokZavrsetka),
            // The items' labels are the product's, the values as typed.
            ours(
              r.podaci
                .filter((p) => p.vrednost !== '')
                .map((p) => `${p.naziv || p.key}: ${asTyped(p.vrednost)}`)
                .join('; ') || TEXTS.empty,
            ),
            r.fajlovi.map((f) => f.originalnoIme).join(', ') || TEXTS.empty,
          ],
        ],
      ),
    );
    return {
      title,
      columns: sheet(
        [R.klaster, 26],
        [R.ugovor, 20],
        [R.status, 12],
        [R.datumPocetka, 11],
        [R.datumZavrsetka, 11],
        [R.rok, 11],
        [R.podaci, 50],
        [R.fajlovi, 30],
      ),
      batches,
    };
  },
});

/** GET /api/report/ijo-takse?contract&payer: a row per holder on each A7; the totals of spec 3 §3 after them. */
const ijoTaxList = reportList({
  name: 'report-ijo',
  query: z.object({ contract: text, payer: text }),
  plan: async (ctx, scope, q) => {
    const report = await ijoTaxReport(ctx.db, scope, { ...q, page: 1, limit: Number.MAX_SAFE_INTEGER });
    const rows: unknown[][] = report.rows.map((r) => [
      orEmpty(r.ugovor),
      r.klaster,
      r.imaoc,
      ours(r.zaduzen),
      r.zaduzen === 'Izvođač' ? orEmpty(r.izvodjacNaziv) : TEXTS.empty,
      ours(r.status ? TEXTS.yes : TEXTS.no),
      r.taksa,
    ]);
    const total = (label: string, sum: number) => [TEXTS.empty, TEXTS.empty, ours(label), TEXTS.empty, TEXTS.empty, TEXTS.empty, sum];
    rows.push(total(R.narucilacTotal, report.narucilacTotal), total(R.izvodjaciTotal, report.izvodjaciTotal));
    for (const c of report.byContractor) rows.push(total(`${R.izvodjac}: ${asTyped(c.naziv)}`, c.sum));
    rows.push(total(R.totalTax, report.totalTax));
    return {
      title: TEXTS.titles.reportIjo,
      columns: sheet([R.ugovor, 20], [R.klaster, 22], [R.imaoc, 30], [R.payer, 11], [R.izvodjac, 20], [R.done, 8], [R.taksa, 12, 'money']),
      batches: await primed(inBatches(rows)),
    };
  },
});

/** GET /api/report/duzine/{A1|A9|A12}?eng&srb&contract: the route length in metres; the sum last. */
const lengthsList = reportList({
  name: 'report-lengths',
  query: z.object({ code: z.string().max(10), eng: text, srb: text, contract: text }),
  plan: async (ctx, scope, q) => {
    const code = ROUTE_LENGTH_REPORTS.find((c) => c === q.code.toUpperCase());
    if (!code) throw notFound(REPORTS.unknownReport);
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
            ours(r.status),
            date(r.datumZavrsetka),
            r.duzina,
          ],
        ],
      );
      yield [[ours(R.ukupno), ...(perSettlement ? [TEXTS.empty] : []), TEXTS.empty, TEXTS.empty, TEXTS.empty, sum]];
    };
    return {
      title: `${TEXTS.titles.reportLengths} ${code}`,
      columns: sheet(
        [R.klaster, 26],
        ...(perSettlement ? [[R.naselje, 22] as [string, number]] : []),
        [R.ugovor, 22],
        [R.status, 12],
        [R.datumZavrsetka, 11],
        [R.duzina, 12, 'quantity'],
      ),
      batches: await primed(rowsOf()),
    };
  },
});

/** A count as a number cell (never text); '' for none. */
const countCell = (v: unknown): Cell => (typeof v === 'number' ? v : v == null ? '' : String(v));
/** A compared row: its labels, and its values as cells (numbers stay numbers). */
type Line = { label: string[]; values: Cell[] };
/** A comparison's columns per report (as the compare view shows them, web features/reports/compare.ts). */
const COMPARE: Record<
  CompareReport['type'],
  {
    key: (r: Record<string, unknown>) => string;
    labels: string[];
    /** The value columns' headers and number formats. */
    values: [string, NumberFormat?][];
    line: (r: Record<string, unknown>) => Line;
  }
> = {
  finishedReport: {
    key: (r) => String(r._id),
    labels: [R.klaster, R.ugovor],
    values: [
      [R.zavrseno, 'count'],
      [R.uRoku, 'count'],
      [R.kasni, 'count'],
      [R.aktivnosti, 'count'],
    ],
    line: (r) => ({
      label: [String(r.klaster ?? ''), String(r.ugovor ?? '')],
      values: [r.zavrseno, r.uRoku, r.kasni, r.aktivnosti].map(countCell),
    }),
  },
  summaryReport: {
    key: (r) => String(r.kratakNaziv),
    labels: [R.kratakNaziv, R.naziv],
    values: [[R.count, 'count']],
    line: (r) => ({ label: [String(r.kratakNaziv), ours(String(r.naziv))], values: [countCell(r.count)] }),
  },
  ijoTaxesReport: {
    key: (r) => `${r.klasterId}|${r.imaocId}`,
    labels: [R.ugovor, R.klaster, R.imaoc, R.payer],
    values: [[R.done], [R.taksa, 'money']],
    line: (r) => ({
      label: [...[r.ugovor, r.klaster, r.imaoc].map((v) => String(v ?? '')), ours(String(r.zaduzen ?? ''))],
      values: [ours(r.status ? TEXTS.yes : TEXTS.no), typeof r.taksa === 'number' ? r.taksa : ''],
    }),
  },
};

/**
 * GET /api/report/compare?type&dateA&dateB&contract&payer: the two dates' snapshots matched row by row,
 * each value column once per date, and 'Измењено' naming the columns that differ. No snapshot on
 * either date: 404 'Nisu sačuvani podaci za izabrane datume'.
 */
const compareList = reportList({
  name: 'report-compare',
  query: z.object({ type: text, dateA: text, dateB: text, contract: text, payer: text }),
  plan: async (ctx, scope, q) => {
    const type = SNAPSHOT_TYPES.find((t) => t === q.type);
    if (!type) throw badRequest(REPORTS.unknownReport, { type: REPORTS.unknownReport });
    const today = appToday();
    const dateA = compareDate(q.dateA, 'dateA', parseReportDate, today);
    const dateB = compareDate(q.dateB, 'dateB', parseReportDate, today);
    const answer = await compareSnapshots(ctx.db, scope, {
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
      const changed = spec.values.filter((_, i) => (la?.values[i] ?? null) !== (lb?.values[i] ?? null)).map(([h]) => h);
      return [
        ...label,
        ...spec.values.flatMap((_, i) => [la?.values[i] ?? TEXTS.empty, lb?.values[i] ?? TEXTS.empty]),
        changed.length > 0 ? ours(changed.join(', ')) : '',
      ];
    });
    if (type !== 'summaryReport')
      lines.sort((x, y) => serbianCompare(x.slice(0, spec.labels.length).join(' '), y.slice(0, spec.labels.length).join(' ')));
    const da = formatDate(dateA);
    const db = formatDate(dateB);
    return {
      title: titled(`${TEXTS.titles.reportCompare} – ${TEXTS.compareTitles[type]} (${da} – ${db})`),
      columns: [
        ...spec.labels.map((header) => ({ header, width: 22 })),
        ...spec.values.flatMap(([h, format]) => sheet([`${h} (${da})`, 14, format], [`${h} (${db})`, 14, format])),
        { header: R.changed, width: 20 },
      ],
      batches: await primed(inBatches(lines)),
    };
  },
});

export const REPORT_LISTS = [finishedList, summaryList, activityList, ijoTaxList, lengthsList, compareList];
