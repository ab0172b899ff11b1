import { type AppRouteKey, canOpen, landingPath } from '@trasa/domain';
import { Suspense } from 'react';
import { Navigate } from 'react-router';
import { NotFoundPage } from '../components/NotFoundPage';
import { PageLoader } from '../components/PageLoader';
import { UnderConstructionPage } from '../components/UnderConstructionPage';
import { useDocumentTitle } from '../components/useDocumentTitle';
import { COMMON } from '../messages';
import { screens } from './screens';
import { SCREEN_TITLES } from './screenTitles';
import { useCurrentUser } from './session';

/** One /app route: shown only to the roles of its APP_ROUTES entry; others get the not-found page. */
export function ScreenRoute({ routeKey }: { routeKey: AppRouteKey }) {
  const user = useCurrentUser();
  const allowed = canOpen(user.rola, routeKey);
  // The tab's title names the screen from the route table's names (a refused screen is 'not found').
  useDocumentTitle(allowed ? SCREEN_TITLES[routeKey] : COMMON.pageNotFound);
  if (!allowed) {
    // /app itself sends a role without notices (Admin) to its landing page.
    if (routeKey === 'notices') return <Navigate to={landingPath(user.rola)} replace />;
    return <NotFoundPage />;
  }
  const Screen = screens[routeKey];
  if (!Screen) return <UnderConstructionPage title={SCREEN_TITLES[routeKey]} />;
  return (
    <Suspense fallback={<PageLoader />}>
      <Screen />
    </Suspense>
  );
}
