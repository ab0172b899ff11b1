import FullscreenIcon from '@mui/icons-material/Fullscreen';
import FullscreenExitIcon from '@mui/icons-material/FullscreenExit';
import { Box, CircularProgress, Paper, Stack, Table, TableBody, TableContainer } from '@mui/material';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { transliterate } from '@trasa/domain';
import { useCallback, useDeferredValue, useEffect, useMemo, useRef, useState } from 'react';
import { COMMON, USERS } from '../../messages';
import { isNetworkError } from '../../offline/network';
import { OFFLINE } from '../../offline/texts';
import { UI } from '../../texts';
import { useFirstContentMark } from '../firstContent';
import { useSnackbar } from '../SnackbarProvider';
import { TABLE_TEXTS } from '../tableTexts';
import { useDebouncedValue } from '../useDebouncedValue';
import '../dataTable.css';
import { useMinimumDuration } from '../useMinimumDuration';
import { BodyContent } from './BodyRows';
import { ColumnsChoice } from './ColumnsChoice';
import { useColumnLayout } from './columnLayout';
import { readListState, sizeOf, writeListState } from './listState';
import { focusIsFree, forgetOpenedRow, openedRowOf, rememberOpenedRow } from './openedRow';
import { lastPageIndex, Pager } from './Pager';
import { ToolButton } from './PopoverButton';
import { SearchBox } from './SearchBox';
import { SortingHeader } from './SortingHeader';
import { ExportButtons, SaveLayoutButton } from './TableTools';
import type { DataTableProps, Sorting } from './types';

const DEFAULT_PAGE_SIZES = [10, 25, 50] as const;
const NO_SORTS: readonly string[] = [];
export const SEARCH_DEBOUNCE_MS = 1000;
/** The list loader shows at least this long (spec 1 §8). */
export const LOADER_MIN_MS = 400;

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
  const snackbar = useSnackbar();
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

  // errorUpdatedAt stays 0 until a load fails, then changes with every failure. A page the network could not
  // answer and the device keeps no copy of says that it is not available offline.
  const { errorUpdatedAt } = query;
  const failText = isNetworkError(query.error) ? OFFLINE.notKept : USERS.loadFailed;
  useEffect(() => {
    if (errorUpdatedAt > 0) snackbar.error(failText);
  }, [errorUpdatedAt, failText, snackbar]);

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
  // The screen's real content is there: the first rows, or the empty list's text once the loader is gone.
  useFirstContentMark(rows.length > 0 || (data !== undefined && !loading && !failed));
  // A page past the end comes back empty with the real total (its last rows deleted, a page kept from an
  // earlier visit, or a total that was an estimate: the log's search of a frequent word): the table goes
  // to the last page there is instead of showing an empty one.
  const settled = query.isSuccess && !query.isFetching && !query.isPlaceholderData ? query.data : undefined;
  useEffect(() => {
    if (!settled || settled.rows.length > 0 || settled.total <= 0) return;
    const lastPage = lastPageIndex(settled.total, pagination.pageSize);
    if (pagination.pageIndex > lastPage) setPagination((p) => ({ ...p, pageIndex: lastPage }));
  }, [settled, pagination.pageIndex, pagination.pageSize]);

  const { columnIds, visibility, setVisibility, setOrder, ordered, shown, phone } = useColumnLayout(columns, tableName, hiddenColumns);
  // A phone's detail lines: the columns marked for them that the phone does not show.
  const details = useMemo(
    () => (phone ? ordered.filter((c) => c.column.phoneDetail && !shown.includes(c)).map((c) => c.column) : []),
    [phone, ordered, shown],
  );

  // Back from a row's page, focus returns to that row once it is shown (and nothing else took focus).
  const tableRef = useRef<HTMLTableElement>(null);
  const [returnTo] = useState(() => openedRowOf(storageKey));
  const returned = useRef(false);
  useEffect(() => {
    if (!returnTo || returned.current || !rows.some((r) => r._id === returnTo)) return;
    returned.current = true;
    forgetOpenedRow(storageKey);
    if (!focusIsFree()) return;
    const row = [...(tableRef.current?.querySelectorAll<HTMLElement>('tr[data-row]') ?? [])].find((tr) => tr.dataset.row === returnTo);
    row?.focus();
  }, [rows, returnTo, storageKey]);
  const openRow = useMemo(
    () =>
      onRowClick &&
      ((row: T) => {
        rememberOpenedRow(storageKey, row._id);
        onRowClick(row);
      }),
    [onRowClick, storageKey],
  );

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
          <ExportButtons tableName={tableName} exportAs={exportAs} search={search} fetchPage={fetchPage} />
          <ColumnsChoice
            columns={choiceColumns}
            visibility={visibility}
            onVisibility={setVisibility}
            onOrder={setOrder}
            reordered={ordered.some((c, i) => c.id !== columnIds[i])}
          />
          <SaveLayoutButton tableName={tableName} visibility={visibility} order={ordered.map((c) => c.id)} columnIds={columnIds} />
          <ToolButton
            label={TABLE_TEXTS.toggleFullScreen}
            onClick={() => setFullScreen((f) => !f)}
            icon={fullScreen ? FullscreenExitIcon : FullscreenIcon}
          />
        </Box>
      </Box>
      <TableContainer sx={{ position: 'relative' }}>
        <Table ref={tableRef} size="small" aria-label={label} aria-busy={loading}>
          <SortingHeader
            shown={shown}
            rows={rows}
            sortable={sortable}
            sortedBy={sortedBy}
            onSort={toggleSort}
            actions={!!renderRowActions}
            actionsHeader={actionsHeader}
            actionsWidth={actionsWidth}
            phone={phone}
          />
          <TableBody>
            <BodyContent
              rows={rows}
              shown={shown}
              nameColumn={columns[0]}
              rowColor={rowColor}
              onRowClick={openRow}
              renderRowActions={renderRowActions}
              phone={phone}
              details={details}
              failed={failed}
              failText={failText}
              loading={loading}
              emptyText={emptyText}
              width={width}
              onRetry={() => void query.refetch()}
            />
          </TableBody>
        </Table>
        {/* Over the page's rows while the next ones load, and in the hidden table's place on the first load. */}
        {loading && (rows.length > 0 || firstLoad) && (
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
      {/* A failed load shows its error and a retry, not a pager of '0-0 од 0'. */}
      {paging && !failed && (
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
