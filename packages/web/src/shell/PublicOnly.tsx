import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Navigate, Outlet } from 'react-router';
import { clearToken, getToken } from '../api/token';
import { PageLoader } from '../components/PageLoader';
import { PROFILE_KEY, useProfileQuery } from './session';

/**
 * Public routes: with a stored token whose profile loads, they redirect to /app (spec 1 §2.1). Only the
 * token found on arrival counts, so a fresh login keeps its own 200 ms delayed redirect.
 */
export function PublicOnly() {
  const [arrivedWithToken, setArrivedWithToken] = useState(() => !!getToken());
  const queryClient = useQueryClient();
  const profile = useProfileQuery();

  useEffect(() => {
    if (arrivedWithToken && profile.isError) {
      clearToken();
      queryClient.removeQueries({ queryKey: PROFILE_KEY });
      setArrivedWithToken(false);
    }
  }, [arrivedWithToken, profile.isError, queryClient]);

  if (arrivedWithToken) {
    if (profile.data) return <Navigate to="/app" replace />;
    if (profile.isPending && profile.fetchStatus !== 'idle') return <PageLoader />;
  }
  return <Outlet />;
}
