/**
 * The application behind sign-in (issue 13 item 2): MUI's theme, React Query, the snackbar and the whole
 * route table. main.tsx loads this module lazily, so the public pages render without any of it.
 */
import 'dayjs/locale/sr';
import 'dayjs/locale/sr-cyrl';
import { CacheProvider } from '@emotion/react';
import { CssBaseline, ThemeProvider } from '@mui/material';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { UserDto } from '@trasa/domain';
import dayjs from 'dayjs';
import { App } from './App';
import { getMyProfile } from './api/account';
import { observeCalls } from './api/client';
import { setToken } from './api/token';
import { SnackbarProvider } from './components/SnackbarProvider';
import { TipHost } from './components/TipHost';
import { emotionCache } from './emotionCache';
import { deviceCopy } from './offline/deviceCopy';
import { isOnline } from './offline/network';
import { takeEarlyProfile, takeOverSignIn, takePendingUser } from './public/handoff';
import { getScript, setScript } from './script';
import { PROFILE_KEY, retryProfile } from './shell/session';
import { UpdateNotice } from './shell/UpdateNotice';
import { appTheme } from './theme';

// Queries and mutations run whatever the browser says of the network (networkMode 'always'): offline,
// the API client answers from the device's copy or fails at once, so a screen shows its copy or says
// what is not kept, instead of waiting paused (docs/decisions.md "Offline"). A call that got no answer is
// not tried again while the network is down; TanStack Query asks again when the browser is back online.
// The API client keeps the signed-in user's answers on the device and answers from them offline.
observeCalls(deviceCopy);

const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      refetchOnWindowFocus: false,
      networkMode: 'always',
      retry: (failureCount) => isOnline() && failureCount < 3,
    },
    mutations: { retry: false, networkMode: 'always' },
  },
});

// A sign-in on the light page before this module loaded: /app opens with the profile it answered with.
const signedInAs = takePendingUser();
if (signedInAs) queryClient.setQueryData(PROFILE_KEY, signedInAs);
// The profile call main.tsx started for a visit that opens on /app (with the profile query's retries).
const earlyProfile = takeEarlyProfile();
if (earlyProfile && !signedInAs) {
  let first: Promise<UserDto> | null = earlyProfile;
  void queryClient.prefetchQuery({
    queryKey: PROFILE_KEY,
    queryFn: ({ signal }) => {
      const profile = first ?? getMyProfile(signal);
      first = null;
      return profile;
    },
    retry: retryProfile,
  });
}
// Its script wins over the browser's before any screen renders (later: shell/ScriptSwitch useProfileScript).
if (signedInAs?.pismo && signedInAs.pismo !== getScript()) setScript(signedInAs.pismo);
// Month and day names in the user's script (the page loads again when it changes).
dayjs.locale(getScript() === 'lat' ? 'sr' : 'sr-cyrl');
// A later sign-in (after signing out): the previous user's cached data goes, the new profile is kept.
takeOverSignIn((token, user) => {
  queryClient.clear();
  setToken(token);
  if (user) queryClient.setQueryData(PROFILE_KEY, user);
});

export default function FullApp() {
  return (
    <CacheProvider value={emotionCache}>
      <ThemeProvider theme={appTheme()}>
        <CssBaseline />
        <QueryClientProvider client={queryClient}>
          <SnackbarProvider>
            <App />
          </SnackbarProvider>
          <TipHost />
          <UpdateNotice />
        </QueryClientProvider>
      </ThemeProvider>
    </CacheProvider>
  );
}
