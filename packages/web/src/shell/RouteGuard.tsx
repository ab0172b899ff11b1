import { useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useDeferredValue, useEffect, useLayoutEffect } from 'react';
import { Navigate, Outlet } from 'react-router';
import { clearToken, useToken } from '../api/token';
import { PageLoader } from '../components/PageLoader';
import { endLightFrame, lightFrameUp } from '../public/LightFrame';
import { CurrentUserProvider, PROFILE_KEY, useProfileQuery } from './session';

/** The shell (top bar, menu, dialog guard) loads with the first /app screen, not with the login page. */
// main.tsx starts loading it with the page for a visit that opens on /app.
const AppShell = lazy(async () => ({ default: (await import('./AppShell')).AppShell }));

/** /app/*: no token or a failed profile fetch removes the token and goes to / (spec 1 §4, §8). */
export function RouteGuard() {
  const token = useToken();
  const queryClient = useQueryClient();
  const profile = useProfileQuery();

  useEffect(() => {
    if (token && profile.isError) {
      clearToken();
      queryClient.removeQueries({ queryKey: PROFILE_KEY });
    }
  }, [token, profile.isError, queryClient]);

  // The shell and the screen render in a deferred, non-urgent pass (issue 13 item 3): React yields to the
  // browser every few milliseconds there, instead of one long task from the profile's arrival (React
  // Query's store update renders synchronously) to the screen's first commit.
  const user = useDeferredValue(profile.data ?? null, null);
  const leaving = !token || profile.isError;
  // The entry's drawing of the bar (LightFrame) shows until the shell is mounted, unless the visit leaves.
  useLayoutEffect(() => {
    if (leaving) endLightFrame();
  }, [leaving]);

  if (leaving) return <Navigate to="/" replace />;
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
