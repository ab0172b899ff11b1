import { Box } from '@mui/material';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type CreateUserInput, createUserSchema, type RoleDto } from '@trasa/domain';
import { useEffect, useMemo, useRef } from 'react';
import { type FieldErrors, useForm } from 'react-hook-form';
import { fieldErrorOf, messageOf, statusOf } from '../../api/errors';
import { createUser } from '../../api/users';
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
import { UI } from '../../texts';
import { isGroupless, STATUS_OPTIONS, useGroupChoiceOptions, useRoleChoices } from './userForm';

const EMPTY: CreateUserInput = {
  ime: '',
  prezime: '',
  email: '',
  emailPotvrdjen: true,
  rola: '',
  status: 'aktivan',
  grupa: '',
  lozinka: '',
  potvrdaLozinke: '',
};

const SERVER_FIELDS = ['ime', 'prezime', 'email', 'rola', 'status', 'grupa', 'lozinka', 'potvrdaLozinke'] as const;

/** The add-user modal (spec 1 §2.7, §5 "Create user"). */
export function CreateUserDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const snackbar = useSnackbar();
  const queryClient = useQueryClient();
  const { roles } = useAssignableRoles();
  const allRoles = useRoles();
  const groups = useGroupChoices();
  const roleChoices = useRoleChoices(roles);
  const groupChoices = useGroupChoiceOptions(groups.data);
  // The group is required unless the chosen role is groupless: the schema can't know the roles.
  const rolesRef = useRef<RoleDto[]>([]);
  rolesRef.current = allRoles.data ?? [];
  const resolver = useMemo(
    () =>
      withExtraErrors(
        zodResolver(createUserSchema),
        (v): FieldErrors<CreateUserInput> =>
          v.rola && !v.grupa && !isGroupless(rolesRef.current, v.rola) ? { grupa: { type: 'required', message: USERS.invalidOption } } : {},
      ),
    [],
  );
  const { control, handleSubmit, setValue, setError, clearErrors, watch, reset } = useForm({
    resolver,
    defaultValues: EMPTY,
  });
  const groupless = isGroupless(allRoles.data ?? [], watch('rola'));

  // A groupless role clears the group, and with it an error left by an earlier save (it would hide the helper text).
  useEffect(() => {
    if (!groupless) return;
    setValue('grupa', '', { shouldValidate: false });
    clearErrors('grupa');
  }, [groupless, setValue, clearErrors]);

  useEffect(() => {
    if (open) reset(EMPTY);
  }, [open, reset]);

  const mutation = useMutation({
    mutationFn: createUser,
    onSuccess: async () => {
      snackbar.success(USERS.created);
      onClose();
      await queryClient.invalidateQueries({ queryKey: USERS_KEY });
    },
    onError: (error) => {
      snackbar.error(messageOf(error, USERS.createFailed));
      if (statusOf(error) === 409) setError('email', { message: fieldErrorOf(error, 'email') ?? USERS.emailTakenCreate });
      for (const field of SERVER_FIELDS) {
        const text = fieldErrorOf(error, field);
        if (text) setError(field, { message: text });
      }
    },
  });

  const submit = handleSubmit((v) => {
    mutation.mutate({ ...v, grupa: groupless ? '' : (v.grupa ?? '') });
  });

  return (
    <FormDialog open={open} title={UI.newUserTitle} onClose={onClose} onSubmit={submit} busy={mutation.isPending}>
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
        name="grupa"
        label={UI.group}
        options={groupChoices}
        loading={groups.isPending}
        disabled={groupless}
        required={!groupless}
        helperText={groupless ? UI.groupNotForRole : undefined}
      />
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' } }}>
        <FormTextField control={control} name="lozinka" label={UI.lozinka} type="password" autoComplete="new-password" required />
        <FormTextField
          control={control}
          name="potvrdaLozinke"
          label={UI.confirmPassword}
          type="password"
          autoComplete="new-password"
          required
        />
      </Box>
    </FormDialog>
  );
}
