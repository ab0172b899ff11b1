/**
 * The lists' table: the composing component and its parts live in DataTable/ (the body's rows, the
 * sorting header, the pager, the column chooser, the phones' row menu, the search box, the toolbar's
 * buttons); this module is its public import path.
 */

export { PHONE_COLUMNS } from './DataTable/columnLayout';
export { DataTable, LOADER_MIN_MS, SEARCH_DEBOUNCE_MS } from './DataTable/DataTable';
export type { DataTableProps, PageSizeOption, TablePage, TableQuery } from './DataTable/types';
export type { ColumnDef } from './tableTypes';
