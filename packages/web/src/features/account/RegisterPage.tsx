import { zodResolver } from '@hookform/resolvers/zod';
import { Box, Button, Link, Stack } from '@mui/material';
import { useMutation } from '@tanstack/react-query';
import { PUBLIC_PATHS, signupSchema } from '@trasa/domain';
import { useForm } from 'react-hook-form';
import { Link as RouterLink } from 'react-router';
import { signup } from '../../api/account';
import { fieldErrorOf, messageOf, statusOf } from '../../api/errors';
import { FormTextField } from '../../components/FormTextField';
import { useSnackbar } from '../../components/SnackbarProvider';
import { useDelayedNavigate } from '../../components/useDelayedNavigate';
import { ACCOUNT } from '../../messages';
import { UI } from '../../texts';
import { AuthLayout } from './AuthLayout';

/** After sign-up the page waits 4 s on the notice, then goes to the login page (spec 1 §2.4). */
const REDIRECT_MS = 4000;

export function RegisterPage() {
  const snackbar = useSnackbar();
  const navigateLater = useDelayedNavigate();
  const { control, handleSubmit, setError } = useForm({
    resolver: zodResolver(signupSchema),
    defaultValues: { ime: '', prezime: '', email: '', lozinka: '' },
  });

  const mutation = useMutation({
    mutationFn: signup,
    onSuccess: () => {
      snackbar.success(ACCOUNT.signupSuccess, REDIRECT_MS);
      navigateLater(PUBLIC_PATHS.login, REDIRECT_MS);
    },
    onError: (error) => {
      const message = messageOf(error, ACCOUNT.signupFailed);
      snackbar.error(message);
      if (statusOf(error) === 409) setError('email', { message: fieldErrorOf(error, 'email') ?? message }, { shouldFocus: true });
      for (const field of ['ime', 'prezime', 'lozinka'] as const) {
        const text = statusOf(error) === 400 ? fieldErrorOf(error, field) : undefined;
        if (text) setError(field, { message: text });
      }
    },
  });

  return (
    <AuthLayout title={UI.registerTitle}>
      <Box component="form" noValidate onSubmit={handleSubmit((values) => mutation.mutate(values))}>
        <Stack spacing={2}>
          <FormTextField control={control} name="ime" label={UI.ime} autoComplete="given-name" autoFocus />
          <FormTextField control={control} name="prezime" label={UI.prezime} autoComplete="family-name" />
          <FormTextField control={control} name="email" label={UI.email} type="email" autoComplete="email" />
          <FormTextField control={control} name="lozinka" label={UI.lozinka} type="password" autoComplete="new-password" />
          <Button type="submit" variant="contained" size="large" disabled={mutation.isPending || mutation.isSuccess}>
            {UI.registerButton}
          </Button>
          <Link component={RouterLink} to={PUBLIC_PATHS.login}>
            {UI.backToLogin}
          </Link>
        </Stack>
      </Box>
    </AuthLayout>
  );
}
