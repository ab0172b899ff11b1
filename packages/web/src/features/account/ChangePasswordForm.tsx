import { Box, Button, Stack, Typography } from '@mui/material';
import { useMutation } from '@tanstack/react-query';
import { changePasswordSchema } from '@trasa/domain';
import { useForm } from 'react-hook-form';
import { changePassword } from '../../api/account';
import { fieldErrorOf, messageOf } from '../../api/errors';
import { setToken } from '../../api/token';
import { FormTextField } from '../../components/FormTextField';
import { useSnackbar } from '../../components/SnackbarProvider';
import { zodResolver } from '../../components/validation';
import { ACCOUNT } from '../../messages';
import { UI } from '../../texts';

/** The server's message, with the old backend's length error replaced by the spec's warning (spec 1 §5). */
function passwordFailure(error: unknown): string {
  const message = messageOf(error, ACCOUNT.passwordChangeFailed);
  return message.includes(ACCOUNT.shortPasswordServerPhrase) ? ACCOUNT.passwordShortLatin : message;
}

const EMPTY = { password: '', newPassword: '', confirmNewPassword: '' };

/** Old password, new password and its confirmation; the answer's token replaces the stored one. */
export function ChangePasswordForm() {
  const snackbar = useSnackbar();
  const { control, handleSubmit, setError, reset } = useForm({ resolver: zodResolver(changePasswordSchema), defaultValues: EMPTY });

  const mutation = useMutation({
    mutationFn: changePassword,
    onSuccess: (data) => {
      // The change revokes every older token, this session's included.
      if (data?.token) setToken(data.token);
      snackbar.success(ACCOUNT.passwordChanged);
      reset(EMPTY);
    },
    onError: (error) => {
      const message = passwordFailure(error);
      snackbar.error(message);
      for (const field of ['password', 'newPassword', 'confirmNewPassword'] as const) {
        const text = fieldErrorOf(error, field);
        if (text) setError(field, { message: text.includes(ACCOUNT.shortPasswordServerPhrase) ? ACCOUNT.passwordShortLatin : text });
      }
    },
  });

  return (
    <Box component="form" noValidate aria-labelledby="change-password-title" onSubmit={handleSubmit((v) => mutation.mutate(v))}>
      <Typography id="change-password-title" variant="h3" gutterBottom>
        {UI.passwordTitle}
      </Typography>
      <Stack spacing={2}>
        <FormTextField
          control={control}
          name="password"
          label={UI.currentPassword}
          type="password"
          autoComplete="current-password"
          required
        />
        <FormTextField control={control} name="newPassword" label={UI.newPassword} type="password" autoComplete="new-password" required />
        <FormTextField
          control={control}
          name="confirmNewPassword"
          label={UI.confirmNewPassword}
          type="password"
          autoComplete="new-password"
          required
        />
        <Box>
          <Button type="submit" variant="contained" disabled={mutation.isPending}>
            {UI.changePassword}
          </Button>
        </Box>
      </Stack>
    </Box>
  );
}
