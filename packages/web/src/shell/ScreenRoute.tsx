import { type AppRouteKey, canOpen, landingPath } from '@trasa/domain';
import { type ReactNode, Suspense, useDeferredValue, useState } from 'react';
import { Navigate } from 'react-router';
import { NotFoundPage } from '../components/NotFoundPage';
import { PageLoader } from '../components/PageLoader';
import { UnderConstructionPage } from '../components/UnderConstructionPage';
import { useDocumentTitle } from '../components/useDocumentTitle';
import { COMMON } from '../messages';
import { screens } from './screens';
import { SCREEN_TITLES } from './screenTitles';
import { useCurrentUser } from './session';

let firstScreen = true;

/**
 * The visit's first screen renders in a pass of its own, after the shell's (issue 13 item 3): the shell
 * commits and is laid out first, with the screen's loader in its main area, then the screen. Together
 * they were one commit, one layout and MUI's styles of both inserted in one task of the first visit.
 */
function AfterShell({ children }: { children: ReactNode }) {
  const ready = useDeferredValue(true, false);
  return ready ? children : <PageLoader />;
}

/** One /app route: shown only to the roles of its APP_ROUTES entry; others get the not-found page. */
export function ScreenRoute({ routeKey }: { routeKey: AppRouteKey }) {
  const [first] = useState(() => {
    const was = firstScreen;
    firstScreen = false;
    return was;
  });
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
  const screen = (
    <Suspense fallback={<PageLoader />}>
      <Screen />
    </Suspense>
  );
  return first ? <AfterShell>{screen}</AfterShell> : screen;
}
