import { zodResolver } from '@hookform/resolvers/zod';
import { Box, Button, Link, Stack } from '@mui/material';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ACCOUNT, COMMON, landingPath, loginSchema, PUBLIC_PATHS } from '@trasa/domain';
import { useEffect, useRef } from 'react';
import { useForm } from 'react-hook-form';
import { Link as RouterLink, useSearchParams } from 'react-router';
import { login } from '../../api/account';
import { messageOf, statusOf } from '../../api/errors';
import { setToken } from '../../api/token';
import { FormTextField } from '../../components/FormTextField';
import { useSnackbar } from '../../components/SnackbarProvider';
import { useDelayedNavigate } from '../../components/useDelayedNavigate';
import { PROFILE_KEY } from '../../shell/session';
import { UI } from '../../texts';
import { AuthLayout } from './AuthLayout';

/** Delay of the redirect after a successful login (spec 1 §2.1). */
const REDIRECT_MS = 200;
const ACTIVATION_NOTICE_MS = 4000;

/** The result of following the activation link: the server redirects to /?aktivacija=uspesna|neuspesna. */
function useActivationNotice() {
  const [params, setParams] = useSearchParams();
  const snackbar = useSnackbar();
  const shown = useRef(false);
  const result = params.get('aktivacija');
  useEffect(() => {
    if (!result || shown.current) return;
    shown.current = true;
    if (result === 'uspesna') snackbar.success(ACCOUNT.activationDone, ACTIVATION_NOTICE_MS);
    else snackbar.error(ACCOUNT.activationInvalid, ACTIVATION_NOTICE_MS);
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.delete('aktivacija');
        return next;
      },
      { replace: true },
    );
  }, [result, setParams, snackbar]);
}

export function LoginPage() {
  useActivationNotice();
  const queryClient = useQueryClient();
  const navigateLater = useDelayedNavigate();
  const { control, handleSubmit, setError } = useForm({
    resolver: zodResolver(loginSchema),
    defaultValues: { email: '', lozinka: '' },
  });

  const mutation = useMutation({
    mutationFn: login,
    onSuccess: ({ token, user }) => {
      if (!token) {
        setError('lozinka', { message: ACCOUNT.noToken });
        return;
      }
      queryClient.clear();
      setToken(token);
      if (user) queryClient.setQueryData(PROFILE_KEY, user);
      navigateLater(user ? landingPath(user.rola) : '/app', REDIRECT_MS, { replace: true });
    },
    onError: (error) => {
      // Spec 1 §8: without a server message, sign-in says 'Network or server error' (a network failure too).
      const message = statusOf(error) === 0 ? COMMON.networkError : messageOf(error, COMMON.networkError);
      setError(message.includes('Korisnik') ? 'email' : 'lozinka', { message }, { shouldFocus: true });
    },
  });

  const busy = mutation.isPending || (mutation.isSuccess && !!mutation.data.token);

  return (
    <AuthLayout title={UI.loginTitle}>
      <Box component="form" noValidate onSubmit={handleSubmit((values) => mutation.mutate(values))}>
        <Stack spacing={2}>
          <FormTextField control={control} name="email" label={UI.email} type="email" autoComplete="username" autoFocus />
          <FormTextField control={control} name="lozinka" label={UI.lozinka} type="password" autoComplete="current-password" />
          <Button type="submit" variant="contained" size="large" disabled={busy}>
            {UI.loginButton}
          </Button>
          <Stack direction="row" justifyContent="space-between" flexWrap="wrap" gap={1}>
            <Link component={RouterLink} to={PUBLIC_PATHS.register}>
              {UI.registerLink}
            </Link>
            <Link component={RouterLink} to={PUBLIC_PATHS.forgotPassword}>
              {UI.forgotLink}
            </Link>
          </Stack>
        </Stack>
      </Box>
    </AuthLayout>
  );
}
