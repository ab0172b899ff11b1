import type { SvgIconComponent } from '@mui/icons-material';
import ArrowDownwardIcon from '@mui/icons-material/ArrowDownward';
import ArrowUpwardIcon from '@mui/icons-material/ArrowUpward';
import ChevronLeftIcon from '@mui/icons-material/ChevronLeft';
import ChevronRightIcon from '@mui/icons-material/ChevronRight';
import FirstPageIcon from '@mui/icons-material/FirstPage';
import FullscreenIcon from '@mui/icons-material/Fullscreen';
import FullscreenExitIcon from '@mui/icons-material/FullscreenExit';
import GridOnIcon from '@mui/icons-material/GridOn';
import LastPageIcon from '@mui/icons-material/LastPage';
import MoreVertIcon from '@mui/icons-material/MoreVert';
import PictureAsPdfIcon from '@mui/icons-material/PictureAsPdf';
import SaveIcon from '@mui/icons-material/Save';
import SearchIcon from '@mui/icons-material/Search';
import SwapVertIcon from '@mui/icons-material/SwapVert';
import ViewColumnIcon from '@mui/icons-material/ViewColumn';
import {
  Alert,
  Box,
  Button,
  Checkbox,
  CircularProgress,
  FormControlLabel,
  IconButton,
  InputAdornment,
  MenuItem,
  Paper,
  Popover,
  Select,
  Stack,
  type SxProps,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  TextField,
  type Theme,
  Typography,
  useMediaQuery,
} from '@mui/material';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type SavedTable, type SortOrder, transliterate } from '@trasa/domain';
import {
  type CSSProperties,
  type KeyboardEvent,
  memo,
  type ReactNode,
  useCallback,
  useDeferredValue,
  useEffect,
  useId,
  useMemo,
  useRef,
  useState,
} from 'react';
import { saveColumns } from '../api/account';
import { downloadExport, EXPORT_FETCH_LIMIT, type ExportFormat, type ExportTarget, exportTargetOf, saveRowsAsJson } from '../api/exports';
import type { SearchText } from '../api/users';
import { ACCOUNT, COMMON, USERS } from '../messages';
import { PROFILE_KEY, useCurrentUser } from '../session/currentUser';
import { UI } from '../texts';
import { PlainIcon } from './PlainIcon';
import { useSnackbar } from './SnackbarProvider';
import { SHARED } from './sharedTexts';
import { TABLE_TEXTS } from './tableTexts';
import { type ColumnDef, cellText, columnIdOf } from './tableTypes';
import { useDebouncedValue } from './useDebouncedValue';
import './dataTable.css';
import { useMinimumDuration } from './useMinimumDuration';

export type { ColumnDef } from './tableTypes';

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

const DEFAULT_PAGE_SIZES = [10, 25, 50] as const;
const NO_SORTS: readonly string[] = [];
const EXPORT_LABELS: Record<ExportFormat, string> = { xlsx: 'Извоз у Excel', pdf: 'Извоз у PDF' };
export const SEARCH_DEBOUNCE_MS = 1000;
/** The list loader shows at least this long (spec 1 §8). */
export const LOADER_MIN_MS = 400;

