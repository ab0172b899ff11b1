import { Alert, Button, CircularProgress, TableCell, TableRow } from '@mui/material';
import { type CSSProperties, type KeyboardEvent, memo, type ReactNode } from 'react';
import { UI } from '../../texts';
import { SHARED } from '../sharedTexts';
import { type ColumnDef, cellText, columnIdOf } from '../tableTypes';
import { RowActionsMenu } from './RowActionsMenu';

function stopPropagation(event: { stopPropagation: () => void }) {
  event.stopPropagation();
}

export type ShownColumn<T> = { id: string; column: ColumnDef<T> };
type BodyRowsProps<T> = {
  rows: T[];
  shown: ShownColumn<T>[];
  /** The row's name for its phone menu: the first column's text. */
  nameColumn: ColumnDef<T> | undefined;
  rowColor: ((row: T) => string | undefined) | undefined;
  onRowClick: ((row: T) => void) | undefined;
  renderRowActions: ((row: T) => ReactNode) | undefined;
  phone: boolean;
  /** On a phone: the hidden columns shown as lines under the row's first text cell ('Статус: неактиван'). */
  details: readonly ColumnDef<T>[];
};

/** The cell's content: the column's own rendering or its text. */
function cellContent<T>(column: ColumnDef<T>, row: T): ReactNode {
  const Cell = column.Cell;
  return Cell ? <Cell row={row} /> : cellText(column, row);
}

/**
 * The page's rows as plain `<tr>`/`<td>` styled once (dataTable.css), not an MUI TableRow and TableCell
 * each; memoised, so the list's own state (the loader, the search box, the pager) does not render them
 * again (issue 13 item 3: the rows were most of a list's first render).
 */
export const BodyRows = memo(function BodyRows<T extends { _id: string }>({
  rows,
  shown,
  nameColumn,
  rowColor,
  onRowClick,
  renderRowActions,
  phone,
  details,
}: BodyRowsProps<T>) {
  // The phone's detail lines go under the first column that shows text (not a checkbox column: one with a
  // header of its own or that cannot be hidden).
  const detailsAt = details.length > 0 ? shown.findIndex(({ column }) => !column.Header && column.enableHiding !== false) : -1;
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
        data-row={onRowClick ? row._id : undefined}
        onClick={onRowClick ? () => onRowClick(row) : undefined}
        onKeyDown={
          onRowClick
            ? (e: KeyboardEvent<HTMLTableRowElement>) => {
                if (e.key === 'Enter' && e.target === e.currentTarget) onRowClick(row);
              }
            : undefined
        }
      >
        {shown.map(({ id, column }, index) => (
          <td key={id} className={column.numeric ? 'dt-td dt-num' : 'dt-td'}>
            {cellContent(column, row)}
            {index === detailsAt &&
              details.map((detail) => (
                <span key={columnIdOf(detail)} className="dt-detail">
                  {detail.header}: {cellContent(detail, row)}
                </span>
              ))}
          </td>
        ))}
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

type BodyContentProps<T> = BodyRowsProps<T> & {
  /** The load failed: the error and a retry in place of rows. */
  failed: boolean;
  /** What the failure says (the list could not be loaded; not available offline). */
  failText: string;
  loading: boolean;
  emptyText: string;
  /** The table's columns, the actions column among them: a message spans them. */
  width: number;
  onRetry: () => void;
};

/** The table's body: the page's rows, or in their place the error with a retry, the loader, or the empty list's text. */
export function BodyContent<T extends { _id: string }>({
  failed,
  failText,
  loading,
  emptyText,
  width,
  onRetry,
  ...rowsProps
}: BodyContentProps<T>) {
  // A message in place of rows (loading, empty, failed) is marked, so that it is never counted as a row.
  const bodyMessage = (content: ReactNode) => (
    <TableRow className="dt-message">
      <TableCell colSpan={width} sx={{ textAlign: 'center', py: 3, color: 'text.secondary' }}>
        {content}
      </TableCell>
    </TableRow>
  );
  if (rowsProps.rows.length > 0) return <BodyRows {...rowsProps} />;
  if (failed) {
    return (
      <TableRow className="dt-message">
        <TableCell colSpan={width}>
          <Alert
            severity="error"
            sx={{ m: 1, alignItems: 'center' }}
            action={
              <Button color="inherit" variant="outlined" size="small" onClick={onRetry}>
                {SHARED.retry}
              </Button>
            }
          >
            {failText}
          </Alert>
        </TableCell>
      </TableRow>
    );
  }
  if (loading) return bodyMessage(<CircularProgress size={28} aria-label={UI.loading} />);
  return bodyMessage(emptyText);
}
