import { foldForSearch, IMPORTS } from '@trasa/domain';
import { badRequest } from '../../platform/errors.js';
import type { SheetRow } from '../../platform/spreadsheet.js';

/**
 * The columns of the import templates. A header is recognised in either script, with or without
 * diacritics, case and spacing: 'Назив насеља', 'naziv naselja' and 'NazivNaselja' are the same column.
 * Each column has the template's header (the first name) and the other names it is known by.
 */
export type Column = { key: string; names: readonly string[] };

/** Folds a header to compare: Latin, no diacritics, lower case, letters and digits only. */
export function foldHeader(text: string): string {
  return foldForSearch(text).replace(/[^a-z0-9]/g, '');
}

export const USER_COLUMNS = [
  { key: 'ime', names: ['Име', 'first name'] },
  { key: 'prezime', names: ['Презиме', 'last name', 'surname'] },
  { key: 'email', names: ['Имејл', 'email', 'e-mail', 'mejl', 'e-pošta', 'mail'] },
  { key: 'rola', names: ['Рола', 'uloga', 'role'] },
  { key: 'grupa', names: ['Група', 'group'] },
] as const satisfies readonly Column[];

export const SETTLEMENT_COLUMNS = [
  { key: 'id', names: ['ID насеља', 'id', 'šifra', 'šifra naselja'] },
  { key: 'naziv', names: ['Назив насеља', 'naziv', 'naselje'] },
  { key: 'maticniBroj', names: ['Матични број', 'matični broj naselja', 'mb'] },
  { key: 'opstina', names: ['Општина', 'opštine'] },
  { key: 'operator', names: ['Оператор', 'operater', 'operatori'] },
  { key: 'javniPoziv', names: ['Јавни позив'] },
  { key: 'brojDomacinstava', names: ['Број домаћинстава'] },
  { key: 'brojSkola', names: ['Број школа'] },
  { key: 'brojIndirektnoPokrivenihDomacinstava', names: ['Број индиректно покривених домаћинстава'] },
  { key: 'brojIndirektnoPokrivenihSkola', names: ['Број индиректно покривених школа'] },
] as const satisfies readonly Column[];

/** The clusters template: one row per settlement of a cluster; the cluster's own values may repeat. */
export const CLUSTER_COLUMNS = [
  { key: 'klaster', names: ['Кластер', 'naziv klastera', 'cluster'] },
  ...SETTLEMENT_COLUMNS,
  { key: 'usputno', names: ['Успутно насеље', 'usputno'] },
  { key: 'odgovoran', names: ['Одговорне групе', 'odgovorna grupa', 'odgovoran', 'odgovorni'] },
  { key: 'indikativnaDuzinaKlastera', names: ['Индикативна дужина кластера', 'indikativna dužina'] },
  { key: 'ugovorenaVrednostKlastera', names: ['Уговорена вредност кластера', 'ugovorena vrednost'] },
  { key: 'ugovor', names: ['Уговор'] },
] as const satisfies readonly Column[];

export type Keyed<C extends readonly Column[]> = Record<C[number]['key'], string>;

/** Column key by folded header, for one set of columns (the key itself is a name too). */
function lookup(columns: readonly Column[]): Map<string, string> {
  const byName = new Map<string, string>();
  for (const c of columns) for (const name of [c.key, ...c.names]) byName.set(foldHeader(name), c.key);
  return byName;
}

/**
 * Maps the rows' headers to column keys. The first row's headers decide (every row of a sheet has the
 * same keys); a required column missing is the whole file's error; unknown headers are ignored.
 */
export async function* keyedRows<C extends readonly Column[]>(
  rows: AsyncIterable<SheetRow>,
  columns: C,
  required: readonly C[number]['key'][],
): AsyncGenerator<{ row: number; values: Keyed<C> }> {
  const byName = lookup(columns);
  let mapping: [string, string][] | null = null;
  for await (const { row, values } of rows) {
    if (!mapping) {
      mapping = [];
      for (const header of Object.keys(values)) {
        const key = byName.get(foldHeader(header));
        if (key && !mapping.some(([, k]) => k === key)) mapping.push([header, key]);
      }
      for (const key of required) {
        if (!mapping.some(([, k]) => k === key)) {
          const column = columns.find((c) => c.key === key);
          throw badRequest(IMPORTS.missingColumn(column?.names[0] ?? key));
        }
      }
    }
    const out = Object.fromEntries(columns.map((c) => [c.key, ''])) as Keyed<C>;
    for (const [header, key] of mapping) (out as Record<string, string>)[key] = values[header] ?? '';
    yield { row, values: out };
  }
}

/** A yes/no cell: da/ne, yes/no, true/false, 1/0, x; empty is no; anything else null. */
export function yesNo(text: string): boolean | null {
  const t = foldHeader(text);
  if (t === '' || t === 'ne' || t === 'no' || t === 'false' || t === '0') return false;
  if (t === 'da' || t === 'yes' || t === 'true' || t === '1' || t === 'x') return true;
  return null;
}

/** The template's header row. */
export const headersOf = (columns: readonly Column[]): string[] => columns.map((c) => c.names[0] ?? c.key);