/** Which columns show (absent: shown), and their order (column ids; absent: the list's own). */
type Visibility = Record<string, boolean>;
type SavedLayout = { columnVisibility: Visibility; columnOrder: string[] };
type Sorting = { id: string; desc: boolean }[];

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The layout saved in my-profile's `tabela`, limited to the columns the list has now. */
function savedLayout(tables: readonly SavedTable[], tableName: string, columnIds: readonly string[]): Partial<SavedLayout> {
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

type ListState = { pageIndex: number; pageSize: number; search: string; sorting: Sorting };

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

function stopPropagation(event: { stopPropagation: () => void }) {
  event.stopPropagation();
}

/**
 * Phones (issue 13 item 5): a list shows this many columns, its first ones or those marked `phone`; the
 * others stay a tap away.
 */
export const PHONE_COLUMNS = 2;
const PHONE_QUERY = '(max-width:599.95px)';

type PopoverButtonProps = {
  /** The button's name, its tooltip (tip) and the panel's name. */
  label: string;
  icon: SvgIconComponent;
  /** dialog: a panel of controls; group: a few buttons (the panel closes when one of them is clicked). */
  kind: 'dialog' | 'group';
  /** Shows the button's name as a tooltip too. */
  tip?: boolean;
  paperSx?: SxProps<Theme>;
  children: ReactNode;
};

/**
 * An icon button that opens a panel under it (the column chooser, the phones' row menu): the button says
 * what it opens (aria-haspopup, aria-expanded, aria-controls), the panel is named after the button,
 * Escape or a click outside closes it and focus goes back to the button.
 */
function PopoverButton({ label, icon, kind, tip, paperSx, children }: PopoverButtonProps) {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const id = useId();
  const close = () => setAnchor(null);
  return (
    <>
      <button
        type="button"
        className="dt-action dt-tool"
        aria-label={label}
        data-tip={tip ? label : undefined}
        aria-haspopup={kind === 'dialog' ? 'dialog' : 'true'}
        aria-expanded={!!anchor}
        aria-controls={anchor ? id : undefined}
        onClick={(e) => setAnchor(e.currentTarget)}
      >
        <PlainIcon icon={icon} size="medium" />
      </button>
      <Popover
        id={id}
        open={!!anchor}
        anchorEl={anchor}
        onClose={close}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
        transformOrigin={{ vertical: 'top', horizontal: 'right' }}
        slotProps={{ paper: { role: kind, 'aria-label': label, sx: paperSx } }}
      >
        {kind === 'group' ? (
          // A button that opens a dialog or leaves the page closes the menu with it.
          <Box sx={{ display: 'flex', gap: 0.5, p: 0.5 }} onClick={close}>
            {children}
          </Box>
        ) : (
          children
        )}
      </Popover>
    </>
  );
}

/** A row's buttons behind one 'Акције реда' button on phones, so they are reachable without scrolling sideways. */
function RowActionsMenu({ label, children }: { label: string; children: ReactNode }) {
  return (
    <PopoverButton label={label} icon={MoreVertIcon} kind="group">
      {children}
    </PopoverButton>
  );
}

/**
 * An icon button with its name as a tooltip (the application's one tooltip, TipHost); the tooltip sits on
 * a wrapper, which keeps it for a disabled button too.
 */
function ToolButton({
  label,
  disabled,
  onClick,
  icon,
}: {
  label: string;
  disabled?: boolean;
  onClick: () => void;
  icon: SvgIconComponent;
}) {
  return (
    <span data-tip={label} className="dt-tip-wrap">
      <button type="button" className="dt-action dt-tool" aria-label={label} disabled={disabled} onClick={onClick}>
        <PlainIcon icon={icon} size="medium" />
      </button>
    </span>
  );
}

/**
 * A column's sort button (server sorting, one column at a time): ascending, descending, then the list's
 * own order again. Named as material-react-table named it ('Сортирај по Презиме растуће').
 */
function SortButton({ header, direction, onClick }: { header: string; direction: 'asc' | 'desc' | undefined; onClick: () => void }) {
  const label =
    direction === 'asc'
      ? TABLE_TEXTS.sortedByColumnAsc(header)
      : direction === 'desc'
        ? TABLE_TEXTS.sortedByColumnDesc(header)
        : TABLE_TEXTS.sortByColumnAsc(header);
  // MUI's TableSortLabel as a plain button (dataTable.css): the arrow points up going up, down going down.
  let className = 'dt-sort';
  if (direction) className += direction === 'asc' ? ' dt-sort-active dt-sort-asc' : ' dt-sort-active';
  return (
    <button type="button" className={className} aria-label={label} data-tip={label} data-tip-placement="top" onClick={onClick}>
      <PlainIcon icon={direction ? ArrowDownwardIcon : SwapVertIcon} size="sort" />
    </button>
  );
}

type ColumnsChoiceProps = {
  columns: readonly { id: string; header: string; canHide: boolean }[];
  visibility: Visibility;
  onVisibility: (next: Visibility) => void;
  onOrder: (next: string[] | null) => void;
  reordered: boolean;
};

/**
 * 'Прикажи/сакриј колоне': a checkbox per column in the table's order, buttons that move a column up or
 * down the order (left or right in the table), 'Прикажи све', 'Сакриј све' and 'Ресетуј поредак'. Every
 * control is a plain button or checkbox, reached by Tab; Escape closes the panel.
 */
const ColumnsChoice = memo(function ColumnsChoice({ columns, visibility, onVisibility, onOrder, reordered }: ColumnsChoiceProps) {
  const ids = columns.map((c) => c.id);
  const setAll = (shown: boolean) =>
    onVisibility({ ...visibility, ...Object.fromEntries(columns.filter((c) => c.canHide).map((c) => [c.id, shown])) });
  const move = (index: number, by: -1 | 1) => {
    const next = [...ids];
    const [moved] = next.splice(index, 1);
    if (moved === undefined) return;
    next.splice(index + by, 0, moved);
    onOrder(next);
  };
  return (
    <PopoverButton
      label={TABLE_TEXTS.showHideColumns}
      icon={ViewColumnIcon}
      kind="dialog"
      tip
      paperSx={{ p: 1, maxWidth: 'calc(100vw - 16px)' }}
    >
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.5, pb: 0.5 }}>
        <Button size="small" disabled={columns.every((c) => visibility[c.id] === false || !c.canHide)} onClick={() => setAll(false)}>
          {TABLE_TEXTS.hideAll}
        </Button>
        <Button size="small" disabled={!reordered} onClick={() => onOrder(null)}>
          {TABLE_TEXTS.resetOrder}
        </Button>
        <Button size="small" disabled={columns.every((c) => visibility[c.id] !== false)} onClick={() => setAll(true)}>
          {TABLE_TEXTS.showAll}
        </Button>
      </Box>
      <Box component="ul" sx={{ listStyle: 'none', m: 0, p: 0 }}>
        {columns.map((c, index) => (
          <Box component="li" key={c.id} sx={{ display: 'flex', alignItems: 'center', gap: 0.5 }}>
            <IconButton
              size="small"
              aria-label={`${TABLE_TEXTS.moveUp}: ${c.header}`}
              disabled={index === 0}
              onClick={() => move(index, -1)}
            >
              <ArrowUpwardIcon fontSize="small" />
            </IconButton>
            <IconButton
              size="small"
              aria-label={`${TABLE_TEXTS.moveDown}: ${c.header}`}
              disabled={index === columns.length - 1}
              onClick={() => move(index, 1)}
            >
              <ArrowDownwardIcon fontSize="small" />
            </IconButton>
            <FormControlLabel
              sx={{ ml: 0.5, mr: 1, flex: '1 1 auto' }}
              label={c.header}
              control={
                <Checkbox
                  size="small"
                  checked={visibility[c.id] !== false}
                  disabled={!c.canHide}
                  onChange={(e) => onVisibility({ ...visibility, [c.id]: e.target.checked })}
                />
              }
            />
          </Box>
        ))}
      </Box>
    </PopoverButton>
  );
});

