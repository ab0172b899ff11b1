import { zodResolver } from '@hookform/resolvers/zod';
import { Box, Button, Link, Stack } from '@mui/material';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { landingPath, loginSchema, PUBLIC_PATHS } from '@trasa/domain';
import { useEffect, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link as RouterLink, useSearchParams } from 'react-router';
import { login, resendActivation } from '../../api/account';
import { messageOf, statusOf } from '../../api/errors';
import { setToken } from '../../api/token';
import { FormTextField } from '../../components/FormTextField';
import { useSnackbar } from '../../components/SnackbarProvider';
import { useDelayedNavigate } from '../../components/useDelayedNavigate';
import { ACCOUNT, COMMON } from '../../messages';
import { PROFILE_KEY } from '../../shell/session';
import { UI } from '../../texts';
import { AuthLayout } from './AuthLayout';

/** Delay of the redirect after a successful login (spec 1 §2.1). */
const REDIRECT_MS = 200;
const ACTIVATION_NOTICE_MS = 4000;

/**
 * The result of following a mailed link: the server redirects to /?aktivacija=uspesna|neuspesna
 * (activation) or /?imejl=potvrdjen|neuspesno (a new e-mail address confirmed).
 */
const LINK_NOTICES: Record<string, { okValue: string; done: string; failed: string }> = {
  aktivacija: { okValue: 'uspesna', done: ACCOUNT.activationDone, failed: ACCOUNT.activationInvalid },
  imejl: { okValue: 'potvrdjen', done: ACCOUNT.emailChangeDone, failed: ACCOUNT.emailChangeInvalid },
};

function useLinkNotice() {
  const [params, setParams] = useSearchParams();
  const snackbar = useSnackbar();
  const shown = useRef(false);
  const param = Object.keys(LINK_NOTICES).find((p) => params.has(p));
  const value = param ? params.get(param) : null;
  useEffect(() => {
    if (!param || shown.current) return;
    shown.current = true;
    const notice = LINK_NOTICES[param];
    if (notice && value === notice.okValue) snackbar.success(notice.done, ACTIVATION_NOTICE_MS);
    else if (notice) snackbar.error(notice.failed, ACTIVATION_NOTICE_MS);
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.delete(param);
        return next;
      },
      { replace: true },
    );
  }, [param, value, setParams, snackbar]);
}

export function LoginPage() {
  useLinkNotice();
  const queryClient = useQueryClient();
  const navigateLater = useDelayedNavigate();
  const snackbar = useSnackbar();
  // Shown when sign-in answered that the e-mail is not confirmed yet: the link may have expired.
  const [offerResend, setOfferResend] = useState(false);
  const { control, handleSubmit, setError, getValues } = useForm({
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
      setOfferResend(message === ACCOUNT.inactiveUser);
    },
  });

  const resend = useMutation({
    mutationFn: () => resendActivation(getValues('email').trim()),
    onSuccess: (data) => {
      snackbar.success(data?.message ?? ACCOUNT.resendActivationSent, ACTIVATION_NOTICE_MS);
      setOfferResend(false);
    },
    onError: (error) => snackbar.error(messageOf(error, COMMON.networkError)),
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
          {offerResend && (
            <Button variant="text" onClick={() => resend.mutate()} disabled={resend.isPending}>
              {ACCOUNT.resendActivationLink}
            </Button>
          )}
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
