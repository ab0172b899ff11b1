import AddIcon from '@mui/icons-material/Add';
import { Button, Stack, Typography } from '@mui/material';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { mayEditIjo } from '@trasa/domain';
import { useState } from 'react';
import { messageOf } from '../../api/errors';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { DataTable, type TableQuery } from '../../components/DataTable';
import { DeleteAction, EditAction } from '../../components/RowAction';
import { useSnackbar } from '../../components/SnackbarProvider';
import type { ColumnDef } from '../../components/tableTypes';
import { IJO } from '../../messages';
import { SCREEN_TITLES } from '../../shell/screenTitles';
import { useCurrentUser } from '../../shell/session';
import { deleteIjo, IJO_KEY, type IjoDto, listIjos } from './api';
import { IjoDialog } from './IjoDialog';
import { IJO_LABELS } from './labels';

const COLUMNS: ColumnDef<IjoDto>[] = [
  { accessorKey: 'naziv', header: IJO_LABELS.naziv },
  { id: 'odgovoran', header: IJO_LABELS.odgovoran, accessorFn: (i) => IJO.odgovoranLabels[i.odgovoran] ?? i.odgovoran },
];

/** GET /api/ijo answers every holder (a short codebook); the table pages it here. */
async function fetchIjos({ page, limit, signal }: TableQuery) {
  const ijos = await listIjos(signal);
  return { rows: ijos.slice((page - 1) * limit, page * limit), total: ijos.length };
}

type Dialog = { kind: 'closed' } | { kind: 'new' } | { kind: 'edit'; ijo: IjoDto };

/**
 * /app/ijo (spec 3 §2.9): the public-authority holders with who pays their fee. The Admin and an
 * employee of a 'ПИУ ТА' group add, edit and delete (the server checks the same rule); others read.
 */
export function IjoPage() {
  const me = useCurrentUser();
  const canEdit = mayEditIjo(me.rola, me.grupa?.tipKod);
  const snackbar = useSnackbar();
  const queryClient = useQueryClient();
  const [dialog, setDialog] = useState<Dialog>({ kind: 'closed' });
  const [deleting, setDeleting] = useState<IjoDto | null>(null);

  const remove = useMutation({
    mutationFn: (ijo: IjoDto) => deleteIjo(ijo._id),
    onSuccess: async (data) => {
      setDeleting(null);
      snackbar.success(data.message);
      await queryClient.invalidateQueries({ queryKey: IJO_KEY });
    },
    onError: (error) => {
      setDeleting(null);
      // The spec only logs a failed delete; the server's refusal (a holder clusters use) is worth reading.
      console.error(error);
      snackbar.error(messageOf(error, IJO.deleteFailed), 4000);
    },
  });

  return (
    <Stack spacing={2}>
      <Typography variant="h1">{SCREEN_TITLES.ijo}</Typography>
      <DataTable
        tableName="ijo"
        label={IJO_LABELS.table}
        columns={COLUMNS}
        queryKey={[...IJO_KEY, 'list']}
        fetchPage={fetchIjos}
        renderRowActions={
          canEdit
            ? (ijo) => (
                <>
                  <EditAction of={ijo.naziv} onClick={() => setDialog({ kind: 'edit', ijo })} />
                  <DeleteAction of={ijo.naziv} onClick={() => setDeleting(ijo)} />
                </>
              )
            : undefined
        }
        toolbar={
          canEdit && (
            <Button variant="contained" startIcon={<AddIcon />} onClick={() => setDialog({ kind: 'new' })}>
              {IJO_LABELS.add}
            </Button>
          )
        }
      />
      <IjoDialog
        open={dialog.kind !== 'closed'}
        ijo={dialog.kind === 'edit' ? dialog.ijo : null}
        onClose={() => setDialog({ kind: 'closed' })}
      />
      <ConfirmDialog
        open={!!deleting}
        title={IJO.deleteTitle}
        text={deleting ? IJO.deleteText(deleting.naziv) : undefined}
        busy={remove.isPending}
        onConfirm={() => deleting && remove.mutate(deleting)}
        onClose={() => setDeleting(null)}
      />
    </Stack>
  );
}