let pagerFormat: Intl.NumberFormat | undefined;

/**
 * The pager's numbers as `toLocaleString(TABLE_TEXTS.language)` writes them. Below 1,000 a whole number is
 * its digits in any case: written without Intl, whose Serbian data took ~12 ms to load in a list's first
 * commit (issue 13 item 3); larger ones through one formatter made at their first use.
 */
function pagerNumber(n: number): string {
  if (Number.isInteger(n) && Math.abs(n) < 1000) return String(n);
  pagerFormat ??= new Intl.NumberFormat(TABLE_TEXTS.language);
  return pagerFormat.format(n);
}

type PagerProps = {
  pageIndex: number;
  pageSize: number;
  total: number;
  options: readonly PageSizeOption[];
  onPage: (pageIndex: number) => void;
  onPageSize: (pageSize: number) => void;
};

/** The index of the last page of `total` rows (0 when there are none). */
const lastPageIndex = (total: number, pageSize: number) => Math.max(0, Math.ceil(total / pageSize) - 1);

/** The page-size select ('Редова по страници'), '11-20 од 34' and the first/previous/next/last buttons. */
const Pager = memo(function Pager({ pageIndex, pageSize, total, options, onPage, onPageSize }: PagerProps) {
  const labelId = useId();
  const lastPage = lastPageIndex(total, pageSize);
  const first = pageIndex * pageSize + 1;
  const last = Math.min((pageIndex + 1) * pageSize, total);
  const back = pageIndex <= 0;
  const ahead = last >= total;
  return (
    <Box
      className="dt-pager"
      sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', justifyContent: 'flex-end', gap: 1, px: 1, py: 1 }}
    >
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
        <Typography id={labelId} component="span" variant="body2">
          {TABLE_TEXTS.rowsPerPage}
        </Typography>
        <Select
          labelId={labelId}
          variant="standard"
          disableUnderline
          value={pageSize}
          onChange={(e) => onPageSize(Number(e.target.value))}
          MenuProps={{ disableScrollLock: true }}
        >
          {options.map((option) => {
            const value = sizeOf(option);
            return (
              <MenuItem key={value} value={value}>
                {typeof option === 'number' ? String(option) : option.label}
              </MenuItem>
            );
          })}
        </Select>
      </Box>
      <Typography component="span" variant="body2" sx={{ mx: 0.5, minWidth: '8ch', textAlign: 'center' }}>
        {`${last === 0 ? 0 : pagerNumber(first)}-${pagerNumber(last)} ${TABLE_TEXTS.of} ${pagerNumber(total)}`}
      </Typography>
      <Box sx={{ display: 'flex' }}>
        <ToolButton label={TABLE_TEXTS.goToFirstPage} disabled={back} onClick={() => onPage(0)} icon={FirstPageIcon} />
        <ToolButton label={TABLE_TEXTS.goToPreviousPage} disabled={back} onClick={() => onPage(pageIndex - 1)} icon={ChevronLeftIcon} />
        <ToolButton label={TABLE_TEXTS.goToNextPage} disabled={ahead} onClick={() => onPage(pageIndex + 1)} icon={ChevronRightIcon} />
        <ToolButton label={TABLE_TEXTS.goToLastPage} disabled={ahead} onClick={() => onPage(lastPage)} icon={LastPageIcon} />
      </Box>
    </Box>
  );
});

