import { type CompareReport, formatDate, formatRsd, spreadsheetSafe } from '@trasa/domain';
import { saveBlob } from '../../api/client';
import { inScript } from '../../script';
import { catalogueText } from '../../shipped';
import { REPORT_LABELS as L } from './labels';

/**
 * A comparison as a table: the rows of both dates matched by key, each value column once per date, and
 * whether the two differ (cell by cell). Used by the compare view and its xlsx export.
 */
export type CompareColumn = {
  id: string;
  header: string;
  value: (row: Record<string, unknown>) => string;
  /** A number column: its number in the xlsx (with `numFmt`), never the shown text. */
  number?: (row: Record<string, unknown>) => unknown;
  numFmt?: string;
};
/** `cellsA`/`cellsB`: the values as the xlsx writes them (numbers where the column has them). */
export type CompareLine = {
  key: string;
  label: string[];
  a: string[] | null;
  b: string[] | null;
  cellsA: (string | number)[] | null;
  cellsB: (string | number)[] | null;
  diff: boolean[];
};
export type CompareTable = { labelHeaders: string[]; valueHeaders: string[]; valueFormats: (string | undefined)[]; lines: CompareLine[] };

type Spec = { key: (r: Record<string, unknown>) => string; labels: CompareColumn[]; values: CompareColumn[] };
const s = (v: unknown) => (v === null || v === undefined ? '' : String(v));
const COUNT = '#,##0';
const MONEY = '#,##0.00';
/** A count column: shown as it comes, a number in the xlsx. */
const count = (id: string, header: string): CompareColumn => ({ id, header, value: (r) => s(r[id]), number: (r) => r[id], numFmt: COUNT });

const SPECS: Record<CompareReport['type'], Spec> = {
  finishedReport: {
    key: (r) => s(r._id),
    labels: [
      { id: 'klaster', header: L.klaster, value: (r) => s(r.klaster) },
      { id: 'ugovor', header: L.ugovor, value: (r) => s(r.ugovor) },
    ],
    values: [count('zavrseno', L.zavrseno), count('uRoku', L.uRoku), count('kasni', L.kasni), count('aktivnosti', L.aktivnosti)],
  },
  summaryReport: {
    key: (r) => s(r.kratakNaziv),
    labels: [
      { id: 'kratakNaziv', header: L.kratakNaziv, value: (r) => s(r.kratakNaziv) },
      { id: 'naziv', header: L.naziv, value: (r) => catalogueText(s(r.naziv)) },
    ],
    values: [count('count', L.count)],
  },
  ijoTaxesReport: {
    key: (r) => `${s(r.klasterId)}|${s(r.imaocId)}`,
    labels: [
      { id: 'ugovor', header: L.ugovor, value: (r) => s(r.ugovor) },
      { id: 'klaster', header: L.klaster, value: (r) => s(r.klaster) },
      { id: 'imaoc', header: L.imaoc, value: (r) => s(r.imaoc) },
      // The payer is one of the spec's two names ('Izvođač', 'Naručilac'), shown in the user's script.
      { id: 'zaduzen', header: L.payer, value: (r) => inScript(s(r.zaduzen)) },
    ],
    values: [
      { id: 'status', header: L.done, value: (r) => (r.status ? L.yes : L.no) },
      {
        id: 'taksa',
        header: L.taksa,
        value: (r) => formatRsd(typeof r.taksa === 'number' ? r.taksa : null),
        number: (r) => r.taksa,
        numFmt: MONEY,
      },
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
    const cellsOf = (r: Record<string, unknown> | undefined, shown: string[] | null) =>
      r && shown
        ? spec.values.map((c, i) => {
            const n = c.number?.(r);
            return typeof n === 'number' && Number.isFinite(n) ? n : (shown[i] ?? '');
          })
        : null;
    return {
      key,
      label,
      a: va,
      b: vb,
      cellsA: cellsOf(ra, va),
      cellsB: cellsOf(rb, vb),
      diff: spec.values.map((_, i) => (va?.[i] ?? null) !== (vb?.[i] ?? null)),
    };
  });
  const collator = new Intl.Collator('sr-Latn');
  if (type !== 'summaryReport') lines.sort((x, y) => collator.compare(x.label.join(' '), y.label.join(' ')));
  return {
    labelHeaders: spec.labels.map((c) => c.header),
    valueHeaders: spec.values.map((c) => c.header),
    valueFormats: spec.values.map((c) => c.numFmt),
    lines,
  };
}

/**
 * The comparison's sheet: texts made formula-safe, counts and taxes as numbers with their number format
 * ('#,##0', '#,##0.00'), never as text.
 */
export function compareSheet(XLSX: typeof import('@e965/xlsx'), table: CompareTable, dateA: string, dateB: string) {
  const da = formatDate(dateA);
  const db = formatDate(dateB);
  const header = [...table.labelHeaders, ...table.valueHeaders.flatMap((h) => [`${h} (${da})`, `${h} (${db})`]), L.changed];
  const rows = table.lines.map((l) => [
    ...l.label,
    ...table.valueHeaders.flatMap((_, i) => [l.cellsA?.[i] ?? '', l.cellsB?.[i] ?? '']),
    l.diff.some(Boolean) ? L.yes : L.no,
  ]);
  const cells = [header, ...rows].map((line) => line.map((c) => (typeof c === 'number' ? c : spreadsheetSafe(c))));
  const sheet = XLSX.utils.aoa_to_sheet(cells);
  const first = table.labelHeaders.length;
  rows.forEach((_, r) => {
    table.valueFormats.forEach((numFmt, i) => {
      if (!numFmt) return;
      for (const c of [first + 2 * i, first + 2 * i + 1]) {
        const cell = sheet[XLSX.utils.encode_cell({ r: r + 1, c })];
        if (cell?.t === 'n') cell.z = numFmt;
      }
    });
  });
  return sheet;
}

/** The comparison as xlsx (SheetJS, loaded only when asked for), named by the report and the dates. */
export async function exportCompareXlsx(table: CompareTable, reportName: string, dateA: string, dateB: string): Promise<void> {
  const XLSX = await import('@e965/xlsx');
  const da = formatDate(dateA);
  const db = formatDate(dateB);
  const sheet = compareSheet(XLSX, table, dateA, dateB);
  const book = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(book, sheet, 'Поређење');
  const bytes = XLSX.write(book, { type: 'array', bookType: 'xlsx' }) as ArrayBuffer;
  const name = `${reportName} ${da} - ${db}.xlsx`.replace(/[\\/:*?"<>|]/g, '_');
  saveBlob(new Blob([bytes], { type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' }), name);
}
