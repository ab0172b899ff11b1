import { getScript } from '../script';
import { fileNameOf, SCRIPT_HEADER } from './client';
import { getToken } from './token';
import type { SearchText } from './users';

/**
 * Exports of the lists (docs/api/exports.md): GET /api/export/{list}?format=xlsx|pdf with the table's
 * filters and search, generated and streamed by the server; when that fails, the list itself fetched
 * with limit=100000 is saved as a JSON file (spec 3 §8 "Export failure").
 */

export type ExportFormat = 'xlsx' | 'pdf';
export type ExportName =
  | 'users'
  | 'guests'
  | 'groups'
  | 'clusters'
  | 'settlements'
  | 'contract'
  | 'contractIzv'
  | 'contractPro'
  | 'contractNad'
  | 'topics'
  | 'notifications'
  | 'in-progress'
  | 'logs'
  | 'comments'
  | 'ijo'
  | 'roles'
  | 'priorities'
  | 'group-types'
  | 'report-finished'
  | 'report-summary'
  | 'report-activity'
  | 'report-ijo'
  | 'report-lengths'
  | 'report-compare'
  | 'inventory-contracts'
  | 'inv-types'
  | 'inventory'
  | 'inventory-all'
  | 'inventory-sum'
  | 'inventory-per-location'
  | 'school-notifications'
  | 'a13';

/** What a table exports: the list and the filters it shows beside the search (e.g. a topic status). */
export type ExportTarget = { list: ExportName; params?: Record<string, string | undefined> };

/** The export limit of the lists (spec 3 §9). */
export const EXPORT_FETCH_LIMIT = 100_000;

/** Tables whose list has no filter besides the search export by their name alone. */
const BY_TABLE: Record<string, ExportName> = {
  korisnici: 'users',
  gosti: 'guests',
  grupe: 'groups',
  klasteri: 'clusters',
  'klasteri-korisnika': 'clusters',
  naselja: 'settlements',
  'ugovori-contract': 'contract',
  'ugovori-contractIzv': 'contractIzv',
  'ugovori-contractPro': 'contractPro',
  'ugovori-contractNad': 'contractNad',
  obavestenja: 'notifications',
  komentari: 'comments',
  ijo: 'ijo',
  role: 'roles',
  prioriteti: 'priorities',
  'tipovi-grupa': 'group-types',
  'izvestaj-zavrsene': 'report-finished',
};

export function exportTargetOf(tableName: string): ExportTarget | null {
  const list = BY_TABLE[tableName];
  return list ? { list } : null;
}

/** The topics list searches with q and qAlt; the others with eng and srb. */
const SEARCH_NAMES: Partial<Record<ExportName, [string, string]>> = { topics: ['q', 'qAlt'] };

export function exportUrl(target: ExportTarget, format: ExportFormat, search: SearchText | null): string {
  const params = new URLSearchParams({ format });
  for (const [name, value] of Object.entries(target.params ?? {})) if (value) params.set(name, value);
  if (search) {
    const [eng, srb] = SEARCH_NAMES[target.list] ?? ['eng', 'srb'];
    params.set(eng, search.eng);
    params.set(srb, search.srb);
  }
  return `/api/export/${target.list}?${params}`;
}

/** Saves a blob under a name through a temporary link. */
export function saveBlob(blob: Blob, name: string): void {
  const href = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = href;
  link.download = name;
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(href), 10_000);
}

/** `<list>-YYYY-MM-DD-HHmm`, like the server's names (the time in Belgrade). */
export function timestampedName(list: string, extension: string, now = new Date()): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-GB', {
      timeZone: 'Europe/Belgrade',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    })
      .formatToParts(now)
      .map((p) => [p.type, p.value]),
  );
  return `${list}-${parts.year}-${parts.month}-${parts.day}-${parts.hour}${parts.minute}.${extension}`;
}

/** Downloads the server's file; throws when the call fails (the caller falls back to JSON). */
export async function downloadExport(target: ExportTarget, format: ExportFormat, search: SearchText | null): Promise<void> {
  const token = getToken();
  const response = await fetch(exportUrl(target, format, search), {
    headers: { [SCRIPT_HEADER]: getScript(), ...(token ? { Authorization: `Bearer ${token}` } : {}) },
    credentials: 'include',
  });
  if (!response.ok) throw new Error(`export failed: HTTP ${response.status}`);
  const blob = await response.blob();
  saveBlob(blob, fileNameOf(response.headers.get('content-disposition')) ?? timestampedName(target.list, format));
}

/** The fallback: the rows the list answers for limit=100000, saved as JSON. */
export function saveRowsAsJson(list: string, rows: unknown[]): void {
  saveBlob(new Blob([JSON.stringify(rows, null, 2)], { type: 'application/json' }), timestampedName(list, 'json'));
}