/** 'Претрага...': memoised, the list's loader does not render it again. */
const SearchBox = memo(function SearchBox({ value, onChange }: { value: string; onChange: (text: string) => void }) {
  return (
    <TextField
      value={value}
      onChange={(e) => onChange(e.target.value)}
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
  );
});

type ShownColumn<T> = { id: string; column: ColumnDef<T> };
type BodyRowsProps<T> = {
  rows: T[];
  shown: ShownColumn<T>[];
  /** The row's name for its phone menu: the first column's text. */
  nameColumn: ColumnDef<T> | undefined;
  rowColor: ((row: T) => string | undefined) | undefined;
  onRowClick: ((row: T) => void) | undefined;
  renderRowActions: ((row: T) => ReactNode) | undefined;
  phone: boolean;
};

/**
 * The page's rows as plain `<tr>`/`<td>` styled once (dataTable.css), not an MUI TableRow and TableCell
 * each; memoised, so the list's own state (the loader, the search box, the pager) does not render them
 * again (issue 13 item 3: the rows were most of a list's first render).
 */
const BodyRows = memo(function BodyRows<T extends { _id: string }>({
  rows,
  shown,
  nameColumn,
  rowColor,
  onRowClick,
  renderRowActions,
  phone,
}: BodyRowsProps<T>) {
  return rows.map((row) => {
    const color = rowColor?.(row);
    let className = 'dt-row';
    if (onRowClick) className += ' dt-link';
    if (color) className += ' dt-colored';
    return (
      <tr
        key={row._id}
        className={className}
        style={color ? ({ '--dt-row-bg': color } as CSSProperties) : undefined}
        tabIndex={onRowClick ? 0 : undefined}
        onClick={onRowClick ? () => onRowClick(row) : undefined}
        onKeyDown={
          onRowClick
            ? (e: KeyboardEvent<HTMLTableRowElement>) => {
                if (e.key === 'Enter' && e.target === e.currentTarget) onRowClick(row);
              }
            : undefined
        }
      >
        {shown.map(({ id, column }) => {
          const Cell = column.Cell;
          return (
            <td key={id} className="dt-td">
              {Cell ? <Cell row={row} /> : cellText(column, row)}
            </td>
          );
        })}
        {renderRowActions && (
          // The buttons' clicks and keys don't reach the row.
          <td className="dt-td dt-td-actions" onClick={stopPropagation} onKeyDown={stopPropagation}>
            <div className="dt-actions">
              {phone ? (
                <RowActionsMenu label={`${SHARED.rowActions}: ${nameColumn ? cellText(nameColumn, row) : ''}`}>
                  {renderRowActions(row)}
                </RowActionsMenu>
              ) : (
                renderRowActions(row)
              )}
            </div>
          </td>
        )}
      </tr>
    );
  });
}) as <T extends { _id: string }>(props: BodyRowsProps<T>) => ReactNode;

