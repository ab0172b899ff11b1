import { type CompareReport, formatDate, formatRsd, spreadsheetSafe } from '@trasa/domain';
import { saveBlob } from '../../api/client';
import { REPORT_LABELS as L } from './labels';

/**
 * A comparison as a table: the rows of both dates matched by key, each value column once per date, and
 * whether the two differ (cell by cell). Used by the compare view and its xlsx export.
 */
export type CompareColumn = { id: string; header: string; value: (row: Record<string, unknown>) => string };
export type CompareLine = { key: string; label: string[]; a: string[] | null; b: string[] | null; diff: boolean[] };
export type CompareTable = { labelHeaders: string[]; valueHeaders: string[]; lines: CompareLine[] };

type Spec = { key: (r: Record<string, unknown>) => string; labels: CompareColumn[]; values: CompareColumn[] };
const s = (v: unknown) => (v === null || v === undefined ? '' : String(v));

const SPECS: Record<CompareReport['type'], Spec> = {
  finishedReport: {
    key: (r) => s(r._id),
    labels: [
      { id: 'klaster', header: L.klaster, value: (r) => s(r.klaster) },
      { id: 'ugovor', header: L.ugovor, value: (r) => s(r.ugovor) },
    ],
    values: [
      { id: 'zavrseno', header: L.zavrseno, value: (r) => s(r.zavrseno) },
      { id: 'uRoku', header: L.uRoku, value: (r) => s(r.uRoku) },
      { id: 'kasni', header: L.kasni, value: (r) => s(r.kasni) },
      { id: 'aktivnosti', header: L.aktivnosti, value: (r) => s(r.aktivnosti) },
    ],
  },
  summaryReport: {
    key: (r) => s(r.kratakNaziv),
    labels: [
      { id: 'kratakNaziv', header: L.kratakNaziv, value: (r) => s(r.kratakNaziv) },
      { id: 'naziv', header: L.naziv, value: (r) => s(r.naziv) },
    ],
    values: [{ id: 'count', header: L.count, value: (r) => s(r.count) }],
  },
  ijoTaxesReport: {
    key: (r) => `${s(r.klasterId)}|${s(r.imaocId)}`,
    labels: [
      { id: 'ugovor', header: L.ugovor, value: (r) => s(r.ugovor) },
      { id: 'klaster', header: L.klaster, value: (r) => s(r.klaster) },
      { id: 'imaoc', header: L.imaoc, value: (r) => s(r.imaoc) },
      { id: 'zaduzen', header: L.payer, value: (r) => s(r.zaduzen) },
    ],
    values: [
      { id: 'status', header: L.done, value: (r) => (r.status ? L.yes : L.no) },
      { id: 'taksa', header: L.taksa, value: (r) => formatRsd(typeof r.taksa === 'number' ? r.taksa : null) },
    ],
  },
};

export function compareTable(type: CompareReport['type'], a: CompareReport | null, b: CompareReport | null): CompareTable {
  const spec = SPECS[type];
  const rowsOf = (r: CompareReport | null) =>
    new Map((r?.rows ?? []).map((x) => [spec.key(x as never), x as unknown as Record<string, unknown>]));
  const ma = rowsOf(a);
  const mb = rowsOf(b);
  const keys = [...new Set([...ma.keys(), ...mb.keys()])];
  const lines = keys.map((key): CompareLine => {
    const ra = ma.get(key);
    const rb = mb.get(key);
    const label = spec.labels.map((c) => c.value((ra ?? rb) as Record<string, unknown>));
    const va = ra ? spec.values.map((c) => c.value(ra)) : null;
    const vb = rb ? spec.values.map((c) => c.value(rb)) : null;
    return { key, label, a: va, b: vb, diff: spec.values.map((_, i) => (va?.[i] ?? null) !== (vb?.[i] ?? null)) };
  });
  const collator = new Intl.Collator('sr-Latn');
  if (type !== 'summaryReport') lines.sort((x, y) => collator.compare(x.label.join(' '), y.label.join(' ')));
  return { labelHeaders: spec.labels.map((c) => c.header), valueHeaders: spec.values.map((c) => c.header), lines };
}

/** The comparison as xlsx (SheetJS, loaded only when asked for), named by the report and the dates. */
export async function exportCompareXlsx(table: CompareTable, reportName: string, dateA: string, dateB: string): Promise<void> {
  const XLSX = await import('@e965/xlsx');
  const da = formatDate(dateA);
  const db = formatDate(dateB);
  const header = [...table.labelHeaders, ...table.valueHeaders.flatMap((h) => [`${h} (${da})`, `${h} (${db})`]), L.changed];
  const rows = table.lines.map((l) => [
    ...l.label,
    ...table.valueHeaders.flatMap((_, i) => [l.a?.[i] ?? '', l.b?.[i] ?? '']),
    l.diff.some(Boolean) ? L.yes : L.no,
  ]);
  const cells = [header, ...rows].map((line) => line.map((c) => spreadsheetSafe(c)));
  const sheet = XLSX.utils.aoa_to_sheet(cells);
  const book = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(book, sheet, 'Поређење');
  const bytes = XLSX.write(book, { type: 'array', bookType: 'xlsx' }) as ArrayBuffer;
  const name = `${reportName} ${da} - ${db}.xlsx`.replace(/[\\/:*?"<>|]/g, '_');
  saveBlob(new Blob([bytes], { type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' }), name);
}
