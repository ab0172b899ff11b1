import type { UserDto } from '@trasa/domain';
import { setToken } from '../api/token';

/**
 * Sign-in hands the session to the application (issue 13 item 2): the light public pages store the token;
 * once the application is loaded (FullApp) it also clears the previous user's cached data and keeps the
 * profile the sign-in answered with, so /app opens without asking for it again.
 */
type SignedIn = (token: string, user: UserDto | undefined) => void;

let pendingUser: UserDto | undefined;
let handler: SignedIn = (token, user) => {
  setToken(token);
  pendingUser = user;
};

export function signedIn(token: string, user: UserDto | undefined): void {
  handler(token, user);
}

/** The application takes over sign-in once it is loaded. */
export function takeOverSignIn(next: SignedIn): void {
  handler = next;
}

/** The profile a sign-in before the application loaded answered with (once). */
export function takePendingUser(): UserDto | undefined {
  const user = pendingUser;
  pendingUser = undefined;
  return user;
}

let earlyProfile: Promise<UserDto> | null = null;

/** main.tsx: a visit that starts on /app with a token asks for the profile while the application loads. */
export function startEarlyProfile(profile: Promise<UserDto>): void {
  // Its failure is the profile query's to report (FullApp hands the promise over to it).
  profile.catch(() => undefined);
  earlyProfile = profile;
}

/** The profile call main.tsx started (once), or null. */
export function takeEarlyProfile(): Promise<UserDto> | null {
  const profile = earlyProfile;
  earlyProfile = null;
  return profile;
}
