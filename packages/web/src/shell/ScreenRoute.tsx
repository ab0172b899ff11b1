import { type AppRouteKey, canOpen, landingPath } from '@trasa/domain';
import { Navigate } from 'react-router';
import { NotFoundPage } from '../components/NotFoundPage';
import { UnderConstructionPage } from '../components/UnderConstructionPage';
import { screens } from './screens';
import { SCREEN_TITLES } from './screenTitles';
import { useCurrentUser } from './session';

/** One /app route: shown only to the roles of its APP_ROUTES entry; others get the not-found page. */
export function ScreenRoute({ routeKey }: { routeKey: AppRouteKey }) {
  const user = useCurrentUser();
  if (!canOpen(user.rola, routeKey)) {
    // /app itself sends a role without notices (Admin) to its landing page.
    if (routeKey === 'notices') return <Navigate to={landingPath(user.rola)} replace />;
    return <NotFoundPage />;
  }
  const Screen = screens[routeKey];
  return Screen ? <Screen /> : <UnderConstructionPage title={SCREEN_TITLES[routeKey]} />;
}
