import { APP_ROUTES, PUBLIC_PATHS, SCHOOL_LINK_PATH } from '@trasa/domain';
import { lazy, Suspense } from 'react';
import { createBrowserRouter, type RouteObject, RouterProvider } from 'react-router';
import { NotFoundPage } from './components/NotFoundPage';
import { PageLoader } from './components/PageLoader';
import { ForgotPasswordPage, LoginPage, RegisterPage, ResetPasswordPage } from './public/PublicPages';
import { PublicOnly } from './shell/PublicOnly';
import { RouteGuard } from './shell/RouteGuard';
import { ScreenRoute } from './shell/ScreenRoute';

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

export function App() {
  return <RouterProvider router={router} />;
}
