import GridOnIcon from '@mui/icons-material/GridOn';
import MoreVertIcon from '@mui/icons-material/MoreVert';
import PictureAsPdfIcon from '@mui/icons-material/PictureAsPdf';
import SaveIcon from '@mui/icons-material/Save';
import SearchIcon from '@mui/icons-material/Search';
import { Alert, Box, Button, IconButton, InputAdornment, Popover, Stack, TextField, Tooltip, useMediaQuery } from '@mui/material';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type SavedTable, type SortOrder, transliterate } from '@trasa/domain';
import {
  MaterialReactTable,
  type MRT_ColumnDef,
  type MRT_ColumnOrderState,
  type MRT_PaginationState,
  type MRT_RowData,
  MRT_ShowHideColumnsButton,
  type MRT_SortingState,
  MRT_ToggleFullScreenButton,
  type MRT_VisibilityState,
  useMaterialReactTable,
} from 'material-react-table';
import { type KeyboardEvent, type ReactNode, useEffect, useId, useMemo, useRef, useState } from 'react';
import { saveColumns } from '../api/account';
import { downloadExport, EXPORT_FETCH_LIMIT, type ExportFormat, type ExportTarget, exportTargetOf, saveRowsAsJson } from '../api/exports';
import type { SearchText } from '../api/users';
import { ACCOUNT, COMMON, USERS } from '../messages';
import { PROFILE_KEY, useCurrentUser } from '../shell/session';
import { UI } from '../texts';
import { useSnackbar } from './SnackbarProvider';
import { SHARED } from './sharedTexts';
import { TABLE_TEXTS } from './tableTexts';
import { useDebouncedValue } from './useDebouncedValue';
import { useMinimumDuration } from './useMinimumDuration';

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

