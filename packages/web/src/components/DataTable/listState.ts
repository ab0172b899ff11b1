import type { SavedTable } from '@trasa/domain';
import type { PageSizeOption, SavedLayout, Sorting, Visibility } from './types';

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The layout saved in my-profile's `tabela`, limited to the columns the list has now. */
export function savedLayout(tables: readonly SavedTable[], tableName: string, columnIds: readonly string[]): Partial<SavedLayout> {
  const saved = tables.find((t) => t.imeTabele === tableName)?.tabela;
  if (!isRecord(saved)) return {};
  const layout: Partial<SavedLayout> = {};
  if (isRecord(saved.columnVisibility)) {
    const visibility: Visibility = {};
    for (const [id, shown] of Object.entries(saved.columnVisibility)) {
      if (columnIds.includes(id) && typeof shown === 'boolean') visibility[id] = shown;
    }
    layout.columnVisibility = visibility;
  }
  if (Array.isArray(saved.columnOrder)) {
    const order = saved.columnOrder.filter((id): id is string => typeof id === 'string' && columnIds.includes(id));
    // Columns added since the layout was saved go to the end.
    if (order.length > 0) layout.columnOrder = [...order, ...columnIds.filter((id) => !order.includes(id))];
  }
  return layout;
}

export type ListState = { pageIndex: number; pageSize: number; search: string; sorting: Sorting };

/** Page, page size and search text live in session storage (spec 1 §3 "Session"): back from a detail, the list is where it was. */
export function sizeOf(option: PageSizeOption): number {
  return typeof option === 'number' ? option : option.value;
}

export function readListState(key: string, pageSizes: readonly number[], sortable: readonly string[]): ListState {
  const fallback: ListState = { pageIndex: 0, pageSize: pageSizes[0] ?? 10, search: '', sorting: [] };
  try {
    const raw: unknown = JSON.parse(sessionStorage.getItem(key) ?? 'null');
    if (!isRecord(raw)) return fallback;
    const pageIndex = typeof raw.pageIndex === 'number' && raw.pageIndex >= 0 ? Math.floor(raw.pageIndex) : 0;
    const pageSize = typeof raw.pageSize === 'number' && pageSizes.includes(raw.pageSize) ? raw.pageSize : fallback.pageSize;
    const search = typeof raw.search === 'string' ? raw.search : '';
    const sort = Array.isArray(raw.sorting) && isRecord(raw.sorting[0]) ? raw.sorting[0] : null;
    const sorting = sort && typeof sort.id === 'string' && sortable.includes(sort.id) ? [{ id: sort.id, desc: sort.desc === true }] : [];
    return { pageIndex, pageSize, search, sorting };
  } catch {
    return fallback;
  }
}

export function writeListState(key: string, state: ListState): void {
  try {
    sessionStorage.setItem(key, JSON.stringify(state));
  } catch {
    // Storage full or disabled: the list simply starts on its first page next time.
  }
}
