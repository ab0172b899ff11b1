/**
 * main.tsx preloads the screen of the address a visit opens on with its own small matcher
 * (shell/openingRoute.ts, issue 13 item 3): it must name the route react-router's matchRoutes picks.
 */
import { APP_ROUTES } from '@trasa/domain/routes';
import { matchRoutes } from 'react-router';
import { describe, expect, it } from 'vitest';
import { openingRoute } from '../src/shell/openingRoute';

const APP_PATHS = APP_ROUTES.map((route) => ({ path: route.path === '' ? '/app' : `/app/${route.path}`, key: route.key }));
const routerKey = (pathname: string) => matchRoutes(APP_PATHS, pathname)?.at(-1)?.route.key;

describe('the opening route', () => {
  const addresses = APP_ROUTES.flatMap((route) => {
    const path = route.path === '' ? '/app' : `/app/${route.path}`;
    const filled = path.replace(/:\w+/g, (_, i: number) => `x${i}`);
    // A parameter that reads like a static segment of another route (teme/nova beside teme/:id).
    const likeStatic = path.replace(/:\w+/g, 'nova');
    return [filled, `${filled}/`, filled.toUpperCase(), likeStatic];
  });

  it('is the one react-router picks, for every route', () => {
    for (const address of addresses) expect([address, openingRoute(address)]).toEqual([address, routerKey(address)]);
  });

  it('is none for an address outside /app or unknown', () => {
    for (const address of ['/', '/prijava', '/app/nema/takve/stranice/ovde', '/apparat']) {
      expect([address, openingRoute(address)]).toEqual([address, routerKey(address)]);
    }
  });
});
