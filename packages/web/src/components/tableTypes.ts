import type { ComponentType } from 'react';

/**
 * A column of a DataTable (components/DataTable.tsx): what a cell shows and what its header says. Columns
 * size to their content (issue 13 item 9): there are no widths to give.
 */
export type ColumnDef<T> = {
  /** The column's id (saved layouts, `sortable`, `hiddenColumns`); `accessorKey` when absent. */
  id?: string;
  /** The row's field the cell shows. */
  accessorKey?: keyof T & string;
  /** What the cell shows (a string or a number; anything else shows empty unless `Cell` renders it). */
  accessorFn?: (row: T) => unknown;
  /** The header's text, also the column's name in 'Прикажи/сакриј колоне' and the sort buttons. */
  header: string;
  /** Renders the header instead of its text (e.g. a checkbox for the page's rows). */
  Header?: ComponentType<{ rows: readonly T[] }>;
  /** Renders the cell instead of the value (a component: hooks allowed). */
  Cell?: ComponentType<{ row: T }>;
  /**
   * false: the column cannot be hidden (a checkbox column): on phones it shows beside the first columns,
   * and the phone's detail lines go under a column of text instead.
   */
  enableHiding?: boolean;
  /**
   * Shown on phones: when some columns of a table say so, a phone shows those (in their order) instead of
   * the first PHONE_COLUMNS — for a table whose first columns do not tell its rows apart (the log's time
   * and user without the action; two activities 'A3' of different clusters).
   */
  phone?: boolean;
  /**
   * On a phone, where the column itself does not show, its header and value show as a line under the
   * row's first cell: what the row's colour also tells (a deadline, days left, a status) is never told by
   * colour alone (WCAG 1.4.1).
   */
  phoneDetail?: boolean;
  /** A number (a count, a length, money): right-aligned, header too, in figures of one width. */
  numeric?: boolean;
};

export function columnIdOf<T>(column: ColumnDef<T>): string {
  return column.id ?? column.accessorKey ?? column.header;
}

/** The cell's value as text: a string or number as it is, anything else empty. */
export function cellText<T>(column: ColumnDef<T>, row: T): string {
  const value = column.accessorFn ? column.accessorFn(row) : column.accessorKey ? row[column.accessorKey] : '';
  return typeof value === 'string' || typeof value === 'number' ? String(value) : '';
}

/**
 * A page size of 'Све' (every row): the server's largest page, MAX_LIMIT of the domain's schemas/common.
 * Repeated here because a list that imported it would load zod and the domain's schemas with its first
 * visit (issue 13 item 3); scripts/validation-setup.test.ts checks that the two agree.
 */
export const ALL_ROWS_LIMIT = 50_000;
