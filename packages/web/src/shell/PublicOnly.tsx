import { useQueryClient } from '@tanstack/react-query';
import { PUBLIC_PATHS } from '@trasa/domain';
import { useEffect, useState } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router';
import { statusOf } from '../api/errors';
import { clearToken, getToken } from '../api/token';
import { PageLoader } from '../components/PageLoader';
import { useDocumentTitle } from '../components/useDocumentTitle';
import { UI } from '../texts';
import { PROFILE_KEY, useProfileQuery } from './session';

/**
 * Public routes: with a stored token whose profile loads, they redirect to /app (spec 1 §2.1). Only the
 * token found on arrival counts, so a fresh login keeps its own 200 ms delayed redirect.
 */
/** The public pages' names, for the tab's title. */
const PUBLIC_TITLES: Record<string, string> = {
  [PUBLIC_PATHS.login]: UI.loginTitle,
  [PUBLIC_PATHS.register]: UI.registerTitle,
  [PUBLIC_PATHS.forgotPassword]: UI.forgotTitle,
  [PUBLIC_PATHS.resetPassword]: UI.resetTitle,
};

export function PublicOnly() {
  const { pathname } = useLocation();
  useDocumentTitle(PUBLIC_TITLES[pathname.replace(/(.)\/+$/, '$1')]);
  const [arrivedWithToken, setArrivedWithToken] = useState(() => !!getToken());
  const queryClient = useQueryClient();
  const profile = useProfileQuery();

  // Only the server's 401 ends the session; without a network (and no profile kept) the page shows, the token stays.
  useEffect(() => {
    if (arrivedWithToken && profile.isError) {
      if (statusOf(profile.error) === 401) {
        clearToken();
        queryClient.removeQueries({ queryKey: PROFILE_KEY });
      }
      setArrivedWithToken(false);
    }
  }, [arrivedWithToken, profile.isError, profile.error, queryClient]);

  if (arrivedWithToken) {
    if (profile.data) return <Navigate to="/app" replace />;
    if (profile.isPending && profile.fetchStatus !== 'idle') return <PageLoader />;
  }
  return <Outlet />;
}
