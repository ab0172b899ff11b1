import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import { Alert, Box, Button, Stack, Tab, Tabs, Typography } from '@mui/material';
import { appPath, LIST_SORTS, type RoleDto, roleIn, type UserDto } from '@trasa/domain';
import { useMemo, useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { listUsersByRole } from '../../api/users';
import { DataTable, type TableQuery } from '../../components/DataTable';
import type { SelectOption } from '../../components/FormSelect';
import { PageLoader } from '../../components/PageLoader';
import type { ColumnDef } from '../../components/tableTypes';
import { USERS } from '../../messages';
import { groupOptions, useGroupChoices } from '../../queries/groups';
import { useAssignableRoles, useRoles } from '../../queries/roles';
import { USERS_KEY } from '../../queries/users';
import { SCREEN_TITLES } from '../../shell/screenTitles';
import { useCurrentUser } from '../../shell/session';
import { roleName } from '../../shipped';
import { UI } from '../../texts';
import { AssignRoleControls } from './AssignRoleControls';

const COLUMNS: ColumnDef<UserDto>[] = [
  { id: 'imePrezime', header: UI.nameAndSurname, accessorFn: (u) => `${u.ime} ${u.prezime}` },
  { accessorKey: 'email', header: UI.email },
  { id: 'rola', header: UI.role, accessorFn: (u) => roleName(u.rolaNaziv || u.rola) },
  { id: 'grupa', header: UI.group, accessorFn: (u) => u.grupa?.naziv ?? UI.empty },
];

type RoleTableProps = {
  role: RoleDto;
  choices: readonly RoleDto[];
  allRoles: readonly RoleDto[];
  groups: readonly SelectOption[];
};

/** One role's users, each with a role selector, a group selector and a save button. */
function RoleUsersTable({ role, choices, allRoles, groups }: RoleTableProps) {
  const fetchPage = useMemo(
    () =>
      async ({ page, limit, signal, sort, order }: TableQuery) => {
        const data = await listUsersByRole({ roleId: role._id, page, limit, sort, order }, signal);
        return { rows: data.users, total: data.totalResults };
      },
    [role._id],
  );
  return (
    <DataTable
      tableName="upravljanje-korisnicima"
      label={roleName(role.imeRole)}
      columns={COLUMNS}
      queryKey={[...USERS_KEY, 'by-role', role._id]}
      fetchPage={fetchPage}
      sortable={LIST_SORTS.users}
      actionsHeader={UI.changeRole}
      actionsWidth={470}
      renderRowActions={(user) => (
        <AssignRoleControls
          user={user}
          roles={choices}
          allRoles={allRoles}
          groups={groups}
          preselect
          buttonLabel={UI.save}
          success={USERS.roleChanged}
          failure={USERS.roleChangeFailed}
        />
      )}
    />
  );
}

/** /app/upravljanje-korisnicima (spec 1 §2.6): one tab per role; a Rukovodilac doesn't see Admin. */
export function UsersByRolePage() {
  const user = useCurrentUser();
  const roles = useRoles();
  const { roles: choices } = useAssignableRoles();
  const groups = useGroupChoices();
  const groupChoices = useMemo(() => groupOptions(groups.data ?? []), [groups.data]);
  const tabs = useMemo(
    () => (roles.data ?? []).filter((r) => roleIn(user.rola, ['Admin']) || !roleIn(r.osnovnaRola, ['Admin'])),
    [roles.data, user.rola],
  );
  const [selected, setSelected] = useState<string | null>(null);
  const current = tabs.find((r) => r._id === selected) ?? tabs[0];

  return (
    <Stack spacing={2}>
      <Stack direction="row" alignItems="center" spacing={2} flexWrap="wrap" useFlexGap>
        <Button component={RouterLink} to={appPath('roles')} startIcon={<ArrowBackIcon />}>
          {UI.back}
        </Button>
        <Typography variant="h1">{SCREEN_TITLES.usersByRole}</Typography>
      </Stack>
      {roles.isPending ? (
        <PageLoader />
      ) : roles.isError ? (
        <Alert severity="error">{USERS.loadFailed}</Alert>
      ) : (
        current && (
          <>
            <Tabs
              value={current._id}
              onChange={(_, v: string) => setSelected(v)}
              variant="scrollable"
              scrollButtons="auto"
              aria-label={SCREEN_TITLES.usersByRole}
            >
              {tabs.map((r) => (
                <Tab key={r._id} value={r._id} label={roleName(r.imeRole)} />
              ))}
            </Tabs>
            <Box>
              <RoleUsersTable key={current._id} role={current} choices={choices} allRoles={roles.data} groups={groupChoices} />
            </Box>
          </>
        )
      )}
    </Stack>
  );
}
