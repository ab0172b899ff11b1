import AddIcon from '@mui/icons-material/Add';
import InfoIcon from '@mui/icons-material/InfoOutlined';
import ManageAccountsIcon from '@mui/icons-material/ManageAccounts';
import { Button, Stack, Typography } from '@mui/material';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type GroupListItem, isReservedGroupName, LIST_SORTS, roleIn } from '@trasa/domain';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { messageOf } from '../../api/errors';
import { deleteGroup, listGroups, searchGroups } from '../../api/groups';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { DataTable, type TableQuery } from '../../components/DataTable';
import { FROM_LIST } from '../../components/fromList';
import { DeleteAction, EditAction, RowAction } from '../../components/RowAction';
import { useSnackbar } from '../../components/SnackbarProvider';
import type { ColumnDef } from '../../components/tableTypes';
import { USERS } from '../../messages';
import { GROUPS_KEY } from '../../queries/groups';
import { USERS_KEY } from '../../queries/users';
import { SCREEN_TITLES } from '../../shell/screenTitles';
import { useCurrentUser } from '../../shell/session';
import { groupTypeName } from '../../shipped';
import { UI } from '../../texts';
import { GroupFormDialog } from './GroupFormDialog';
import { groupDetailsPath, groupMembersPath } from './groupLinks';

/** Назив, Кратак назив, Тип, Надређена група, Види све. */
const COLUMNS: ColumnDef<GroupListItem>[] = [
  { accessorKey: 'naziv', header: UI.naziv },
  { accessorKey: 'kratakNaziv', header: UI.kratakNaziv },
  { id: 'tip', header: UI.tip, accessorFn: (g) => (g.tip ? groupTypeName(g.tip) : UI.empty) },
  { id: 'nadredjenaGrupa', header: UI.parentGroup, accessorFn: (g) => g.nadredjenaGrupa?.naziv ?? UI.empty },
  { id: 'sveVideci', header: UI.seesAll, accessorFn: (g) => (g.sveVideci ? UI.yes : UI.no) },
];

async function fetchGroups({ page, limit, search, signal, sort, order }: TableQuery) {
  const data = search
    ? await searchGroups({ page, limit, sort, order, ...search }, signal)
    : await listGroups({ page, limit, sort, order }, signal);
  // The server never lists the reserved group; this is the second guard.
  const rows = data.groups.filter((g) => !isReservedGroupName(g.naziv));
  return { rows, total: data.totalResults };
}

type Dialog = { kind: 'closed' } | { kind: 'new' } | { kind: 'edit'; group: GroupListItem };

/**
 * /app/grupe (spec 1 §2.8): groups with search and paging. An Admin creates, edits and deletes; a
 * Rukovodilac (whose list the server limits to their subtree) opens details and manages users.
 */
export function GroupsPage() {
  const user = useCurrentUser();
  const navigate = useNavigate();
  const snackbar = useSnackbar();
  const queryClient = useQueryClient();
  const isAdmin = roleIn(user.rola, ['Admin']);
  const [dialog, setDialog] = useState<Dialog>({ kind: 'closed' });
  const [deleting, setDeleting] = useState<GroupListItem | null>(null);

  const remove = useMutation({
    mutationFn: (group: GroupListItem) => deleteGroup(group._id),
    onSuccess: async () => {
      setDeleting(null);
      snackbar.success(USERS.groupDeleted);
      await queryClient.invalidateQueries({ queryKey: GROUPS_KEY });
      await queryClient.invalidateQueries({ queryKey: USERS_KEY });
    },
    onError: (error) => {
      setDeleting(null);
      snackbar.error(messageOf(error, USERS.groupDeleteFailed));
    },
  });

  const openDetails = (group: GroupListItem) => navigate(groupDetailsPath(group), { state: FROM_LIST });

  return (
    <Stack spacing={2}>
      <Typography variant="h1">{SCREEN_TITLES.groups}</Typography>
      <DataTable
        tableName="grupe"
        label={SCREEN_TITLES.groups}
        columns={COLUMNS}
        queryKey={[...GROUPS_KEY, 'list']}
        fetchPage={fetchGroups}
        sortable={LIST_SORTS.groups}
        searchable
        onRowClick={openDetails}
        actionsWidth={180}
        renderRowActions={(group) => (
          <>
            <RowAction label={UI.details} name={`${UI.details}: ${group.naziv}`} icon={InfoIcon} onClick={() => openDetails(group)} />
            <RowAction
              label={UI.manageGroupUsers}
              name={`${UI.manageGroupUsers}: ${group.naziv}`}
              icon={ManageAccountsIcon}
              onClick={() => navigate(groupMembersPath(group), { state: FROM_LIST })}
            />
            {isAdmin && !isReservedGroupName(group.naziv) && (
              <>
                <EditAction of={group.naziv} onClick={() => setDialog({ kind: 'edit', group })} />
                <DeleteAction of={group.naziv} onClick={() => setDeleting(group)} />
              </>
            )}
          </>
        )}
        toolbar={
          isAdmin && (
            <Button variant="contained" startIcon={<AddIcon />} onClick={() => setDialog({ kind: 'new' })}>
              {UI.addGroup}
            </Button>
          )
        }
      />
      {isAdmin && (
        <GroupFormDialog
          open={dialog.kind !== 'closed'}
          group={dialog.kind === 'edit' ? dialog.group : null}
          onClose={() => setDialog({ kind: 'closed' })}
        />
      )}
      <ConfirmDialog
        open={!!deleting}
        title={USERS.deleteConfirm}
        text={USERS.deleteGroupNote}
        busy={remove.isPending}
        onConfirm={() => deleting && remove.mutate(deleting)}
        onClose={() => setDeleting(null)}
      />
    </Stack>
  );
}
