import { zodResolver } from '@hookform/resolvers/zod';
import { Box, Button, Link, Stack } from '@mui/material';
import { useMutation } from '@tanstack/react-query';
import { forgotPasswordSchema, PUBLIC_PATHS } from '@trasa/domain';
import { useForm } from 'react-hook-form';
import { Link as RouterLink } from 'react-router';
import { requestPasswordReset } from '../../api/account';
import { messageOf } from '../../api/errors';
import { FormTextField } from '../../components/FormTextField';
import { useSnackbar } from '../../components/SnackbarProvider';
import { useDelayedNavigate } from '../../components/useDelayedNavigate';
import { ACCOUNT } from '../../messages';
import { UI } from '../../texts';
import { AuthLayout } from './AuthLayout';

const REDIRECT_MS = 2000;

/** Requests a reset link; the server's answer is shown, then the login page after 2 s (spec 1 §2.4). */
export function ForgotPasswordPage() {
  const snackbar = useSnackbar();
  const navigateLater = useDelayedNavigate();
  const { control, handleSubmit } = useForm({
    resolver: zodResolver(forgotPasswordSchema),
    defaultValues: { email: '' },
  });

  const mutation = useMutation({
    mutationFn: (email: string) => requestPasswordReset(email),
    onSuccess: (data) => {
      snackbar.success(data?.message || ACCOUNT.forgotSent, REDIRECT_MS);
      navigateLater(PUBLIC_PATHS.login, REDIRECT_MS);
    },
    onError: (error) => snackbar.error(messageOf(error, ACCOUNT.forgotFailed)),
  });

  return (
    <AuthLayout title={UI.forgotTitle}>
      <Box component="form" noValidate onSubmit={handleSubmit((values) => mutation.mutate(values.email))}>
        <Stack spacing={2}>
          <FormTextField control={control} name="email" label={UI.email} type="email" autoComplete="email" autoFocus />
          <Button type="submit" variant="contained" size="large" disabled={mutation.isPending || mutation.isSuccess}>
            {UI.forgotButton}
          </Button>
          <Link component={RouterLink} to={PUBLIC_PATHS.login}>
            {UI.backToLogin}
          </Link>
        </Stack>
      </Box>
    </AuthLayout>
  );
}
