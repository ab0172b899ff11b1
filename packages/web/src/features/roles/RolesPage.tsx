import AddIcon from '@mui/icons-material/Add';
import ManageAccountsIcon from '@mui/icons-material/ManageAccounts';
import { Alert, Button, Stack, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { appPath, canOpen, LIST_SORTS, type RoleDto, roleIn } from '@trasa/domain';
import { useState } from 'react';
import { Link as RouterLink, useNavigate, useParams } from 'react-router';
import { getRole, listRoles } from '../../api/roles';
import { DataTable, type TableQuery } from '../../components/DataTable';
import { EditAction } from '../../components/RowAction';
import type { ColumnDef } from '../../components/tableTypes';
import { COMMON, USERS } from '../../messages';
import { ROLES_KEY } from '../../queries/roles';
import { SCREEN_TITLES } from '../../shell/screenTitles';
import { useCurrentUser } from '../../shell/session';
import { roleName, roleShortName } from '../../shipped';
import { UI } from '../../texts';
import { RoleFormDialog } from './RoleFormDialog';

const COLUMNS: ColumnDef<RoleDto>[] = [
  { id: 'imeRole', header: UI.imeRole, accessorFn: (r) => roleName(r.imeRole) },
  { id: 'kratakNaziv', header: UI.kratakNaziv, accessorFn: roleShortName },
  { id: 'osnovnaRola', header: UI.osnovnaRola, accessorFn: (r) => roleName(r.osnovnaRola) },
  { id: 'ugradjena', header: UI.builtIn, accessorFn: (r) => (r.ugradjena ? UI.yes : UI.no) },
];

async function fetchRoles({ page, limit, signal, sort, order }: TableQuery) {
  const data = await listRoles({ page, limit, sort, order }, signal);
  return { rows: data.roles, total: data.totalResults };
}

type Dialog = { kind: 'closed' } | { kind: 'new' } | { kind: 'edit'; role: RoleDto };

/**
 * /app/role (spec 1 §2.9): the roles list. Admin and Rukovodilac edit roles in a modal (a Rukovodilac
 * never sees an Admin-based role, edits only the rows the server marks `izmenljiva` — extra roles held
 * inside their subtree — and renames without changing the base); only an Admin creates one. The
 * routes /app/nova-rola and /app/izmeni-rolu/{id} open the same list with its modal.
 */
export function RolesPage({ route }: { route?: 'new' | 'edit' }) {
  const user = useCurrentUser();
  const navigate = useNavigate();
  const { id = '' } = useParams();
  const canEdit = canOpen(user.rola, 'roleEdit');
  const canCreate = canOpen(user.rola, 'roleNew');
  const isAdmin = roleIn(user.rola, ['Admin']);
  const [dialog, setDialog] = useState<Dialog>(route === 'new' && canCreate ? { kind: 'new' } : { kind: 'closed' });
  const routed = useQuery({
    queryKey: [...ROLES_KEY, 'single', id],
    queryFn: ({ signal }) => getRole(id, signal),
    enabled: route === 'edit' && canEdit && !!id,
    // A missing role stays missing: say so at once.
    retry: false,
  });
  const routedOpen = route === 'edit' && !!routed.data?.izmenljiva && dialog.kind === 'closed';
  // /app/izmeni-rolu/{id} of a role the caller sees but may not edit says so above the list.
  const routedLocked = route === 'edit' && !!routed.data && !routed.data.izmenljiva;
  // /app/izmeni-rolu/{id} of a role that doesn't exist (or that the caller can't see) says so above the list.
  const routedMissing = route === 'edit' && canEdit && (routed.isError || !id);

  const close = () => {
    setDialog({ kind: 'closed' });
    if (route) navigate(appPath('roles'), { replace: true });
  };

  return (
    <Stack spacing={2}>
      <Typography variant="h1">{SCREEN_TITLES.roles}</Typography>
      {routedMissing && <Alert severity="error">{COMMON.notFound}</Alert>}
      {routedLocked && <Alert severity="error">{USERS.roleEditNotAllowed}</Alert>}
      <DataTable
        tableName="role"
        label={SCREEN_TITLES.roles}
        columns={COLUMNS}
        queryKey={[...ROLES_KEY, 'list']}
        fetchPage={fetchRoles}
        sortable={LIST_SORTS.roles}
        onRowClick={canEdit ? (role) => role.izmenljiva && setDialog({ kind: 'edit', role }) : undefined}
        renderRowActions={
          canEdit
            ? (role) =>
                role.izmenljiva ? <EditAction of={roleName(role.imeRole)} onClick={() => setDialog({ kind: 'edit', role })} /> : null
            : undefined
        }
        toolbar={
          <>
            {canCreate && (
              <Button variant="contained" startIcon={<AddIcon />} onClick={() => setDialog({ kind: 'new' })}>
                {UI.addRole}
              </Button>
            )}
            <Button variant="outlined" startIcon={<ManageAccountsIcon />} component={RouterLink} to={appPath('usersByRole')}>
              {UI.manageUsers}
            </Button>
          </>
        }
      />
      <RoleFormDialog
        open={dialog.kind !== 'closed' || routedOpen}
        role={dialog.kind === 'edit' ? dialog.role : routedOpen ? (routed.data ?? null) : null}
        baseLocked={!isAdmin}
        onClose={close}
      />
    </Stack>
  );
}

export function RoleNewPage() {
  return <RolesPage route="new" />;
}

export function RoleEditPage() {
  return <RolesPage route="edit" />;
}
