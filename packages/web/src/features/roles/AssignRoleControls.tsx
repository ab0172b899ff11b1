import SaveIcon from '@mui/icons-material/Save';
import { Box, Button, MenuItem, TextField } from '@mui/material';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { RoleDto, UserDto } from '@trasa/domain';
import { useState } from 'react';
import { messageOf } from '../../api/errors';
import { addRole } from '../../api/roles';
import type { SelectOption } from '../../components/FormSelect';
import { OptionPicker } from '../../components/OptionPicker';
import { useSnackbar } from '../../components/SnackbarProvider';
import { USERS } from '../../messages';
import { USERS_KEY } from '../../queries/users';
import { roleName } from '../../shipped';
import { UI } from '../../texts';
import { isGroupless } from '../users/userForm';

type Props = {
  user: UserDto;
  /** The roles offered. */
  roles: readonly RoleDto[];
  /** Every role, to tell groupless ones (Gost, Admin) apart. */
  allRoles: readonly RoleDto[];
  /** Group choices; without them the group is fixed to `groupId`. */
  groups?: readonly SelectOption[];
  /** The group a guest joins (group-members screen). */
  groupId?: string;
  /** Start with the user's current role selected. */
  preselect?: boolean;
  buttonLabel: string;
  success: string;
  failure: string;
};

/**
 * A role selector, a group selector and a save button for one user: POST /api/role/add-role
 * changes the role of a member, or puts a guest into a group with a role (spec 1 §2.6, §2.8).
 */
export function AssignRoleControls({ user, roles, allRoles, groups, groupId, preselect = false, buttonLabel, success, failure }: Props) {
  const snackbar = useSnackbar();
  const queryClient = useQueryClient();
  const [role, setRole] = useState(preselect && roles.some((r) => r._id === user.rolaId) ? user.rolaId : '');
  const [group, setGroup] = useState(groupId ?? user.grupa?._id ?? '');
  const groupless = isGroupless(allRoles, role);
  const who = `${user.ime} ${user.prezime}`;

  const mutation = useMutation({
    mutationFn: addRole,
    onSuccess: async () => {
      snackbar.success(success);
      await queryClient.invalidateQueries({ queryKey: USERS_KEY });
    },
    onError: (error) => snackbar.error(messageOf(error, failure)),
  });

  const save = () => {
    const target = groupless ? '' : (groupId ?? group);
    if (!role || (!groupless && !target)) {
      snackbar.error(USERS.roleAndGroupRequired);
      return;
    }
    mutation.mutate({ guestId: user._id, newRole: role, groupId: target });
  };

  return (
    <Box sx={{ display: 'flex', gap: 1, alignItems: 'center', minWidth: groups ? 440 : 280 }}>
      <TextField
        select
        size="small"
        value={role}
        onChange={(e) => setRole(e.target.value)}
        sx={{ minWidth: 130, flex: 1 }}
        slotProps={{
          select: {
            displayEmpty: true,
            SelectDisplayProps: { 'aria-label': `${UI.newRole}: ${who}` },
            renderValue: (value) =>
              roleName(roles.find((r) => r._id === value)?.imeRole ?? '') || (
                <Box component="span" sx={{ color: 'text.disabled' }}>
                  {UI.newRole}
                </Box>
              ),
          },
        }}
      >
        {roles.map((r) => (
          <MenuItem key={r._id} value={r._id}>
            {roleName(r.imeRole)}
          </MenuItem>
        ))}
      </TextField>
      {groups && (
        <Box sx={{ minWidth: 180, flex: 2 }}>
          <OptionPicker
            size="small"
            placeholder={UI.newGroup}
            options={groups}
            value={groupless ? '' : group}
            onChange={setGroup}
            disabled={groupless}
            ariaLabel={`${UI.newGroup}: ${who}`}
          />
        </Box>
      )}
      <Button
        variant="contained"
        size="small"
        startIcon={<SaveIcon />}
        onClick={save}
        disabled={mutation.isPending}
        aria-label={`${buttonLabel}: ${who}`}
        sx={{ flexShrink: 0 }}
      >
        {buttonLabel}
      </Button>
    </Box>
  );
}