/**
 * The one list component (architecture: tables), MUI's table with our own toolbar and pager: server
 * paging (UI page 0-based, API page + 1) and sorting, a debounced search box sending eng + srb, a loader of
 * at least 400 ms, 'Greška pri preuzimanju podataka' with a retry on failure, and a column layout
 * (visibility, order) the user saves to their profile.
 */
export function DataTable<T extends { _id: string }>({
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
  const [pagination, setPagination] = useState({ pageIndex: initial.pageIndex, pageSize: initial.pageSize });
  const [sorting, setSorting] = useState<Sorting>(initial.sorting);
  const sortedBy = sorting[0];
  const sort = sortedBy ? { sort: sortedBy.id, order: sortedBy.desc ? ('desc' as const) : ('asc' as const) } : {};
  const [searchInput, setSearchInput] = useState(searchable ? initial.search : '');
  const search = useDebouncedValue(searchInput.trim(), searchDebounceMs);
  const [fullScreen, setFullScreen] = useState(false);

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

  // A page that arrives renders its rows in a deferred, non-urgent pass (issue 13 item 3): React Query's
  // store update would otherwise render the whole page of rows in one long task; React yields to the
  // browser every few milliseconds in a deferred pass. The table stays busy until its rows are shown.
  const data = useDeferredValue(query.data);
  const loading = useMinimumDuration(query.isFetching, LOADER_MIN_MS) || data !== query.data;
  // A failed load is never shown as an empty list (issue 13 item 7): the table shows the error and a retry.
  const failed = query.isError && !query.isFetching;
  const rows = failed ? [] : (data?.rows ?? []);
  // Until the first page is shown, the pager and what follows the table on the screen (a colour legend)
  // stay hidden (dataTable.css): they appear where the rows leave them, instead of being pushed down by
  // the rows (Lighthouse's layout shift, issue 13 item 3).
  const firstLoad = data === undefined && !failed;
  const total = failed ? 0 : (data?.total ?? 0);
  // A page past the end comes back empty with the real total (its last rows deleted, a page kept from an
  // earlier visit, or a total that was an estimate: the log's search of a frequent word): the table goes
  // to the last page there is instead of showing an empty one.
  const settled = query.isSuccess && !query.isFetching && !query.isPlaceholderData ? query.data : undefined;
  useEffect(() => {
    if (!settled || settled.rows.length > 0 || settled.total <= 0) return;
    const lastPage = lastPageIndex(settled.total, pagination.pageSize);
    if (pagination.pageIndex > lastPage) setPagination((p) => ({ ...p, pageIndex: lastPage }));
  }, [settled, pagination.pageIndex, pagination.pageSize]);

  const columnIds = useMemo(() => columns.map(columnIdOf), [columns]);
  const [layout] = useState(() => {
    const saved = savedLayout(user.tabela, tableName, columnIds);
    if (saved.columnVisibility || !hiddenColumns?.length) return saved;
    return { ...saved, columnVisibility: Object.fromEntries(hiddenColumns.map((id) => [id, false])) };
  });
  const [visibility, setVisibility] = useState<Visibility>(layout.columnVisibility ?? {});
  const [order, setOrder] = useState<string[] | null>(layout.columnOrder ?? null);
  /** The columns in the user's order; columns the order does not name follow in the list's order. */
  const ordered = useMemo(() => {
    const known = (order ?? []).filter((id) => columnIds.includes(id));
    const ids = [...known, ...columnIds.filter((id) => !known.includes(id))];
    return ids.flatMap((id) => {
      const column = columns.find((c) => columnIdOf(c) === id);
      return column ? [{ id, column }] : [];
    });
  }, [order, columns, columnIds]);
  const shown = useMemo(() => ordered.filter((c) => visibility[c.id] !== false), [ordered, visibility]);

  // Phones: the first columns only (the others through 'Прикажи/сакриј колоне'), restored on a wide screen.
  // A column that cannot be hidden (the Admin's checkbox column) stays and does not count among them, so the
  // logs and comments show two columns of text on a phone too.
  const phone = useMediaQuery(PHONE_QUERY, { noSsr: true });
  const wideVisibility = useRef<Visibility | null>(null);
  useEffect(() => {
    if (phone && !wideVisibility.current) {
      wideVisibility.current = visibility;
      const fixed = ordered.filter((c) => c.column.enableHiding === false).map((c) => c.id);
      const candidates = ordered.filter((c) => visibility[c.id] !== false && !fixed.includes(c.id));
      const marked = candidates.filter((c) => c.column.phone);
      const first = (marked.length ? marked : candidates).slice(0, PHONE_COLUMNS).map((c) => c.id);
      setVisibility({
        ...visibility,
        ...Object.fromEntries(ordered.map((c) => [c.id, fixed.includes(c.id) || first.includes(c.id)])),
      });
    } else if (!phone && wideVisibility.current) {
      setVisibility(wideVisibility.current);
      wideVisibility.current = null;
    }
  }, [phone, visibility, ordered]);

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

  // Stable, so that the pager and the column chooser (memoised) skip the list's other renders (the loader's).
  const onPage = useCallback((pageIndex: number) => setPagination((p) => ({ ...p, pageIndex })), []);
  const onPageSize = useCallback((pageSize: number) => setPagination({ pageIndex: 0, pageSize }), []);
  const choiceColumns = useMemo(
    () => ordered.map(({ id, column }) => ({ id, header: column.header, canHide: column.enableHiding !== false })),
    [ordered],
  );
  const onSearch = useCallback((text: string) => {
    setSearchInput(text);
    setPagination((p) => ({ ...p, pageIndex: 0 }));
  }, []);

  const toggleSort = (id: string) => {
    setSorting(([current]) => {
      if (current?.id !== id) return [{ id, desc: false }];
      return current.desc ? [] : [{ id, desc: true }];
    });
    setPagination((p) => ({ ...p, pageIndex: 0 }));
  };

  const width = shown.length + (renderRowActions ? 1 : 0);
  // A message in place of rows (loading, empty, failed) is marked, so that it is never counted as a row.
  const bodyMessage = (content: ReactNode) => (
    <TableRow className="dt-message">
      <TableCell colSpan={width} sx={{ textAlign: 'center', py: 3, color: 'text.secondary' }}>
        {content}
      </TableCell>
    </TableRow>
  );
  let body: ReactNode;
  if (rows.length > 0) {
    body = (
      <BodyRows
        rows={rows}
        shown={shown}
        nameColumn={columns[0]}
        rowColor={rowColor}
        onRowClick={onRowClick}
        renderRowActions={renderRowActions}
        phone={phone}
      />
    );
  } else if (failed) {
    body = (
      <TableRow className="dt-message">
        <TableCell colSpan={width}>
          <Alert
            severity="error"
            sx={{ m: 1, alignItems: 'center' }}
            action={
              <Button color="inherit" variant="outlined" size="small" onClick={() => void query.refetch()}>
                {SHARED.retry}
              </Button>
            }
          >
            {USERS.loadFailed}
          </Alert>
        </TableCell>
      </TableRow>
    );
  } else if (loading) {
    body = bodyMessage(<CircularProgress size={28} aria-label={UI.loading} />);
  } else {
    body = bodyMessage(emptyText);
  }

  return (
    <Paper
      elevation={1}
      className={firstLoad ? 'dt-first-load' : undefined}
      // Escape leaves the full screen (a dialog or menu above it closes first and keeps the key).
      onKeyDown={(e) => {
        if (fullScreen && e.key === 'Escape') setFullScreen(false);
      }}
      sx={
        fullScreen
          ? { position: 'fixed', inset: 0, zIndex: (theme) => theme.zIndex.appBar + 1, overflow: 'auto', borderRadius: 0 }
          : { minWidth: 0, maxWidth: '100%' }
      }
    >
      <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'flex-start', justifyContent: 'space-between', gap: 0.5, p: 0.5 }}>
        <Stack direction="row" spacing={1} alignItems="center" flexWrap="wrap" useFlexGap sx={{ p: 0.5, minWidth: 0, flex: '1 1 auto' }}>
          {toolbar}
          {searchable && <SearchBox value={searchInput} onChange={onSearch} />}
        </Stack>
        <Box sx={{ display: 'flex', alignItems: 'center', ml: 'auto' }}>
          {exportTarget &&
            (['xlsx', 'pdf'] as const).map((format) => (
              <ToolButton
                key={format}
                label={EXPORT_LABELS[format]}
                disabled={exporting}
                onClick={() => void runExport(format)}
                icon={format === 'xlsx' ? GridOnIcon : PictureAsPdfIcon}
              />
            ))}
          <ColumnsChoice
            columns={choiceColumns}
            visibility={visibility}
            onVisibility={setVisibility}
            onOrder={setOrder}
            reordered={ordered.some((c, i) => c.id !== columnIds[i])}
          />
          <ToolButton
            label={UI.saveTableLayout}
            disabled={save.isPending}
            onClick={() =>
              save.mutate({
                imeTabele: tableName,
                tabela: { columnVisibility: visibility, columnOrder: ordered.map((c) => c.id) },
                headers: columnIds,
              })
            }
            icon={SaveIcon}
          />
          <ToolButton
            label={TABLE_TEXTS.toggleFullScreen}
            onClick={() => setFullScreen((f) => !f)}
            icon={fullScreen ? FullscreenExitIcon : FullscreenIcon}
          />
        </Box>
      </Box>
      <TableContainer sx={{ position: 'relative' }}>
        <Table size="small" aria-label={label} aria-busy={loading}>
          <TableHead>
            <TableRow>
              {shown.map(({ id, column }) => {
                const canSort = sortable.includes(id);
                const direction = sortedBy?.id === id ? (sortedBy.desc ? 'desc' : 'asc') : undefined;
                const Header = column.Header;
                return (
                  <th
                    key={id}
                    scope="col"
                    className="dt-th"
                    aria-sort={canSort ? (direction === 'asc' ? 'ascending' : direction === 'desc' ? 'descending' : 'none') : undefined}
                  >
                    <div className="dt-th-inner">
                      <div>{Header ? <Header rows={rows} /> : column.header}</div>
                      {canSort && <SortButton header={column.header} direction={direction} onClick={() => toggleSort(id)} />}
                    </div>
                  </th>
                );
              })}
              {renderRowActions && (
                <th scope="col" className="dt-th" style={phone ? undefined : { minWidth: actionsWidth }}>
                  {actionsHeader}
                </th>
              )}
            </TableRow>
          </TableHead>
          <TableBody>{body}</TableBody>
        </Table>
        {loading && rows.length > 0 && (
          <Box
            sx={{
              position: 'absolute',
              inset: 0,
              display: 'flex',
              alignItems: 'center',
              justifyContent: 'center',
              bgcolor: 'rgba(255, 255, 255, 0.5)',
              zIndex: 3,
            }}
          >
            <CircularProgress aria-label={UI.loading} />
          </Box>
        )}
      </TableContainer>
      {paging && (
        <Pager
          pageIndex={pagination.pageIndex}
          pageSize={pagination.pageSize}
          total={total}
          options={pageSizes}
          onPage={onPage}
          onPageSize={onPageSize}
        />
      )}
    </Paper>
  );
}
