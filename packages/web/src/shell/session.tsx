import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import { getMyProfile, logout } from '../api/account';
import { ApiError } from '../api/client';
import { clearToken, getToken, useToken } from '../api/token';
import { userIdOfToken } from '../offline/kept';
import { isOnline } from '../offline/network';
import { signedOut } from '../offline/session';
import { PROFILE_KEY } from '../session/currentUser';

/** The signed-in user's key and context live in session/currentUser.tsx, below the components. */
export { CurrentUserProvider, PROFILE_KEY, useCurrentUser } from '../session/currentUser';

/**
 * Client errors (bad or revoked token) are final; server errors get two more tries, and so do network
 * errors once the network is back (offline, the API client answered from the device's copy if it could).
 */
export function retryProfile(failureCount: number, error: unknown): boolean {
  if (error instanceof ApiError && error.status >= 400 && error.status < 500) return false;
  return failureCount < 2 && isOnline();
}

/** The signed-in user (GET /api/user/my-profile), fetched only while a token is stored. */
export function useProfileQuery() {
  const token = useToken();
  return useQuery({
    queryKey: PROFILE_KEY,
    queryFn: ({ signal }) => getMyProfile(signal),
    enabled: !!token,
    retry: retryProfile,
    staleTime: 30_000,
  });
}

/** What else a session's end removes from the device (the shell adds the queue of changes made offline). */
const endHooks = new Set<() => Promise<void>>();

export function onSessionEnd(hook: () => Promise<void>): () => void {
  endHooks.add(hook);
  return () => endHooks.delete(hook);
}

/**
 * Ends the session: token, cached data, the device's copy (offline/session.ts) and what else the device
 * keeps for it (onSessionEnd: the queue) removed, back to the login page (spec 1 §4 "Session").
 */
export function useEndSession(): () => Promise<void> {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return useCallback(async () => {
    const userId = userIdOfToken(getToken());
    // Taken before the token goes: the shell that added them unmounts then.
    const hooks = [...endHooks];
    clearToken();
    queryClient.clear();
    await Promise.all(hooks.map((hook) => hook().catch((error) => console.error('clearing the device failed', error))));
    navigate('/', { replace: true });
    await signedOut('signOut', userId);
  }, [queryClient, navigate]);
}

/** How long sign-out waits for the server before it ends the session here anyway. */
const LOGOUT_WAIT_MS = 3000;

/**
 * 'Крај рада': the server revokes this session's token (POST /api/user/logout), then the session ends
 * here — also when the call fails or takes too long, so nobody is kept signed in by a network error.
 */
export function useLogout(): () => Promise<void> {
  const endSession = useEndSession();
  return useCallback(async () => {
    if (getToken()) {
      const controller = new AbortController();
      const timer = setTimeout(() => controller.abort(), LOGOUT_WAIT_MS);
      await logout(controller.signal).catch(() => undefined);
      clearTimeout(timer);
    }
    await endSession();
  }, [endSession]);
}
