/**
 * The web's component tests (the `web-components` project of vitest.config.ts, in Chromium): a component
 * rendered inside the providers FullApp gives it, signed in through the real API (the server of
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
import { appTheme } from '../theme';

declare module 'vitest' {
  export interface ProvidedContext {
    logins: Record<'admin' | 'contractor', { email: string; lozinka: string }>;
    activityA2Id: string;
  }
}

/**
 * Signs in (POST /api/user/login) as the Admin or as the contractor responsible for the demo's Kremna; the
 * api client sends the stored token from then on.
 */
export async function signIn(who: 'admin' | 'contractor' = 'admin'): Promise<UserDto> {
  const { token, user } = await login(inject('logins')[who]);
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
    <ThemeProvider theme={appTheme()}>
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
 * Watches the page's calls to the API (window.fetch, which the api client uses): `calls(path, method)`
 * lists the URLs of those to `path` (with that method, or any), in order (aborted ones too), `bodies` their
 * JSON bodies.
 * `stop()` puts the browser's fetch back.
 */
export function watchApiCalls() {
  const original = window.fetch;
  const sent: { url: URL; method: string; body: unknown }[] = [];
  window.fetch = (input, init) => {
    const href = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    sent.push({
      url: new URL(href, window.location.href),
      method: init?.method ?? 'GET',
      body: typeof init?.body === 'string' ? JSON.parse(init.body) : undefined,
    });
    return original(input, init);
  };
  const to = (path: string, method?: string) => sent.filter((s) => s.url.pathname === path && (!method || s.method === method));
  return {
    calls: (path: string, method?: string) => to(path, method).map((s) => s.url),
    bodies: (path: string, method?: string) => to(path, method).map((s) => s.body),
    /** Forgets the calls so far (e.g. the test's own, made to know what to expect). */
    reset: () => {
      sent.length = 0;
    },
    stop: () => {
      window.fetch = original;
    },
  };
}
