import ArrowDownwardIcon from '@mui/icons-material/ArrowDownward';
import SwapVertIcon from '@mui/icons-material/SwapVert';
import { TableHead, TableRow } from '@mui/material';
import { PlainIcon } from '../PlainIcon';
import { TABLE_TEXTS } from '../tableTexts';
import type { ShownColumn } from './BodyRows';

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

/**
 * A header as it wraps: between words, but a one-letter word ('У року', 'С ПДВ') stays with the word after
 * it (Serbian typesetting; a column of short numbers showed 'У' above 'року').
 */
export function headerText(text: string): string {
  return text.replace(/(^|\s)(\p{L})\s+(?=\S)/gu, '$1$2\u00a0');
}

type SortingHeaderProps<T> = {
  shown: ShownColumn<T>[];
  /** The page's rows, for a column's own Header. */
  rows: T[];
  sortable: readonly string[];
  sortedBy: { id: string; desc: boolean } | undefined;
  onSort: (id: string) => void;
  /** Whether the table has the actions column, its header and its least width on a wide screen. */
  actions: boolean;
  actionsHeader: string;
  actionsWidth: number;
  phone: boolean;
};

/** The header row: each shown column's header, with its sort button where the server sorts by it, then the actions column's. */
export function SortingHeader<T>({
  shown,
  rows,
  sortable,
  sortedBy,
  onSort,
  actions,
  actionsHeader,
  actionsWidth,
  phone,
}: SortingHeaderProps<T>) {
  return (
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
              className={column.numeric ? 'dt-th dt-num' : 'dt-th'}
              aria-sort={canSort ? (direction === 'asc' ? 'ascending' : direction === 'desc' ? 'descending' : 'none') : undefined}
            >
              <div className="dt-th-inner">
                <div>{Header ? <Header rows={rows} /> : headerText(column.header)}</div>
                {canSort && <SortButton header={column.header} direction={direction} onClick={() => onSort(id)} />}
              </div>
            </th>
          );
        })}
        {actions && (
          <th scope="col" className="dt-th" style={phone ? undefined : { minWidth: actionsWidth }}>
            {actionsHeader}
          </th>
        )}
      </TableRow>
    </TableHead>
  );
}
