import { APP_ROUTES, type AppRouteKey, PUBLIC_PATHS, SCHOOL_LINK_PATH } from '@trasa/domain';
import { lazy, Suspense } from 'react';
import { createBrowserRouter, matchRoutes, type RouteObject, RouterProvider } from 'react-router';
import { getToken } from './api/token';
import { NotFoundPage } from './components/NotFoundPage';
import { PageLoader } from './components/PageLoader';
import { ForgotPasswordPage, LoginPage, RegisterPage, ResetPasswordPage } from './public/PublicPages';
import { PublicOnly } from './shell/PublicOnly';
import { preloadAppShell, RouteGuard } from './shell/RouteGuard';
import { ScreenRoute } from './shell/ScreenRoute';
import { preloadScreen, screens } from './shell/screens';

/** Every /app route comes from the domain route table; ScreenRoute checks the role. */
const appRoutes: RouteObject[] = APP_ROUTES.map((route) =>
  route.path === ''
    ? { index: true, element: <ScreenRoute routeKey={route.key} />, handle: route.key }
    : { path: route.path, element: <ScreenRoute routeKey={route.key} />, handle: route.key },
);

/** The school's stocktaking-list confirmation (no sign-in, nothing else of the app), its own lazy chunk. */
const StocktakingConfirmPage = lazy(async () => ({
  default: (await import('./features/inventory/StocktakingConfirmPage')).StocktakingConfirmPage,
}));

const routes: RouteObject[] = [
  {
    path: SCHOOL_LINK_PATH,
    element: (
      <Suspense fallback={<PageLoader />}>
        <StocktakingConfirmPage />
      </Suspense>
    ),
  },
  {
    element: <PublicOnly />,
    children: [
      { path: PUBLIC_PATHS.login, element: <LoginPage /> },
      { path: PUBLIC_PATHS.register, element: <RegisterPage /> },
      { path: PUBLIC_PATHS.forgotPassword, element: <ForgotPasswordPage /> },
      { path: PUBLIC_PATHS.resetPassword, element: <ResetPasswordPage /> },
    ],
  },
  {
    path: '/app',
    element: <RouteGuard />,
    children: [...appRoutes, { path: '*', element: <NotFoundPage /> }],
  },
  { path: '*', element: <NotFoundPage fullPage /> },
];

const router = createBrowserRouter(routes);

// A visit that starts on an /app screen with a token: the shell's and the screen's modules load now, beside
// the profile call (main.tsx started it), not one after the other once it answered (issue 13 item 3).
if (getToken()) {
  const screen = matchRoutes(routes, window.location)?.at(-1)?.route.handle;
  if (typeof screen === 'string' && screen in screens) {
    preloadAppShell();
    preloadScreen(screen as AppRouteKey);
  }
}

export function App() {
  return <RouterProvider router={router} />;
}
