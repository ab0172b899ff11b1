import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Navigate, Outlet } from 'react-router';
import { clearToken, useToken } from '../api/token';
import { PageLoader } from '../components/PageLoader';
import { AppShell } from './AppShell';
import { CurrentUserProvider, PROFILE_KEY, useProfileQuery } from './session';

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

  if (!token || profile.isError) return <Navigate to="/" replace />;
  if (!profile.data) return <PageLoader />;
  return (
    <CurrentUserProvider user={profile.data}>
      <AppShell>
        <Outlet />
      </AppShell>
    </CurrentUserProvider>
  );
}
