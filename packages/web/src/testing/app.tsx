/**
 * The web's component tests (the `web-components` project of vitest.config.ts, in Chromium): a component
 * rendered inside the providers FullApp gives it, signed in as the Admin through the real API (the server of
 * packages/server/test/webComponentsServer.ts, reached through the Vite server's /api proxy).
 * Not imported by the application.
 */
import { CssBaseline, ThemeProvider } from '@mui/material';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { UserDto } from '@trasa/domain';
import type { ReactNode } from 'react';
import { MemoryRouter } from 'react-router';
import { inject } from 'vitest';
import { render } from 'vitest-browser-react';
import { login } from '../api/account';
import { setToken } from '../api/token';
import { SnackbarProvider } from '../components/SnackbarProvider';
import { TipHost } from '../components/TipHost';
import { CurrentUserProvider } from '../shell/session';
import { theme } from '../theme';

declare module 'vitest' {
  export interface ProvidedContext {
    adminLogin: { email: string; lozinka: string };
    activityA2Id: string;
  }
}

/** Signs in as the demo's Admin (POST /api/user/login); the api client sends the stored token from then on. */
export async function signIn(): Promise<UserDto> {
  const { token, user } = await login(inject('adminLogin'));
  if (!token || !user) throw new Error('sign-in answered without a token');
  setToken(token);
  return user;
}

/** Renders `ui` with MUI's theme, a fresh React Query client, notices, tooltips, a router and the signed-in user. */
export function renderInApp(ui: ReactNode, user: UserDto) {
  const queryClient = new QueryClient({
    defaultOptions: { queries: { refetchOnWindowFocus: false, retry: false }, mutations: { retry: false } },
  });
  return render(
    <ThemeProvider theme={theme}>
      <CssBaseline />
      <QueryClientProvider client={queryClient}>
        <MemoryRouter>
          <CurrentUserProvider user={user}>
            <SnackbarProvider>{ui}</SnackbarProvider>
          </CurrentUserProvider>
        </MemoryRouter>
        <TipHost />
      </QueryClientProvider>
    </ThemeProvider>,
  );
}

/**
 * Watches the page's calls to the API (window.fetch, which the api client uses): `calls(path)` lists
 * the URLs of those whose path is `path`, in order (aborted ones too). `stop()` puts the browser's fetch back.
 */
export function watchApiCalls() {
  const original = window.fetch;
  const urls: URL[] = [];
  window.fetch = (input, init) => {
    const href = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    urls.push(new URL(href, window.location.href));
    return original(input, init);
  };
  return {
    calls: (path: string) => urls.filter((u) => u.pathname === path),
    /** Forgets the calls so far (e.g. the test's own, made to know what to expect). */
    reset: () => {
      urls.length = 0;
    },
    stop: () => {
      window.fetch = original;
    },
  };
}
