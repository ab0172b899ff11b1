import type { SortOrder } from '@trasa/domain';
import type { ReactNode } from 'react';
import type { ExportTarget } from '../../api/exports';
import type { SearchText } from '../../api/users';
import type { ColumnDef } from '../tableTypes';

/**
 * What a list asks the server for: `page` is the API's 1-based page; `search` is null without text;
 * `sort` and `order` the column the user sorted by (absent: the list's default order).
 */
export type TableQuery = {
  page: number;
  limit: number;
  search: SearchText | null;
  signal: AbortSignal;
  sort?: string | undefined;
  order?: SortOrder | undefined;
};
export type TablePage<T> = { rows: T[]; total: number };
/** A page size, or one with a label of its own (e.g. 'Све' for every row). */
export type PageSizeOption = number | { value: number; label: string };

export type DataTableProps<T extends { _id: string }> = {
  /** Stable name the column layout is saved under (imeTabele); one per list. */
  tableName: string;
  /** The table's accessible name. */
  label: string;
  columns: ColumnDef<T>[];
  /** Cache key of the list; mutations invalidate it (or a prefix of it). Page and search are appended. */
  queryKey: readonly unknown[];
  /** Loads one page; with search text it should call the /api/search/... endpoint. */
  fetchPage: (query: TableQuery) => Promise<TablePage<T>>;
  /** Page-size options; the first is the default (spec 1 §9: 10, 25, 50). */
  pageSizes?: readonly PageSizeOption[];
  /** false: one page of the first page size, without the paging controls (e.g. 50 activities). */
  paging?: boolean;
  /** Shows the search box 'Претрага...' (sends eng + srb, debounced, back to the first page). */
  searchable?: boolean;
  /** The search box's debounce (default SEARCH_DEBOUNCE_MS, 1 s; spec 3's inventory lists 2 s). */
  searchDebounceMs?: number;
  /**
   * Column ids the server sorts by (LIST_SORTS of @trasa/domain): their headers get sort arrows, and a
   * click sends `sort` and `order` with the list call (back to the first page). Others don't sort.
   */
  sortable?: readonly string[];
  /** A background per row (a colour or a CSS gradient), or undefined for none. */
  rowColor?: (row: T) => string | undefined;
  onRowClick?: (row: T) => void;
  /** Buttons of a row, in a last 'Акције' column; their clicks don't reach onRowClick. */
  renderRowActions?: (row: T) => ReactNode;
  /** The least width of the actions column on a wide screen (default 120 px); it grows with its buttons. */
  actionsWidth?: number;
  /** Header of the actions column (default 'Акције'). */
  actionsHeader?: string;
  /** Buttons left of the search box (e.g. 'Додај корисника'). */
  toolbar?: ReactNode;
  /** Columns hidden until the user shows them (a saved layout decides once there is one). */
  hiddenColumns?: readonly string[];
  /** The text of an empty list (default 'Нема пронађених података.'). */
  emptyText?: string;
  /**
   * The Excel and PDF export of the list (its filters in `params`); by default the list named after the
   * table (api/exports.ts), none for a table without one; false turns it off.
   */
  exportAs?: ExportTarget | false;
};

/** Which columns show (absent: shown), and their order (column ids; absent: the list's own). */
export type Visibility = Record<string, boolean>;
export type SavedLayout = { columnVisibility: Visibility; columnOrder: string[] };
export type Sorting = { id: string; desc: boolean }[];
