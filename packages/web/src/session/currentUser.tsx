import type { UserDto } from '@trasa/domain';
import { createContext, type ReactNode, useContext } from 'react';

/** The query key of the signed-in user (GET /api/user/my-profile; shell/session.tsx fetches it). */
export const PROFILE_KEY = ['my-profile'] as const;

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
