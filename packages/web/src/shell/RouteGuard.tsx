import { Alert, Box, Button } from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useDeferredValue, useEffect, useLayoutEffect } from 'react';
import { Navigate, Outlet } from 'react-router';
import { messageOf, statusOf } from '../api/errors';
import { clearToken, getToken, useToken } from '../api/token';
import { NotKeptOffline } from '../components/OfflineNote';
import { PageLoader } from '../components/PageLoader';
import { SHARED } from '../components/sharedTexts';
import { COMMON } from '../messages';
import { keepProfile, PROFILE_PATH, servedFromDevice } from '../offline/kept';
import { isNetworkError } from '../offline/network';
import { OFFLINE } from '../offline/texts';
import { endLightFrame, lightFrameUp } from '../public/LightFrame';
import { CurrentUserProvider, PROFILE_KEY, useProfileQuery } from './session';

/** The shell (top bar, menu, dialog guard) loads with the first /app screen, not with the login page. */
// main.tsx starts loading it with the page for a visit that opens on /app.
const AppShell = lazy(async () => ({ default: (await import('./AppShell')).AppShell }));

/**
 * /app/*: without a token, or when the server refuses the profile call with a 401, the token goes and the
 * visit goes to / (spec 1 §4, §8). A call that never reached the server signs no one out (docs/decisions.md
 * "Offline"): the profile comes from the device's copy (the API client answers with it), and with none
 * kept — or on a server error — the screen says so and offers a retry.
 */
export function RouteGuard() {
  const token = useToken();
  const queryClient = useQueryClient();
  const profile = useProfileQuery();
  const refused = profile.isError && statusOf(profile.error) === 401;

  useEffect(() => {
    if (token && refused) {
      clearToken();
      queryClient.removeQueries({ queryKey: PROFILE_KEY });
    }
  }, [token, refused, queryClient]);

  // The profile as last seen online (the sign-in's answer too, which no profile call fetched) is kept for
  // an offline start; one shown from the device is not saved again as new.
  useEffect(() => {
    if (token && profile.data && servedFromDevice(PROFILE_PATH) === null) {
      void keepProfile(token, profile.data, () => getToken() === token);
    }
  }, [token, profile.data]);

  // The shell and the screen render in a deferred, non-urgent pass (issue 13 item 3): React yields to the
  // browser every few milliseconds there, instead of one long task from the profile's arrival (React
  // Query's store update renders synchronously) to the screen's first commit.
  const user = useDeferredValue(profile.data ?? null, null);
  const leaving = !token || refused;
  // The entry's drawing of the bar (LightFrame) shows until the shell is mounted, unless the visit leaves.
  useLayoutEffect(() => {
    if (leaving) endLightFrame();
  }, [leaving]);

  if (leaving) return <Navigate to="/" replace />;
  if (!profile.data && profile.isError) return <ProfileUnavailable error={profile.error} onRetry={() => void profile.refetch()} />;
  const loader = lightFrameUp() ? null : <PageLoader />;
  if (!user) return loader;
  return (
    <CurrentUserProvider user={user}>
      <Suspense fallback={loader}>
        <AppShell>
          <Outlet />
        </AppShell>
      </Suspense>
    </CurrentUserProvider>
  );
}

/** No profile: offline with none kept on the device, or the server failed (the light frame makes way). */
function ProfileUnavailable({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  useLayoutEffect(() => endLightFrame(), []);
  if (isNetworkError(error)) return <NotKeptOffline text={OFFLINE.notKeptProfile} onRetry={onRetry} />;
  return (
    <Box sx={{ p: 2 }}>
      <Alert
        severity="error"
        action={
          <Button color="inherit" variant="outlined" size="small" onClick={onRetry}>
            {SHARED.retry}
          </Button>
        }
      >
        {messageOf(error, COMMON.serverError)}
      </Alert>
    </Box>
  );
}