export type DataTableProps<T extends MRT_RowData & { _id: string }> = {
  /** Stable name the column layout is saved under (imeTabele); one per list. */
  tableName: string;
  /** The table's accessible name. */
  label: string;
  columns: MRT_ColumnDef<T>[];
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
  /** Width of the actions column (default 120 px). */
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

const DEFAULT_PAGE_SIZES = [10, 25, 50] as const;
const NO_SORTS: readonly string[] = [];
const EXPORT_LABELS: Record<ExportFormat, string> = { xlsx: 'Извоз у Excel', pdf: 'Извоз у PDF' };
export const SEARCH_DEBOUNCE_MS = 1000;
/** The list loader shows at least this long (spec 1 §8). */
export const LOADER_MIN_MS = 400;

type SavedLayout = { columnVisibility: MRT_VisibilityState; columnOrder: MRT_ColumnOrderState };

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The layout saved in my-profile's `tabela`, limited to the columns the list has now. */
function savedLayout(tables: readonly SavedTable[], tableName: string, columnIds: readonly string[]): Partial<SavedLayout> {
  const saved = tables.find((t) => t.imeTabele === tableName)?.tabela;
  if (!isRecord(saved)) return {};
  const layout: Partial<SavedLayout> = {};
  if (isRecord(saved.columnVisibility)) {
    const visibility: MRT_VisibilityState = {};
    for (const [id, shown] of Object.entries(saved.columnVisibility)) {
      if (columnIds.includes(id) && typeof shown === 'boolean') visibility[id] = shown;
    }
    layout.columnVisibility = visibility;
  }
  if (Array.isArray(saved.columnOrder)) {
    const order = saved.columnOrder.filter((id): id is string => typeof id === 'string' && columnIds.includes(id));
    // Columns added since the layout was saved go to the end; MRT adds its own (actions) columns.
    if (order.length > 0) layout.columnOrder = [...order, ...columnIds.filter((id) => !order.includes(id))];
  }
  return layout;
}

type ListState = { pageIndex: number; pageSize: number; search: string; sorting: MRT_SortingState };

/** Page, page size and search text live in session storage (spec 1 §3 "Session"): back from a detail, the list is where it was. */
function sizeOf(option: PageSizeOption): number {
  return typeof option === 'number' ? option : option.value;
}

function readListState(key: string, pageSizes: readonly number[], sortable: readonly string[]): ListState {
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

function writeListState(key: string, state: ListState): void {
  try {
    sessionStorage.setItem(key, JSON.stringify(state));
  } catch {
    // Storage full or disabled: the list simply starts on its first page next time.
  }
}

function columnIdOf<T extends MRT_RowData>(column: MRT_ColumnDef<T>): string {
  return column.id ?? String(column.accessorKey ?? column.header);
}

/**
 * Columns size to their content (issue 13 item 9): a header wraps between its words, and its column is
 * never narrower than the longest word plus the sort arrow and the drag handle, so no header is cut
 * ('Кратак на…'). About 9 px a letter of the bold 14 px header font.
 */
export function headerMinSize(header: string, sortable: boolean): number {
  const longestWord = Math.max(0, ...header.split(/\s+/).map((w) => w.length));
  return Math.ceil(longestWord * 9 + (sortable ? 28 : 0) + 48);
}

/** Headers wrap between words; a column's sort arrows show before it is sorted too (MRT dims them to 0.3). */
const WRAPPING_HEADER = {
  '& .Mui-TableHeadCell-Content-Wrapper': { whiteSpace: 'normal', overflowWrap: 'normal' },
  '&[aria-sort="none"] .MuiTableSortLabel-root': { opacity: 0.65 },
} as const;

function stopPropagation(event: { stopPropagation: () => void }) {
  event.stopPropagation();
}

/** Phones (issue 13 item 5): a list shows this many columns, its first ones; the others stay a tap away. */
export const PHONE_COLUMNS = 2;
const PHONE_QUERY = '(max-width:599.95px)';
const PHONE_CELL = { width: 'auto !important', minWidth: '0 !important', maxWidth: 'none !important' } as const;

/** A row's buttons behind one 'Акције реда' button on phones, so they are reachable without scrolling sideways. */
function RowActionsMenu({ label, children }: { label: string; children: ReactNode }) {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const id = useId();
  return (
    <>
      <IconButton
        aria-label={label}
        aria-haspopup="true"
        aria-expanded={!!anchor}
        aria-controls={anchor ? id : undefined}
        onClick={(e) => setAnchor(e.currentTarget)}
      >
        <MoreVertIcon />
      </IconButton>
      <Popover
        id={id}
        open={!!anchor}
        anchorEl={anchor}
        onClose={() => setAnchor(null)}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
        transformOrigin={{ vertical: 'top', horizontal: 'right' }}
        slotProps={{ paper: { role: 'group', 'aria-label': label } }}
      >
        {/* A button that opens a dialog or leaves the page closes the menu with it. */}
        <Box sx={{ display: 'flex', gap: 0.5, p: 0.5 }} onClick={() => setAnchor(null)}>
          {children}
        </Box>
      </Popover>
    </>
  );
}

/**
 * The one list component (architecture: tables): server paging (UI page 0-based, API page + 1),
 * a debounced search box sending eng + srb, a loader of at least 400 ms, 'Greška pri preuzimanju
 * podataka' on failure, and a column layout (visibility, order) the user saves to their profile.
 */
export function DataTable<T extends MRT_RowData & { _id: string }>({
  tableName,
  label,
  columns,
  queryKey,
  fetchPage,
  pageSizes = DEFAULT_PAGE_SIZES,
  paging = true,
  searchable = false,
  searchDebounceMs = SEARCH_DEBOUNCE_MS,
  sortable = NO_SORTS,
  rowColor,
  onRowClick,
  renderRowActions,
  actionsWidth = 120,
  actionsHeader = UI.actions,
  toolbar,
  hiddenColumns,
  emptyText = COMMON.emptyTable,
  exportAs,
}: DataTableProps<T>) {
  const user = useCurrentUser();
  const snackbar = useSnackbar();
  const queryClient = useQueryClient();
  const storageKey = `tabela:${JSON.stringify(queryKey)}`;
  const [initial] = useState(() => readListState(storageKey, paging ? pageSizes.map(sizeOf) : pageSizes.slice(0, 1).map(sizeOf), sortable));
  const [pagination, setPagination] = useState<MRT_PaginationState>({ pageIndex: initial.pageIndex, pageSize: initial.pageSize });
  const [sorting, setSorting] = useState<MRT_SortingState>(initial.sorting);
  const sortedBy = sorting[0];
  const sort = sortedBy ? { sort: sortedBy.id, order: sortedBy.desc ? ('desc' as const) : ('asc' as const) } : {};
  const [searchInput, setSearchInput] = useState(searchable ? initial.search : '');
  const search = useDebouncedValue(searchInput.trim(), searchDebounceMs);

  useEffect(() => {
    writeListState(storageKey, { ...pagination, search: searchInput, sorting });
  }, [storageKey, pagination, searchInput, sorting]);

  const query = useQuery({
    queryKey: [...queryKey, { page: pagination.pageIndex + 1, limit: pagination.pageSize, search, ...sort }],
    queryFn: ({ signal }) =>
      fetchPage({
        page: pagination.pageIndex + 1,
        limit: pagination.pageSize,
        search: search ? { eng: search, srb: transliterate(search) } : null,
        signal,
        ...sort,
      }),
    placeholderData: keepPreviousData,
    retry: false,
  });

  // errorUpdatedAt stays 0 until a load fails, then changes with every failure.
  const { errorUpdatedAt } = query;
  useEffect(() => {
    if (errorUpdatedAt > 0) snackbar.error(USERS.loadFailed);
  }, [errorUpdatedAt, snackbar]);

  const loading = useMinimumDuration(query.isFetching, LOADER_MIN_MS);
  // A failed load is never shown as an empty list (issue 13 item 7): the table shows the error and a retry.
  const failed = query.isError && !query.isFetching;
  const rows = failed ? [] : (query.data?.rows ?? []);
  const total = failed ? 0 : (query.data?.total ?? 0);

  const columnIds = useMemo(() => columns.map(columnIdOf), [columns]);
  /** Sorting only where the server sorts; every column at least as wide as its header's longest word. */
  const tableColumns = useMemo(
    () =>
      columns.map((c) => {
        const canSort = sortable.includes(columnIdOf(c));
        const minSize = Math.max(c.minSize ?? 60, headerMinSize(typeof c.header === 'string' ? c.header : '', canSort));
        return { ...c, enableSorting: canSort, minSize, size: Math.max(c.size ?? 130, minSize) };
      }),
    [columns, sortable],
  );
  const [layout] = useState(() => {
    const saved = savedLayout(user.tabela, tableName, columnIds);
    if (saved.columnVisibility || !hiddenColumns?.length) return saved;
    return { ...saved, columnVisibility: Object.fromEntries(hiddenColumns.map((id) => [id, false])) };
  });

  // Phones: the first columns only (the others through 'Прикажи/сакриј колоне'), restored on a wide screen.
  const phone = useMediaQuery(PHONE_QUERY, { noSsr: true });
  /** The row's name for its actions button: the first column's text. */
  const rowName = (row: T): string => {
    const first = columns[0];
    const value = first?.accessorFn ? first.accessorFn(row) : first?.accessorKey ? row[first.accessorKey as keyof T] : '';
    return typeof value === 'string' || typeof value === 'number' ? String(value) : '';
  };
  const wideVisibility = useRef<MRT_VisibilityState | null>(null);

  const exportTarget = exportAs === false ? null : (exportAs ?? exportTargetOf(tableName));
  const [exporting, setExporting] = useState(false);
  /** The server's file with the table's search; when that fails the list itself as JSON (spec 3 §8). */
  const runExport = async (format: ExportFormat) => {
    if (!exportTarget) return;
    setExporting(true);
    const searchText = search ? { eng: search, srb: transliterate(search) } : null;
    try {
      await downloadExport(exportTarget, format, searchText);
    } catch {
      try {
        const all = await fetchPage({ page: 1, limit: EXPORT_FETCH_LIMIT, search: searchText, signal: new AbortController().signal });
        saveRowsAsJson(exportTarget.list, all.rows);
      } catch {
        snackbar.error(USERS.loadFailed);
      }
    } finally {
      setExporting(false);
    }
  };

  const save = useMutation({
    mutationFn: saveColumns,
    onSuccess: async () => {
      snackbar.success(ACCOUNT.columnsSaved);
      await queryClient.invalidateQueries({ queryKey: PROFILE_KEY });
    },
    onError: () => snackbar.error(ACCOUNT.columnsFailed),
  });

  const localization = useMemo(
    () => ({
      ...TABLE_TEXTS,
      noRecordsToDisplay: emptyText,
      noResultsFound: emptyText,
      actions: UI.actions,
    }),
    [emptyText],
  );

  const table = useMaterialReactTable<T>({
    columns: tableColumns,
    data: rows,
    getRowId: (row) => row._id,
    localization,
    initialState: { density: 'compact', ...layout },
    state: { pagination, sorting, showLoadingOverlay: loading && rows.length > 0, isLoading: loading && rows.length === 0 },
    // Grid layout: columns share the width and shrink to their content's words; wide lists scroll inside the table.
    layoutMode: phone ? 'semantic' : 'grid',
    defaultColumn: { minSize: 60, size: 130, grow: true },
    // Phones: the shown columns share the screen's width, whatever sizes the list gives them.
    muiTableBodyCellProps: { sx: { whiteSpace: 'normal', overflowWrap: 'anywhere', ...(phone ? PHONE_CELL : {}) } },
    muiTableHeadCellProps: { sx: phone ? { ...WRAPPING_HEADER, ...PHONE_CELL } : WRAPPING_HEADER },
    manualPagination: true,
    enablePagination: paging,
    enableBottomToolbar: paging,
    rowCount: total,
    onPaginationChange: setPagination,
    muiPaginationProps: {
      rowsPerPageOptions: pageSizes.map((o) => (typeof o === 'number' ? { value: o, label: String(o) } : o)),
      showFirstButton: true,
      showLastButton: true,
      // The page-size select gets a name of its own (MRT names only its hidden input).
      SelectProps: { SelectDisplayProps: { 'aria-label': localization.rowsPerPage } },
    },
    enableColumnOrdering: true,
    enableHiding: true,
    // Server sorting (issue 13 item 9): one column at a time; a third click goes back to the list's own order.
    enableSorting: sortable.length > 0,
    manualSorting: true,
    enableMultiSort: false,
    sortDescFirst: false,
    onSortingChange: (updater) => {
      setSorting(updater);
      setPagination((p) => ({ ...p, pageIndex: 0 }));
    },
    enableColumnFilters: false,
    enableGlobalFilter: false,
    enableColumnActions: false,
    enableDensityToggle: false,
    enableRowActions: !!renderRowActions,
    positionActionsColumn: 'last',
    renderRowActions: renderRowActions
      ? ({ row }) => (
          <Box sx={{ display: 'flex', gap: 0.5, flexWrap: 'nowrap' }} onClick={stopPropagation} onKeyDown={stopPropagation}>
            {phone ? (
              <RowActionsMenu label={`${SHARED.rowActions}: ${rowName(row.original)}`}>{renderRowActions(row.original)}</RowActionsMenu>
            ) : (
              renderRowActions(row.original)
            )}
          </Box>
        )
      : undefined,
    displayColumnDefOptions: { 'mrt-row-actions': { header: actionsHeader, size: phone ? 64 : actionsWidth, grow: false } },
    renderEmptyRowsFallback: failed
      ? () => (
          <Alert
            severity="error"
            sx={{ m: 2, alignItems: 'center' }}
            action={
              <Button color="inherit" variant="outlined" size="small" onClick={() => void query.refetch()}>
                {SHARED.retry}
              </Button>
            }
          >
            {USERS.loadFailed}
          </Alert>
        )
      : undefined,
    muiTableProps: { 'aria-label': label },
    muiTablePaperProps: { elevation: 1 },
    muiTableBodyRowProps: ({ row }) => {
      const color = rowColor?.(row.original);
      return {
        hover: !!onRowClick,
        tabIndex: onRowClick ? 0 : undefined,
        onClick: onRowClick ? () => onRowClick(row.original) : undefined,
        onKeyDown: onRowClick
          ? (e: KeyboardEvent<HTMLTableRowElement>) => {
              if (e.key === 'Enter' && e.target === e.currentTarget) onRowClick(row.original);
            }
          : undefined,
        sx: {
          cursor: onRowClick ? 'pointer' : undefined,
          // Fixed attachment lines a striped background up across the cells of the row.
          ...(color ? { '& > td': { background: color, backgroundAttachment: 'fixed' } } : {}),
        },
      };
    },
    renderTopToolbarCustomActions: () => (
      <Stack direction="row" spacing={1} alignItems="center" flexWrap="wrap" useFlexGap sx={{ p: 0.5, minWidth: 0, flex: '1 1 auto' }}>
        {toolbar}
        {searchable && (
          <TextField
            value={searchInput}
            onChange={(e) => {
              setSearchInput(e.target.value);
              setPagination((p) => ({ ...p, pageIndex: 0 }));
            }}
            placeholder={UI.search}
            type="search"
            sx={{ width: { xs: '100%', sm: 260 } }}
            slotProps={{
              htmlInput: { 'aria-label': UI.search },
              input: {
                startAdornment: (
                  <InputAdornment position="start">
                    <SearchIcon fontSize="small" />
                  </InputAdornment>
                ),
              },
            }}
          />
        )}
      </Stack>
    ),
    renderToolbarInternalActions: ({ table: t }) => (
      <Box sx={{ display: 'flex', alignItems: 'center' }}>
        {exportTarget &&
          (['xlsx', 'pdf'] as const).map((format) => (
            <Tooltip key={format} title={EXPORT_LABELS[format]}>
              <span>
                <IconButton aria-label={EXPORT_LABELS[format]} disabled={exporting} onClick={() => void runExport(format)}>
                  {format === 'xlsx' ? <GridOnIcon /> : <PictureAsPdfIcon />}
                </IconButton>
              </span>
            </Tooltip>
          ))}
        <MRT_ShowHideColumnsButton table={t} />
        <Tooltip title={UI.saveTableLayout}>
          <span>
            <IconButton
              aria-label={UI.saveTableLayout}
              disabled={save.isPending}
              onClick={() => {
                const { columnVisibility, columnOrder } = t.getState();
                save.mutate({
                  imeTabele: tableName,
                  tabela: { columnVisibility, columnOrder: columnOrder.filter((id) => columnIds.includes(id)) },
                  headers: columnIds,
                });
              }}
            >
              <SaveIcon />
            </IconButton>
          </span>
        </Tooltip>
        <MRT_ToggleFullScreenButton table={t} />
      </Box>
    ),
  });

  useEffect(() => {
    if (phone && !wideVisibility.current) {
      const now = table.getState().columnVisibility;
      wideVisibility.current = now;
      const order = table.getState().columnOrder.length > 0 ? table.getState().columnOrder : columnIds;
      const shown = order.filter((id) => columnIds.includes(id) && now[id] !== false).slice(0, PHONE_COLUMNS);
      table.setColumnVisibility({ ...now, ...Object.fromEntries(columnIds.map((id) => [id, shown.includes(id)])) });
    } else if (!phone && wideVisibility.current) {
      table.setColumnVisibility(wideVisibility.current);
      wideVisibility.current = null;
    }
  }, [phone, table, columnIds]);

  return <MaterialReactTable table={table} />;
}
