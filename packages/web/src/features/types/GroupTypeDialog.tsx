import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type GroupTypeDto, groupTypeSchema } from '@trasa/domain';
import { useEffect } from 'react';
import { useForm } from 'react-hook-form';
import { fieldErrorOf, messageOf } from '../../api/errors';
import { createType, editType, type GroupTypeBody } from '../../api/types';
import { FormDialog } from '../../components/FormDialog';
import { FormTextField } from '../../components/FormTextField';
import { useSnackbar } from '../../components/SnackbarProvider';
import { zodResolver } from '../../components/validation';
import { USERS } from '../../messages';
import { GROUPS_KEY } from '../../queries/groups';
import { TYPES_KEY } from '../../queries/types';
import { UI } from '../../texts';

/** Codebook notices stay 3.5 s (spec 2 §8). */
export const CODEBOOK_NOTICE_MS = 3500;

function valuesOf(type: GroupTypeDto | null): GroupTypeBody {
  return { naziv: type?.naziv ?? '', kratakNaziv: type?.kratakNaziv ?? '' };
}

/** Create or edit a group type (naziv, kratakNaziv). */
export function GroupTypeDialog({ open, type, onClose }: { open: boolean; type: GroupTypeDto | null; onClose: () => void }) {
  const snackbar = useSnackbar();
  const queryClient = useQueryClient();
  const { control, handleSubmit, setError, reset } = useForm({ resolver: zodResolver(groupTypeSchema), defaultValues: valuesOf(type) });

  useEffect(() => {
    if (open) reset(valuesOf(type));
  }, [open, type, reset]);

  const mutation = useMutation({
    mutationFn: (body: GroupTypeBody) => (type ? editType(type._id, body) : createType(body)),
    onSuccess: async (data) => {
      snackbar.success(data?.message || UI.saved, CODEBOOK_NOTICE_MS);
      onClose();
      await queryClient.invalidateQueries({ queryKey: TYPES_KEY });
      await queryClient.invalidateQueries({ queryKey: GROUPS_KEY });
    },
    onError: (error) => {
      snackbar.error(messageOf(error, USERS.codebookError), CODEBOOK_NOTICE_MS);
      for (const field of ['naziv', 'kratakNaziv'] as const) {
        const text = fieldErrorOf(error, field);
        if (text) setError(field, { message: text });
      }
    },
  });

  return (
    <FormDialog
      open={open}
      title={type ? UI.editGroupTypeTitle : UI.newGroupTypeTitle}
      onClose={onClose}
      onSubmit={handleSubmit((v) => mutation.mutate(v))}
      busy={mutation.isPending}
    >
      <FormTextField control={control} name="naziv" label={UI.naziv} autoComplete="off" required />
      <FormTextField control={control} name="kratakNaziv" label={UI.kratakNaziv} autoComplete="off" required />
    </FormDialog>
  );
}
