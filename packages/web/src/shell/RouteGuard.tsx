import { useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useLayoutEffect } from 'react';
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

  const leaving = !token || profile.isError;
  // The entry's drawing of the bar (LightFrame) shows until the shell is mounted, unless the visit leaves.
  useLayoutEffect(() => {
    if (leaving) endLightFrame();
  }, [leaving]);

  if (leaving) return <Navigate to="/" replace />;
  const loader = lightFrameUp() ? null : <PageLoader />;
  if (!profile.data) return loader;
  return (
    <CurrentUserProvider user={profile.data}>
      <Suspense fallback={loader}>
        <AppShell>
          <Outlet />
        </AppShell>
      </Suspense>
    </CurrentUserProvider>
  );
}
