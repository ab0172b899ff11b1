import DeleteIcon from '@mui/icons-material/Delete';
import EditIcon from '@mui/icons-material/Edit';
import PersonAddIcon from '@mui/icons-material/PersonAdd';
import { Button, Stack, Tab, Tabs, Typography } from '@mui/material';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { appPath, LIST_SORTS, roleIn, type UserDto } from '@trasa/domain';
import { lazy, useState } from 'react';
import { useNavigate } from 'react-router';
import { ApiError } from '../../api/client';
import { deleteUser, listUsers, searchUsers } from '../../api/users';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { DataTable, type TableQuery } from '../../components/DataTable';
import { FROM_LIST } from '../../components/fromList';
import { OnceOpened } from '../../components/OnceOpened';
import { RowAction } from '../../components/RowAction';
import { useSnackbar } from '../../components/SnackbarProvider';
import { USERS } from '../../messages';
import { USERS_KEY } from '../../queries/users';
import { SCREEN_TITLES } from '../../shell/screenTitles';
import { useCurrentUser } from '../../shell/session';
import { UI } from '../../texts';
import { ImportButton } from '../imports/ImportButton';
import { fetchGuests } from './guestSearch';
import { GUEST_COLUMNS, USER_COLUMNS, userRowColor } from './userColumns';

/** The forms load when their dialog is first opened (issue 13 budgets). */
const CreateUserDialog = lazy(async () => ({ default: (await import('./CreateUserDialog')).CreateUserDialog }));
const EditUserDialog = lazy(async () => ({ default: (await import('./EditUserDialog')).EditUserDialog }));

async function fetchUsers({ page, limit, search, signal, sort, order }: TableQuery) {
  const data = search
    ? await searchUsers({ page, limit, sort, order, ...search }, signal)
    : await listUsers({ page, limit, sort, order }, signal);
  return { rows: data.users, total: data.totalResults };
}

/** 'Korisnički nalog neuspešno obrisan! {server message}' (spec 1 §8). */
function deleteFailure(error: unknown): string {
  const server = error instanceof ApiError ? error.serverMessage : undefined;
  return server ? `${USERS.deleteFailedPrefix} ${server}` : USERS.deleteFailedPrefix;
}

type TabKey = 'all' | 'guests';

/**
 * /app/korisnici (spec 1 §2.7): all users and guests, add/edit/delete modals, search, paging. A guest's
 * account is the Admin's to edit or deactivate: a Rukovodilac opens a guest and gives them a role in a
 * group (user management, group members), but gets no edit or delete on a guest's row.
 */
export function UsersPage() {
  const me = useCurrentUser();
  const isAdmin = roleIn(me.rola, ['Admin']);
  const navigate = useNavigate();
  const snackbar = useSnackbar();
  const queryClient = useQueryClient();
  const [tab, setTab] = useState<TabKey>('all');
  const [creating, setCreating] = useState(false);
  const [editing, setEditing] = useState<UserDto | null>(null);
  const [deleting, setDeleting] = useState<UserDto | null>(null);

  const remove = useMutation({
    mutationFn: (user: UserDto) => deleteUser(user._id),
    onSuccess: async (data) => {
      setDeleting(null);
      snackbar.success(data?.message || USERS.deleted);
      await queryClient.invalidateQueries({ queryKey: USERS_KEY });
    },
    onError: (error) => {
      setDeleting(null);
      snackbar.error(deleteFailure(error));
    },
  });

  const openDetails = (user: UserDto) => navigate(appPath('user', { id: user._id }), { state: FROM_LIST });
  const manageable = (user: UserDto) => isAdmin || !roleIn(user.rola, ['Gost']);
  const rowActions = (user: UserDto) =>
    manageable(user) && (
      <>
        <RowAction label={UI.edit} name={`${UI.edit}: ${user.ime} ${user.prezime}`} icon={EditIcon} onClick={() => setEditing(user)} />
        <RowAction
          label={UI.delete}
          name={`${UI.delete}: ${user.ime} ${user.prezime}`}
          icon={DeleteIcon}
          color="error"
          onClick={() => setDeleting(user)}
        />
      </>
    );
  const addButton = (
    <>
      <Button variant="contained" startIcon={<PersonAddIcon />} onClick={() => setCreating(true)}>
        {UI.addUser}
      </Button>
      <ImportButton model="user" template="korisnici" invalidates={[USERS_KEY]} />
    </>
  );

  return (
    <Stack spacing={2}>
      <Typography variant="h1">{SCREEN_TITLES.users}</Typography>
      <Tabs value={tab} onChange={(_, v: TabKey) => setTab(v)} aria-label={SCREEN_TITLES.users}>
        <Tab value="all" label={UI.tabAllUsers} />
        <Tab value="guests" label={UI.tabGuests} />
      </Tabs>
      {tab === 'all' ? (
        <DataTable
          key="all"
          tableName="korisnici"
          label={UI.tabAllUsers}
          columns={USER_COLUMNS}
          queryKey={[...USERS_KEY, 'list']}
          fetchPage={fetchUsers}
          searchable
          sortable={LIST_SORTS.users}
          rowColor={userRowColor}
          onRowClick={openDetails}
          renderRowActions={rowActions}
          toolbar={addButton}
        />
      ) : (
        <DataTable
          key="guests"
          tableName="gosti"
          label={UI.tabGuests}
          columns={GUEST_COLUMNS}
          queryKey={[...USERS_KEY, 'guests']}
          fetchPage={fetchGuests}
          searchable
          sortable={LIST_SORTS.users}
          rowColor={userRowColor}
          onRowClick={openDetails}
          renderRowActions={isAdmin ? rowActions : undefined}
          toolbar={addButton}
        />
      )}
      <OnceOpened open={creating}>
        <CreateUserDialog open={creating} onClose={() => setCreating(false)} />
      </OnceOpened>
      <OnceOpened open={!!editing}>
        <EditUserDialog user={editing} onClose={() => setEditing(null)} />
      </OnceOpened>
      <ConfirmDialog
        open={!!deleting}
        title={USERS.deleteConfirm}
        text={USERS.deleteUserNote}
        busy={remove.isPending}
        onConfirm={() => deleting && remove.mutate(deleting)}
        onClose={() => setDeleting(null)}
      />
    </Stack>
  );
}
