import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Box, Button, Link, Stack } from '@mui/material';
import { useMutation } from '@tanstack/react-query';
import { PUBLIC_PATHS, resetPasswordFormSchema } from '@trasa/domain';
import { useForm } from 'react-hook-form';
import { Link as RouterLink, useSearchParams } from 'react-router';
import { setNewPassword } from '../../api/account';
import { fieldErrorOf, messageOf } from '../../api/errors';
import { FormTextField } from '../../components/FormTextField';
import { useSnackbar } from '../../components/SnackbarProvider';
import { useDelayedNavigate } from '../../components/useDelayedNavigate';
import { ACCOUNT } from '../../messages';
import { UI } from '../../texts';
import { AuthLayout } from './AuthLayout';

const REDIRECT_MS = 1500;

/** Sets a new password from the mailed link /reset-lozninke?email=…&code=… (spec 1 §2.1, §2.4). */
export function ResetPasswordPage() {
  const [params] = useSearchParams();
  const email = params.get('email')?.trim() ?? '';
  const resetCode = params.get('code')?.trim() ?? '';
  const linkValid = !!email && !!resetCode;
  const snackbar = useSnackbar();
  const navigateLater = useDelayedNavigate();
  const { control, handleSubmit, setError } = useForm({
    resolver: zodResolver(resetPasswordFormSchema),
    defaultValues: { password: '', confirmPassword: '' },
  });

  const mutation = useMutation({
    mutationFn: setNewPassword,
    onSuccess: () => {
      snackbar.success(ACCOUNT.resetSuccess);
      navigateLater(PUBLIC_PATHS.login, REDIRECT_MS);
    },
    onError: (error) => {
      snackbar.error(messageOf(error, ACCOUNT.resetFailed));
      // A password the server refuses (too common, built on the name): shown under the field too.
      const text = fieldErrorOf(error, 'password');
      if (text) setError('password', { message: text }, { shouldFocus: true });
    },
  });

  return (
    <AuthLayout title={UI.resetTitle}>
      <Box
        component="form"
        noValidate
        onSubmit={handleSubmit((values) => {
          if (!linkValid) snackbar.error(ACCOUNT.resetLinkInvalid);
          else mutation.mutate({ ...values, email, resetCode });
        })}
      >
        <Stack spacing={2}>
          {!linkValid && <Alert severity="warning">{ACCOUNT.resetLinkInvalid}</Alert>}
          <FormTextField control={control} name="password" label={UI.newPassword} type="password" autoComplete="new-password" autoFocus />
          <FormTextField control={control} name="confirmPassword" label={UI.confirmPassword} type="password" autoComplete="new-password" />
          <Button type="submit" variant="contained" size="large" disabled={mutation.isPending || mutation.isSuccess}>
            {UI.resetButton}
          </Button>
          <Link component={RouterLink} to={PUBLIC_PATHS.login}>
            {UI.backToLogin}
          </Link>
        </Stack>
      </Box>
    </AuthLayout>
  );
}
