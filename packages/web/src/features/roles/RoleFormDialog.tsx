import { TextField } from '@mui/material';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type RoleDto, roleSchema } from '@trasa/domain';
import { useEffect } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { fieldErrorOf, messageOf } from '../../api/errors';
import { createRole, editRole } from '../../api/roles';
import { FormDialog } from '../../components/FormDialog';
import { FormSelect, type SelectOption } from '../../components/FormSelect';
import { FormTextField } from '../../components/FormTextField';
import { useSnackbar } from '../../components/SnackbarProvider';
import { zodResolver } from '../../components/validation';
import { USERS } from '../../messages';
import { ROLES_KEY } from '../../queries/roles';
import { inScript } from '../../script';
import { UI } from '../../texts';

type RoleInput = z.input<typeof roleSchema>;

/** The base roles an extra role may carry (Admin is never handed out this way). */
const BASE_ROLE_OPTIONS: SelectOption[] = [
  { value: 'Rukovodilac', label: inScript('Rukovodilac') },
  { value: 'Zaposleni', label: inScript('Zaposleni') },
  { value: 'Gost', label: inScript('Gost') },
];

type Props = {
  open: boolean;
  /** The role to edit; null creates one. */
  role: RoleDto | null;
  /**
   * The base role is shown, not chosen: a Rukovodilac renames a role, but an extra role's base (the
   * permissions of everyone holding it, in every group) is the Admin's to change (docs/decisions.md).
   */
  baseLocked?: boolean;
  onClose: () => void;
};

function baseRole(value: string): RoleInput['osnovnaRola'] {
  return value === 'Rukovodilac' || value === 'Zaposleni' || value === 'Gost' ? value : undefined;
}

function valuesOf(role: RoleDto | null): RoleInput {
  if (!role) return { imeRole: '', kratakNaziv: '', osnovnaRola: 'Zaposleni' };
  return { imeRole: role.imeRole, kratakNaziv: role.kratakNaziv, osnovnaRola: role.ugradjena ? undefined : baseRole(role.osnovnaRola) };
}

/** The create- and edit-role modals (spec 1 §2.9): imeRole, kratakNaziv and the base role. */
export function RoleFormDialog({ open, role, baseLocked = false, onClose }: Props) {
  const snackbar = useSnackbar();
  const queryClient = useQueryClient();
  const { control, handleSubmit, setError, reset } = useForm({ resolver: zodResolver(roleSchema), defaultValues: valuesOf(role) });

  useEffect(() => {
    if (open) reset(valuesOf(role));
  }, [open, role, reset]);
  // A built-in role keeps its base role, and so does any role a Rukovodilac edits; the field shows it read-only.
  const fixedBase = role && (role.ugradjena || baseLocked) ? role.osnovnaRola : null;

  const mutation = useMutation({
    mutationFn: (body: z.output<typeof roleSchema>) => (role ? editRole(role._id, body) : createRole(body)),
    onSuccess: async (data) => {
      snackbar.success(data?.message || USERS.roleSaved);
      onClose();
      await queryClient.invalidateQueries({ queryKey: ROLES_KEY });
    },
    onError: (error) => {
      snackbar.error(messageOf(error, USERS.roleSaveFailed));
      for (const field of ['imeRole', 'kratakNaziv', 'osnovnaRola'] as const) {
        const text = fieldErrorOf(error, field);
        if (text) setError(field, { message: text });
      }
    },
  });

  const title = role ? UI.editRoleTitle : UI.newRoleTitle;
  return (
    <FormDialog
      open={open}
      title={title}
      onClose={onClose}
      onSubmit={handleSubmit((v) => mutation.mutate(fixedBase ? { imeRole: v.imeRole, kratakNaziv: v.kratakNaziv } : v))}
      busy={mutation.isPending}
    >
      <FormTextField control={control} name="imeRole" label={UI.imeRole} autoComplete="off" required />
      <FormTextField control={control} name="kratakNaziv" label={UI.kratakNaziv} autoComplete="off" required />
      {fixedBase ? (
        <TextField label={UI.osnovnaRola} value={inScript(fixedBase)} disabled fullWidth />
      ) : (
        <FormSelect control={control} name="osnovnaRola" label={UI.osnovnaRola} options={BASE_ROLE_OPTIONS} />
      )}
    </FormDialog>
  );
}
