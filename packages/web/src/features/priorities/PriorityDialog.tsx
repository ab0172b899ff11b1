import { Box } from '@mui/material';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { prioritySchema } from '@trasa/domain';
import { useEffect } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { fieldErrorOf, messageOf } from '../../api/errors';
import { createPriority, editPriority, type PriorityBody, type PriorityDto } from '../../api/priorities';
import { FormDialog } from '../../components/FormDialog';
import { FormTextField } from '../../components/FormTextField';
import { useSnackbar } from '../../components/SnackbarProvider';
import { zodResolver } from '../../components/validation';
import { CODEBOOKS } from '../../messages';
import { UI } from '../../texts';
import { CODEBOOK_NOTICE_MS } from '../types/GroupTypeDialog';
import { PRIORITIES_KEY } from './queries';

/** The form types the number as text; the domain schema coerces '' to 0, so a blank one is 'Morate upisati Broj.' first. */
const priorityFormSchema = prioritySchema.extend({
  broj: z
    .string()
    .trim()
    .min(1, { error: CODEBOOKS.priorityBrojRequired })
    .transform((value, ctx) => {
      const parsed = prioritySchema.shape.broj.safeParse(value);
      if (parsed.success) return parsed.data;
      ctx.addIssue({ code: 'custom', message: parsed.error.issues[0]?.message ?? CODEBOOKS.priorityBrojRequired });
      return z.NEVER;
    }),
});
type PriorityForm = z.input<typeof priorityFormSchema>;

function valuesOf(p: PriorityDto | null): PriorityForm {
  return { naziv: p?.naziv ?? '', broj: p ? String(p.broj) : '' };
}

type Props = { open: boolean; priority: PriorityDto | null; onClose: () => void };

/** Create or edit a priority (naziv and broj required). */
export function PriorityDialog({ open, priority, onClose }: Props) {
  const snackbar = useSnackbar();
  const queryClient = useQueryClient();
  const { control, handleSubmit, setError, reset } = useForm<PriorityForm, unknown, PriorityBody>({
    resolver: zodResolver(priorityFormSchema),
    defaultValues: valuesOf(priority),
  });

  useEffect(() => {
    if (open) reset(valuesOf(priority));
  }, [open, priority, reset]);

  const mutation = useMutation({
    mutationFn: (body: PriorityBody) => (priority ? editPriority(priority._id, body) : createPriority(body)),
    onSuccess: async (data) => {
      snackbar.success(data?.message || UI.saved, CODEBOOK_NOTICE_MS);
      onClose();
      await queryClient.invalidateQueries({ queryKey: PRIORITIES_KEY });
    },
    onError: (error) => {
      snackbar.error(messageOf(error, CODEBOOKS.failed), CODEBOOK_NOTICE_MS);
      for (const field of ['naziv', 'broj'] as const) {
        const text = fieldErrorOf(error, field);
        if (text) setError(field, { message: text });
      }
    },
  });

  return (
    <FormDialog
      open={open}
      title={priority ? UI.editPriorityTitle : UI.newPriorityTitle}
      onClose={onClose}
      onSubmit={handleSubmit((v) => mutation.mutate(v))}
      busy={mutation.isPending}
    >
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: '3fr 1fr' } }}>
        <FormTextField control={control} name="naziv" label={UI.naziv} autoComplete="off" required />
        <FormTextField
          control={control}
          name="broj"
          label={UI.broj}
          autoComplete="off"
          required
          slotProps={{ htmlInput: { inputMode: 'numeric' } }}
        />
      </Box>
    </FormDialog>
  );
}
