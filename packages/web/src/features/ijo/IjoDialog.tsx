import { Alert, Box, Button, Dialog, DialogActions, DialogContent, DialogTitle, Stack } from '@mui/material';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { IJO_ODGOVORAN, type IjoOdgovoran, ijoSchema } from '@trasa/domain';
import { useEffect, useId } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import type { z } from 'zod';
import { fieldErrorOf, messageOf } from '../../api/errors';
import { FormSelect } from '../../components/FormSelect';
import { FormTextField } from '../../components/FormTextField';
import { useSnackbar } from '../../components/SnackbarProvider';
import { zodResolver } from '../../components/validation';
import { IJO } from '../../messages';
import { UI } from '../../texts';
import { createIjo, editIjo, IJO_KEY, type IjoDto } from './api';
import { IJO_LABELS } from './labels';

type IjoForm = z.input<typeof ijoSchema>;
type IjoValues = z.output<typeof ijoSchema>;

const OPTIONS = IJO_ODGOVORAN.map((value) => ({ value, label: IJO.odgovoranLabels[value] }));

function valuesOf(ijo: IjoDto | null): IjoForm {
  return { naziv: ijo?.naziv ?? '', odgovoran: ijo?.odgovoran ?? ('Izvođač' satisfies IjoOdgovoran) };
}

type Props = { open: boolean; ijo: IjoDto | null; onClose: () => void };

/**
 * Add or edit a holder (spec 3 §2.9, §5): the name trimmed and required (save stays disabled while it is
 * empty), the payer Izvođač (default) or Naručilac. A failed save is shown in the dialog: the server's
 * message, or 'Грешка при чувању.'.
 */
export function IjoDialog({ open, ijo, onClose }: Props) {
  const snackbar = useSnackbar();
  const queryClient = useQueryClient();
  const { control, handleSubmit, setError, reset } = useForm<IjoForm, unknown, IjoValues>({
    resolver: zodResolver(ijoSchema),
    defaultValues: valuesOf(ijo),
  });
  const naziv = useWatch({ control, name: 'naziv' });

  const mutation = useMutation({
    mutationFn: (body: IjoValues) => (ijo ? editIjo(ijo._id, body) : createIjo(body)),
    onSuccess: async (data) => {
      snackbar.success(data.message);
      onClose();
      await queryClient.invalidateQueries({ queryKey: IJO_KEY });
    },
    onError: (error) => {
      const text = fieldErrorOf(error, 'naziv');
      if (text) setError('naziv', { message: text });
    },
  });
  const { reset: resetMutation } = mutation;

  useEffect(() => {
    if (open) {
      reset(valuesOf(ijo));
      resetMutation();
    }
  }, [open, ijo, reset, resetMutation]);

  const titleId = useId();
  const busy = mutation.isPending;
  return (
    <Dialog
      open={open}
      onClose={busy ? undefined : onClose}
      aria-labelledby={titleId}
      fullWidth
      maxWidth={false}
      slotProps={{ paper: { sx: { width: '100%', maxWidth: 600 } } }}
    >
      <Box component="form" noValidate onSubmit={handleSubmit((v) => mutation.mutate(v))} aria-labelledby={titleId}>
        <DialogTitle id={titleId}>{ijo ? IJO_LABELS.editTitle : IJO_LABELS.newTitle}</DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 1 }}>
            {mutation.isError && <Alert severity="error">{messageOf(mutation.error, IJO.saveFailed)}</Alert>}
            <FormTextField control={control} name="naziv" label={IJO_LABELS.naziv} autoComplete="off" autoFocus required />
            <FormSelect control={control} name="odgovoran" label={IJO_LABELS.odgovoran} options={OPTIONS} />
          </Stack>
        </DialogContent>
        <DialogActions sx={{ px: 3, pb: 2 }}>
          <Button onClick={onClose} disabled={busy}>
            {UI.cancel}
          </Button>
          <Button type="submit" variant="contained" disabled={busy || !naziv?.trim()}>
            {UI.save}
          </Button>
        </DialogActions>
      </Box>
    </Dialog>
  );
}
