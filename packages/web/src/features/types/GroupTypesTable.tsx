import AddIcon from '@mui/icons-material/Add';
import { Button } from '@mui/material';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { GroupTypeDto } from '@trasa/domain';
import { useState } from 'react';
import { messageOf } from '../../api/errors';
import { deleteType, listTypes } from '../../api/types';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { DataTable, type TableQuery } from '../../components/DataTable';
import { DeleteAction, EditAction } from '../../components/RowAction';
import { useSnackbar } from '../../components/SnackbarProvider';
import type { ColumnDef } from '../../components/tableTypes';
import { USERS } from '../../messages';
import { GROUPS_KEY } from '../../queries/groups';
import { TYPES_KEY } from '../../queries/types';
import { groupTypeName } from '../../shipped';
import { UI } from '../../texts';
import { CODEBOOK_NOTICE_MS, GroupTypeDialog } from './GroupTypeDialog';

const COLUMNS: ColumnDef<GroupTypeDto>[] = [
  { id: 'naziv', header: UI.naziv, accessorFn: (t) => groupTypeName(t.naziv) },
  { id: 'kratakNaziv', header: UI.kratakNaziv, accessorFn: (t) => groupTypeName(t.kratakNaziv) },
  { id: 'code', header: UI.builtIn, accessorFn: (t) => (t.code ? UI.yes : UI.no) },
];

/** GET /api/types answers the whole codebook; the table pages it here. */
async function fetchTypes({ page, limit, signal }: TableQuery) {
  const types = await listTypes(signal);
  return { rows: types.slice((page - 1) * limit, page * limit), total: types.length };
}

type Dialog = { kind: 'closed' } | { kind: 'new' } | { kind: 'edit'; type: GroupTypeDto };

/** The group-types codebook (spec 2 §5): create, edit, delete (the codebook's own types; built-in ones stay). */
export function GroupTypesTable() {
  const snackbar = useSnackbar();
  const queryClient = useQueryClient();
  const [dialog, setDialog] = useState<Dialog>({ kind: 'closed' });
  const [deleting, setDeleting] = useState<GroupTypeDto | null>(null);

  const remove = useMutation({
    mutationFn: (type: GroupTypeDto) => deleteType(type._id),
    onSuccess: async (data) => {
      setDeleting(null);
      snackbar.success(data?.message || UI.typeDeleted, CODEBOOK_NOTICE_MS);
      await queryClient.invalidateQueries({ queryKey: TYPES_KEY });
      await queryClient.invalidateQueries({ queryKey: GROUPS_KEY });
    },
    onError: (error) => {
      setDeleting(null);
      snackbar.error(messageOf(error, USERS.codebookError), CODEBOOK_NOTICE_MS);
    },
  });

  return (
    <>
      <DataTable
        tableName="tipovi-grupa"
        label={UI.tabGroupTypes}
        columns={COLUMNS}
        queryKey={[...TYPES_KEY, 'list']}
        fetchPage={fetchTypes}
        renderRowActions={(type) => (
          <>
            <EditAction of={groupTypeName(type.naziv)} onClick={() => setDialog({ kind: 'edit', type })} />
            {/* A built-in type (with a code) is never deleted: no button that would always fail. */}
            {!type.code && <DeleteAction of={groupTypeName(type.naziv)} onClick={() => setDeleting(type)} />}
          </>
        )}
        toolbar={
          <Button variant="contained" startIcon={<AddIcon />} onClick={() => setDialog({ kind: 'new' })}>
            {UI.addGroupType}
          </Button>
        }
      />
      <GroupTypeDialog
        open={dialog.kind !== 'closed'}
        type={dialog.kind === 'edit' ? dialog.type : null}
        onClose={() => setDialog({ kind: 'closed' })}
      />
      <ConfirmDialog
        open={!!deleting}
        title={USERS.deleteConfirm}
        busy={remove.isPending}
        onConfirm={() => deleting && remove.mutate(deleting)}
        onClose={() => setDeleting(null)}
      />
    </>
  );
}
