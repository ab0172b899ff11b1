import { Box, Button, Stack, Typography } from '@mui/material';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { changeInfoSchema, type UserDto } from '@trasa/domain';
import { useMemo } from 'react';
import { useForm } from 'react-hook-form';
import { changeInfo } from '../../api/account';
import { fieldErrorOf, messageOf, statusOf } from '../../api/errors';
import { FormTextField } from '../../components/FormTextField';
import { useSnackbar } from '../../components/SnackbarProvider';
import { zodResolver } from '../../components/validation';
import { ACCOUNT } from '../../messages';
import { PROFILE_KEY } from '../../shell/session';
import { UI } from '../../texts';

/** The server's answer for a taken address, or the old backend's duplicate-key text (spec 1 §8). */
function infoFailure(error: unknown): string {
  const message = messageOf(error, ACCOUNT.infoChangeFailed);
  return message.includes(ACCOUNT.duplicateKeyServerPhrase) ? ACCOUNT.infoEmailTaken : message;
}

/**
 * First name, last name and e-mail of the signed-in user (spec 1 §2.5). A new e-mail asks for the
 * current password and takes effect once confirmed from the new address (the answer says so).
 */
export function ChangeInfoForm({ user }: { user: UserDto }) {
  const snackbar = useSnackbar();
  const queryClient = useQueryClient();
  const values = useMemo(
    () => ({ ime: user.ime, prezime: user.prezime, email: user.email, lozinka: '' }),
    [user.ime, user.prezime, user.email],
  );
  const { control, handleSubmit, setError, resetField, watch } = useForm({ resolver: zodResolver(changeInfoSchema), values });
  const emailChanges = (watch('email') ?? '').trim().toLowerCase() !== user.email.toLowerCase();

  const mutation = useMutation({
    mutationFn: changeInfo,
    onSuccess: async (data) => {
      snackbar.success(data?.message || ACCOUNT.infoChanged, data?.message === ACCOUNT.emailChangePending ? 8000 : undefined);
      resetField('lozinka');
      await queryClient.invalidateQueries({ queryKey: PROFILE_KEY });
    },
    onError: (error) => {
      const message = infoFailure(error);
      snackbar.error(message);
      if (statusOf(error) === 409 || message === ACCOUNT.infoEmailTaken) {
        setError('email', { message: fieldErrorOf(error, 'email') ?? message });
      }
      const password = fieldErrorOf(error, 'lozinka') ?? (statusOf(error) === 429 ? message : undefined);
      if (password) setError('lozinka', { message: password }, { shouldFocus: true });
    },
  });

  return (
    <Box
      component="form"
      noValidate
      aria-labelledby="change-info-title"
      onSubmit={handleSubmit(({ lozinka, ...rest }) => mutation.mutate(emailChanges ? { ...rest, lozinka: lozinka ?? '' } : rest))}
    >
      <Typography id="change-info-title" variant="h3" gutterBottom>
        {UI.infoTitle}
      </Typography>
      <Stack spacing={2}>
        <FormTextField control={control} name="ime" label={UI.ime} autoComplete="given-name" required />
        <FormTextField control={control} name="prezime" label={UI.prezime} autoComplete="family-name" required />
        <FormTextField control={control} name="email" label={UI.email} type="email" autoComplete="email" required />
        {emailChanges && (
          <FormTextField
            control={control}
            name="lozinka"
            label={UI.currentPassword}
            type="password"
            autoComplete="current-password"
            helperText={ACCOUNT.emailChangeHint}
          />
        )}
        <Box>
          <Button type="submit" variant="contained" disabled={mutation.isPending}>
            {UI.saveInfo}
          </Button>
        </Box>
      </Stack>
    </Box>
  );
}
