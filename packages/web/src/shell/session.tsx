import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { UserDto } from '@trasa/domain';
import { createContext, type ReactNode, useCallback, useContext } from 'react';
import { useNavigate } from 'react-router';
import { getMyProfile } from '../api/account';
import { ApiError } from '../api/client';
import { clearToken, useToken } from '../api/token';

export const PROFILE_KEY = ['my-profile'] as const;

/** Client errors (bad or revoked token) are final; network and server errors get two more tries. */
function retryProfile(failureCount: number, error: unknown): boolean {
  if (error instanceof ApiError && error.status >= 400 && error.status < 500) return false;
  return failureCount < 2;
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

/** Ends the session: token and cached data removed, back to the login page (spec 1 §4 "Session"). */
export function useEndSession(): () => void {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return useCallback(() => {
    clearToken();
    queryClient.clear();
    navigate('/', { replace: true });
  }, [queryClient, navigate]);
}

const CurrentUserContext = createContext<UserDto | null>(null);

export function CurrentUserProvider({ user, children }: { user: UserDto; children: ReactNode }) {
  return <CurrentUserContext.Provider value={user}>{children}</CurrentUserContext.Provider>;
}

/** The signed-in user; only inside /app, below the RouteGuard. */
export function useCurrentUser(): UserDto {
  const user = useContext(CurrentUserContext);
  if (!user) throw new Error('useCurrentUser outside the RouteGuard');
  return user;
}
