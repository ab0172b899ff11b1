import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import PersonRemoveIcon from '@mui/icons-material/PersonRemove';
import { Button, Stack, Tab, Tabs, Typography } from '@mui/material';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { appPath, foldForSearch, LIST_SORTS, roleIn, type UserDto } from '@trasa/domain';
import { useCallback, useMemo, useState } from 'react';
import { Navigate, Link as RouterLink, useParams } from 'react-router';
import { messageOf } from '../../api/errors';
import { getGroup, removeUserFromGroup } from '../../api/groups';
import { listGuests, listUsers } from '../../api/users';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { DataTable, type TableQuery } from '../../components/DataTable';
import { useCameFromList } from '../../components/fromList';
import { useSnackbar } from '../../components/SnackbarProvider';
import type { ColumnDef } from '../../components/tableTypes';
import { USERS } from '../../messages';
import { GROUPS_KEY } from '../../queries/groups';
import { useAssignableRoles, useRoles } from '../../queries/roles';
import { USERS_KEY } from '../../queries/users';
import { SCREEN_TITLES } from '../../shell/screenTitles';
import { roleName } from '../../shipped';
import { UI } from '../../texts';
import { AssignRoleControls } from '../roles/AssignRoleControls';
import { statusLabel } from '../users/userColumns';

/** The guests list of group management loads every guest at once (spec 1 §9). */
const ALL_GUESTS_LIMIT = 50_000;

const MEMBER_COLUMNS: ColumnDef<UserDto>[] = [
  { accessorKey: 'ime', header: UI.ime },
  { accessorKey: 'prezime', header: UI.prezime },
  { accessorKey: 'email', header: UI.email },
  { id: 'rola', header: UI.role, accessorFn: (u) => roleName(u.rolaNaziv || u.rola) },
  { id: 'status', header: UI.status, accessorFn: (u) => statusLabel(u.status) },
];

const GUEST_COLUMNS: ColumnDef<UserDto>[] = [
  { accessorKey: 'ime', header: UI.ime },
  { accessorKey: 'prezime', header: UI.prezime },
  { accessorKey: 'email', header: UI.email },
  { id: 'status', header: UI.status, accessorFn: (u) => statusLabel(u.status) },
];

function matches(user: UserDto, eng: string, srb: string): boolean {
  const text = foldForSearch(`${user.ime} ${user.prezime} ${user.email}`);
  return [eng, srb].some((q) => q && text.includes(foldForSearch(q)));
}

type TabKey = 'members' | 'guests';

/**
 * /app/grupe/upravljanje-korisnicima/{naziv}/{groupId} (spec 1 §2.8): the group's members, who can
 * be removed (they become guests), and the guests, who join by being given a role in the group.
 */
export function GroupMembersPage() {
  const fromList = useCameFromList();
  const { naziv = '', groupId = '' } = useParams();
  const snackbar = useSnackbar();
  const queryClient = useQueryClient();
  const [tab, setTab] = useState<TabKey>('members');
  const [removing, setRemoving] = useState<UserDto | null>(null);
  const allRoles = useRoles();
  const { roles: assignable } = useAssignableRoles();
  // A guest joins with a role that belongs to a group: never Gost or Admin.
  const memberRoles = useMemo(() => assignable.filter((r) => !roleIn(r.osnovnaRola, ['Gost', 'Admin'])), [assignable]);
  const group = useQuery({
    queryKey: [...GROUPS_KEY, 'single', groupId],
    queryFn: ({ signal }) => getGroup(groupId, signal),
    enabled: fromList && !!groupId,
    retry: false,
  });

  const remove = useMutation({
    mutationFn: (user: UserDto) => removeUserFromGroup(user._id),
    onSuccess: async (data) => {
      setRemoving(null);
      snackbar.success(data?.message || USERS.removedFromGroup);
      await queryClient.invalidateQueries({ queryKey: USERS_KEY });
      await queryClient.invalidateQueries({ queryKey: GROUPS_KEY });
    },
    onError: (error) => {
      setRemoving(null);
      snackbar.error(messageOf(error, USERS.removeFromGroupFailed));
    },
  });

  const fetchMembers = useCallback(
    async ({ page, limit, signal, sort, order }: TableQuery) => {
      const data = await listUsers({ page, limit, groupId, sort, order }, signal);
      return { rows: data.users, total: data.totalResults };
    },
    [groupId],
  );

  const fetchGuests = useCallback(
    async ({ page, limit, search }: TableQuery) => {
      const all = await queryClient.fetchQuery({
        queryKey: [...USERS_KEY, 'guests', 'all'],
        queryFn: ({ signal }) => listGuests({ page: 1, limit: ALL_GUESTS_LIMIT }, signal),
        staleTime: 5_000,
      });
      const found = search ? all.guests.filter((u) => matches(u, search.eng, search.srb)) : all.guests;
      return { rows: found.slice((page - 1) * limit, page * limit), total: found.length };
    },
    [queryClient],
  );

  if (!fromList) return <Navigate to={appPath('groups')} replace />;

  const title = group.data?.naziv ?? naziv;
  return (
    <Stack spacing={2}>
      <Stack direction="row" alignItems="center" spacing={2} flexWrap="wrap" useFlexGap>
        <Button component={RouterLink} to={appPath('groups')} startIcon={<ArrowBackIcon />}>
          {UI.back}
        </Button>
        <Typography variant="h1">
          {SCREEN_TITLES.groupMembers}: {title}
        </Typography>
      </Stack>
      <Tabs value={tab} onChange={(_, v: TabKey) => setTab(v)} aria-label={UI.manageGroupUsers}>
        <Tab value="members" label={UI.tabGroupMembers} />
        <Tab value="guests" label={UI.tabGroupGuests} />
      </Tabs>
      {tab === 'members' ? (
        <DataTable
          key="members"
          tableName="clanovi-grupe"
          label={UI.tabGroupMembers}
          columns={MEMBER_COLUMNS}
          queryKey={[...USERS_KEY, 'group', groupId]}
          fetchPage={fetchMembers}
          sortable={LIST_SORTS.users}
          actionsWidth={190}
          renderRowActions={(user) => (
            <Button
              size="small"
              color="error"
              startIcon={<PersonRemoveIcon />}
              aria-label={`${UI.removeFromGroup}: ${user.ime} ${user.prezime}`}
              onClick={() => setRemoving(user)}
              sx={{ whiteSpace: 'nowrap' }}
            >
              {UI.removeFromGroup}
            </Button>
          )}
        />
      ) : (
        <DataTable
          key="guests"
          tableName="gosti-grupe"
          label={UI.tabGroupGuests}
          columns={GUEST_COLUMNS}
          queryKey={[...USERS_KEY, 'group-guests', groupId]}
          fetchPage={fetchGuests}
          searchable
          actionsHeader={UI.addToGroup}
          actionsWidth={320}
          renderRowActions={(user) => (
            <AssignRoleControls
              user={user}
              roles={memberRoles}
              allRoles={allRoles.data ?? []}
              groupId={groupId}
              buttonLabel={UI.addToGroup}
              success={USERS.guestAdded}
              failure={USERS.guestAddFailed}
            />
          )}
        />
      )}
      <ConfirmDialog
        open={!!removing}
        title={USERS.deleteConfirm}
        text={removing ? `${UI.removeFromGroup}: ${removing.ime} ${removing.prezime}` : undefined}
        busy={remove.isPending}
        onConfirm={() => removing && remove.mutate(removing)}
        onClose={() => setRemoving(null)}
      />
    </Stack>
  );
}
