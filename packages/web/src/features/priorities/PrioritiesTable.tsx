import AddIcon from '@mui/icons-material/Add';
import { Button } from '@mui/material';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { messageOf } from '../../api/errors';
import { deletePriority, listPriorities, type PriorityDto } from '../../api/priorities';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { DataTable, type TableQuery } from '../../components/DataTable';
import { DeleteAction, EditAction } from '../../components/RowAction';
import { useSnackbar } from '../../components/SnackbarProvider';
import type { ColumnDef } from '../../components/tableTypes';
import { CODEBOOKS, USERS } from '../../messages';
import { UI } from '../../texts';
import { CODEBOOK_NOTICE_MS } from '../types/GroupTypeDialog';
import { PriorityDialog } from './PriorityDialog';
import { PRIORITIES_KEY } from './queries';

const COLUMNS: ColumnDef<PriorityDto>[] = [
  { accessorKey: 'naziv', header: UI.naziv },
  { id: 'broj', header: UI.broj, accessorFn: (p) => String(p.broj), numeric: true },
];

/** GET /api/priority answers the whole codebook (ordered by broj); the table pages it here. */
async function fetchPriorities({ page, limit, signal }: TableQuery) {
  const priorities = await listPriorities(signal);
  return { rows: priorities.slice((page - 1) * limit, page * limit), total: priorities.length };
}

type Dialog = { kind: 'closed' } | { kind: 'new' } | { kind: 'edit'; priority: PriorityDto };

/** The priorities codebook (spec 2 §5): create, edit, delete. */
export function PrioritiesTable() {
  const snackbar = useSnackbar();
  const queryClient = useQueryClient();
  const [dialog, setDialog] = useState<Dialog>({ kind: 'closed' });
  const [deleting, setDeleting] = useState<PriorityDto | null>(null);

  const remove = useMutation({
    mutationFn: (priority: PriorityDto) => deletePriority(priority._id),
    onSuccess: async (data) => {
      setDeleting(null);
      snackbar.success(data?.message || UI.typeDeleted, CODEBOOK_NOTICE_MS);
      await queryClient.invalidateQueries({ queryKey: PRIORITIES_KEY });
    },
    onError: (error) => {
      setDeleting(null);
      snackbar.error(messageOf(error, CODEBOOKS.failed), CODEBOOK_NOTICE_MS);
    },
  });

  return (
    <>
      <DataTable
        tableName="prioriteti"
        label={UI.tabPriorities}
        columns={COLUMNS}
        queryKey={[...PRIORITIES_KEY, 'list']}
        fetchPage={fetchPriorities}
        renderRowActions={(priority) => (
          <>
            <EditAction of={priority.naziv} onClick={() => setDialog({ kind: 'edit', priority })} />
            <DeleteAction of={priority.naziv} onClick={() => setDeleting(priority)} />
          </>
        )}
        toolbar={
          <Button variant="contained" startIcon={<AddIcon />} onClick={() => setDialog({ kind: 'new' })}>
            {UI.addPriority}
          </Button>
        }
      />
      <PriorityDialog
        open={dialog.kind !== 'closed'}
        priority={dialog.kind === 'edit' ? dialog.priority : null}
        onClose={() => setDialog({ kind: 'closed' })}
      />
      <ConfirmDialog
        open={!!deleting}
        title={USERS.deleteConfirm}
        text={deleting?.naziv}
        busy={remove.isPending}
        onConfirm={() => deleting && remove.mutate(deleting)}
        onClose={() => setDeleting(null)}
      />
    </>
  );
}
