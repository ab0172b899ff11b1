import { Box } from '@mui/material';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type EditUserInput, editUserSchema, type RoleDto, type UserDto } from '@trasa/domain';
import { useEffect, useMemo, useRef } from 'react';
import { type FieldErrors, useForm } from 'react-hook-form';
import { fieldErrorOf, messageOf, statusOf } from '../../api/errors';
import { editUser } from '../../api/users';
import { FormDialog } from '../../components/FormDialog';
import { FormOptionPicker } from '../../components/FormOptionPicker';
import { FormSelect } from '../../components/FormSelect';
import { FormSwitch } from '../../components/FormSwitch';
import { FormTextField } from '../../components/FormTextField';
import { useSnackbar } from '../../components/SnackbarProvider';
import { zodResolver } from '../../components/validation';
import { withExtraErrors } from '../../components/withExtraErrors';
import { USERS } from '../../messages';
import { useGroupChoices } from '../../queries/groups';
import { useAssignableRoles, useRoles } from '../../queries/roles';
import { USERS_KEY } from '../../queries/users';
import { PROFILE_KEY, useCurrentUser } from '../../shell/session';
import { UI } from '../../texts';
import { isGroupless, STATUS_OPTIONS, useGroupChoiceOptions, useRoleChoices } from './userForm';

const SERVER_FIELDS = ['ime', 'prezime', 'email', 'rola', 'status', 'groupId', 'lozinka', 'potvrdaLozinke'] as const;

function valuesOf(user: UserDto): EditUserInput {
  return {
    ime: user.ime,
    prezime: user.prezime,
    email: user.email,
    emailPotvrdjen: user.emailPotvrdjen,
    rola: user.rolaId,
    status: user.status,
    groupId: user.grupa?._id ?? '',
    lozinka: '',
    potvrdaLozinke: '',
  };
}

/** The edit-user modal: as create, the password optional and the group field named groupId (spec 1 §5). */
export function EditUserDialog({ user, onClose }: { user: UserDto | null; onClose: () => void }) {
  const me = useCurrentUser();
  const snackbar = useSnackbar();
  const queryClient = useQueryClient();
  const { roles } = useAssignableRoles();
  const allRoles = useRoles();
  const groups = useGroupChoices();
  const roleChoices = useRoleChoices(roles, user ?? undefined);
  const groupChoices = useGroupChoiceOptions(groups.data, user ?? undefined);
  // The group is required unless the chosen role is groupless: the schema can't know the roles.
  const rolesRef = useRef<RoleDto[]>([]);
  rolesRef.current = allRoles.data ?? [];
  const resolver = useMemo(
    () =>
      withExtraErrors(
        zodResolver(editUserSchema),
        (v): FieldErrors<EditUserInput> =>
          v.rola && !v.groupId && !isGroupless(rolesRef.current, v.rola)
            ? { groupId: { type: 'required', message: USERS.invalidOption } }
            : {},
      ),
    [],
  );
  const { control, handleSubmit, setValue, setError, clearErrors, watch, reset } = useForm({
    resolver,
    defaultValues: user ? valuesOf(user) : undefined,
  });

  useEffect(() => {
    if (user) reset(valuesOf(user));
  }, [user, reset]);
  const groupless = isGroupless(allRoles.data ?? [], watch('rola'));

  // A groupless role clears the group, and with it an error left by an earlier save (it would hide the helper text).
  useEffect(() => {
    if (!groupless) return;
    setValue('groupId', '');
    clearErrors('groupId');
  }, [groupless, setValue, clearErrors]);

  const mutation = useMutation({
    mutationFn: (body: Parameters<typeof editUser>[1]) => editUser(user?._id ?? '', body),
    onSuccess: async () => {
      snackbar.success(USERS.edited);
      onClose();
      await queryClient.invalidateQueries({ queryKey: USERS_KEY });
      if (user?._id === me._id) await queryClient.invalidateQueries({ queryKey: PROFILE_KEY });
    },
    onError: (error) => {
      snackbar.error(messageOf(error, USERS.editFailed));
      if (statusOf(error) === 409) setError('email', { message: fieldErrorOf(error, 'email') ?? USERS.emailTakenEdit });
      for (const field of SERVER_FIELDS) {
        const text = fieldErrorOf(error, field) ?? (field === 'groupId' ? fieldErrorOf(error, 'grupa') : undefined);
        if (text) setError(field, { message: text });
      }
    },
  });

  const submit = handleSubmit((v) => {
    const { lozinka, potvrdaLozinke, groupId, ...rest } = v;
    mutation.mutate({
      ...rest,
      groupId: groupless ? '' : (groupId ?? ''),
      ...(lozinka ? { lozinka, potvrdaLozinke: potvrdaLozinke ?? '' } : {}),
    });
  });

  return (
    <FormDialog open={!!user} title={UI.editUserTitle} onClose={onClose} onSubmit={submit} busy={mutation.isPending}>
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' } }}>
        <FormTextField control={control} name="ime" label={UI.ime} autoComplete="off" required />
        <FormTextField control={control} name="prezime" label={UI.prezime} autoComplete="off" required />
        <FormTextField control={control} name="email" label={UI.email} type="email" autoComplete="off" required />
        <FormSwitch
          control={control}
          name="emailPotvrdjen"
          label={UI.emailPotvrdjen}
          onValueChange={(checked) => setValue('status', checked ? 'aktivan' : 'neaktivan')}
        />
        <FormSelect control={control} name="rola" label={UI.role} options={roleChoices} required />
        <FormSelect control={control} name="status" label={UI.status} options={STATUS_OPTIONS} required />
      </Box>
      <FormOptionPicker
        control={control}
        name="groupId"
        label={UI.group}
        options={groupChoices}
        loading={groups.isPending}
        disabled={groupless}
        required={!groupless}
        helperText={groupless ? UI.groupNotForRole : undefined}
      />
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' } }}>
        <FormTextField
          control={control}
          name="lozinka"
          label={UI.newPassword}
          type="password"
          autoComplete="new-password"
          helperText={UI.passwordUnchanged}
        />
        <FormTextField control={control} name="potvrdaLozinke" label={UI.confirmPassword} type="password" autoComplete="new-password" />
      </Box>
    </FormDialog>
  );
}
