import { zodResolver } from '@hookform/resolvers/zod';
import { Box, Button, Stack, Typography } from '@mui/material';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ACCOUNT, changeInfoSchema, type UserDto } from '@trasa/domain';
import { useMemo } from 'react';
import { useForm } from 'react-hook-form';
import { changeInfo } from '../../api/account';
import { fieldErrorOf, messageOf, statusOf } from '../../api/errors';
import { FormTextField } from '../../components/FormTextField';
import { useSnackbar } from '../../components/SnackbarProvider';
import { PROFILE_KEY } from '../../shell/session';
import { UI } from '../../texts';

/** The server's answer for a taken address, or the old backend's duplicate-key text (spec 1 §8). */
function infoFailure(error: unknown): string {
  const message = messageOf(error, ACCOUNT.infoChangeFailed);
  return message.includes(ACCOUNT.duplicateKeyServerPhrase) ? ACCOUNT.infoEmailTaken : message;
}

/** First name, last name and e-mail of the signed-in user (spec 1 §2.5). */
export function ChangeInfoForm({ user }: { user: UserDto }) {
  const snackbar = useSnackbar();
  const queryClient = useQueryClient();
  const values = useMemo(() => ({ ime: user.ime, prezime: user.prezime, email: user.email }), [user.ime, user.prezime, user.email]);
  const { control, handleSubmit, setError } = useForm({ resolver: zodResolver(changeInfoSchema), values });

  const mutation = useMutation({
    mutationFn: changeInfo,
    onSuccess: async () => {
      snackbar.success(ACCOUNT.infoChanged);
      await queryClient.invalidateQueries({ queryKey: PROFILE_KEY });
    },
    onError: (error) => {
      const message = infoFailure(error);
      snackbar.error(message);
      if (statusOf(error) === 409 || message === ACCOUNT.infoEmailTaken) {
        setError('email', { message: fieldErrorOf(error, 'email') ?? message });
      }
    },
  });

  return (
    <Box component="form" noValidate aria-labelledby="change-info-title" onSubmit={handleSubmit((v) => mutation.mutate(v))}>
      <Typography id="change-info-title" variant="h3" gutterBottom>
        {UI.infoTitle}
      </Typography>
      <Stack spacing={2}>
        <FormTextField control={control} name="ime" label={UI.ime} autoComplete="given-name" />
        <FormTextField control={control} name="prezime" label={UI.prezime} autoComplete="family-name" />
        <FormTextField control={control} name="email" label={UI.email} type="email" autoComplete="email" />
        <Box>
          <Button type="submit" variant="contained" disabled={mutation.isPending}>
            {UI.saveInfo}
          </Button>
        </Box>
      </Stack>
    </Box>
  );
}
