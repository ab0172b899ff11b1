import DeleteIcon from '@mui/icons-material/Delete';
import { Button, Checkbox } from '@mui/material';
import { type QueryKey, useMutation, useQueryClient } from '@tanstack/react-query';
import type { MessageResponse } from '@trasa/domain';
import { createContext, type ReactElement, type ReactNode, useCallback, useContext, useMemo, useState } from 'react';
import { messageOf } from '../../api/errors';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { useSnackbar } from '../../components/SnackbarProvider';
import type { ColumnDef } from '../../components/tableTypes';
import { LOG_LABELS } from './labels';

/**
 * Multi-select of rows across pages, for the Admin's deletes on the logs and comments lists: a
 * checkbox column whose cells read the page's selection from context (DataTable renders the rows).
 */
export type Selection = {
  chosen: ReadonlySet<string>;
  toggle: (id: string) => void;
  setMany: (ids: readonly string[], on: boolean) => void;
  clear: () => void;
};

type Labels = { page: string; row: (row: never) => string };
const SelectionContext = createContext<{ selection: Selection; labels: Labels } | null>(null);

export function useSelectionState(): Selection {
  const [chosen, setChosen] = useState<ReadonlySet<string>>(() => new Set());
  const toggle = useCallback((id: string) => {
    setChosen((prev) => {
      const next = new Set(prev);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  }, []);
  const setMany = useCallback((ids: readonly string[], on: boolean) => {
    setChosen((prev) => {
      const next = new Set(prev);
      for (const id of ids) {
        if (on) next.add(id);
        else next.delete(id);
      }
      return next;
    });
  }, []);
  const clear = useCallback(() => setChosen(new Set()), []);
  return useMemo(() => ({ chosen, toggle, setMany, clear }), [chosen, toggle, setMany, clear]);
}

/** The selection and the checkboxes' accessible names: the page box's, and a row's from the row. */
export function SelectionProvider<T>({
  value,
  pageLabel,
  rowLabel,
  children,
}: {
  value: Selection;
  pageLabel: string;
  rowLabel: (row: T) => string;
  children: ReactNode;
}) {
  const context = useMemo(
    () => ({ selection: value, labels: { page: pageLabel, row: rowLabel as (row: never) => string } }),
    [value, pageLabel, rowLabel],
  );
  return <SelectionContext.Provider value={context}>{children}</SelectionContext.Provider>;
}

function useSelection() {
  const context = useContext(SelectionContext);
  if (!context) throw new Error('selection column outside SelectionProvider');
  return context;
}

function stop(event: { stopPropagation: () => void }) {
  event.stopPropagation();
}

function RowBox<T extends { _id: string }>({ row }: { row: T }) {
  const { selection, labels } = useSelection();
  const id = row._id;
  return (
    <Checkbox
      size="small"
      checked={selection.chosen.has(id)}
      onClick={stop}
      onKeyDown={stop}
      onChange={() => selection.toggle(id)}
      slotProps={{ input: { 'aria-label': labels.row(row as never) } }}
    />
  );
}

function PageBox<T extends { _id: string }>({ rows }: { rows: readonly T[] }) {
  const { selection, labels } = useSelection();
  const ids = rows.map((r) => r._id);
  const count = ids.filter((id) => selection.chosen.has(id)).length;
  return (
    <Checkbox
      size="small"
      checked={ids.length > 0 && count === ids.length}
      indeterminate={count > 0 && count < ids.length}
      disabled={ids.length === 0}
      onClick={stop}
      onChange={() => selection.setMany(ids, count < ids.length)}
      slotProps={{ input: { 'aria-label': labels.page } }}
    />
  );
}

/** The checkbox column: the header box chooses the whole page, each row's box names its row. */
export function selectionColumn<T extends { _id: string }>(header: string): ColumnDef<T> {
  return {
    id: 'izbor',
    header,
    enableHiding: false,
    Header: PageBox,
    Cell: RowBox,
  };
}

/** The texts of a list's delete: the notices (the server's message first) and the confirmation. */
export type ChosenDeleteTexts = { deleted: string; failed: string; title: string; text: (n: number) => string };

/**
 * The Admin's delete of the chosen rows (logs, comments): the toolbar's 'Обриши изабране (n)' button
 * (disabled while nothing is chosen), its confirmation dialog and the call; on success the selection is
 * cleared and the list read again, either way a notice (`noticeMs`, else the default) and the dialog closes.
 */
export function useChosenDelete({
  selection,
  remove,
  queryKey,
  texts,
  noticeMs,
}: {
  selection: Selection;
  remove: (ids: string[]) => Promise<MessageResponse>;
  queryKey: QueryKey;
  texts: ChosenDeleteTexts;
  noticeMs?: number;
}): { button: ReactElement; dialog: ReactElement } {
  const snackbar = useSnackbar();
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const mutation = useMutation({
    mutationFn: () => remove([...selection.chosen]),
    onSuccess: async (data) => {
      setConfirming(false);
      selection.clear();
      snackbar.success(data.message || texts.deleted, noticeMs);
      await queryClient.invalidateQueries({ queryKey });
    },
    onError: (error) => {
      setConfirming(false);
      snackbar.error(messageOf(error, texts.failed), noticeMs);
    },
  });
  const chosen = selection.chosen.size;
  return {
    button: (
      <Button variant="contained" color="error" startIcon={<DeleteIcon />} disabled={chosen === 0} onClick={() => setConfirming(true)}>
        {LOG_LABELS.deleteChosen(chosen)}
      </Button>
    ),
    dialog: (
      <ConfirmDialog
        open={confirming}
        title={texts.title}
        text={texts.text(chosen)}
        busy={mutation.isPending}
        onConfirm={() => mutation.mutate()}
        onClose={() => setConfirming(false)}
      />
    ),
  };
}
