import { APP_ROUTES, type AppRouteKey } from '@trasa/domain/routes';

const ROUTES = APP_ROUTES.map((route) => ({ key: route.key, segments: route.path === '' ? [] : route.path.split('/') }));

/**
 * The /app route an address names, to preload its screen before the application loads (main.tsx
 * `preloadOpening`). Matched as react-router matches APP_ROUTES (case-insensitive segments, a static
 * segment before a parameter; `scripts/opening-route.test.ts` compares the two on every route), without
 * its route ranking, which took ~40 ms of the first visit under Lighthouse's 4× slowdown (issue 13 item
 * 3). Only a hint: an address it does not know preloads nothing, and the router decides what renders.
 */
export function openingRoute(pathname: string): AppRouteKey | undefined {
  const parts = pathname.split('/').filter(Boolean);
  if (parts[0]?.toLowerCase() !== 'app') return undefined;
  const rest = parts.slice(1);
  let best: AppRouteKey | undefined;
  let bestScore = -1;
  for (const route of ROUTES) {
    if (route.segments.length !== rest.length) continue;
    let score = 0;
    const matches = route.segments.every((segment, i) => {
      if (segment.startsWith(':')) {
        score += 3;
        return true;
      }
      score += 10;
      return segment.toLowerCase() === rest[i]?.toLowerCase();
    });
    if (matches && score > bestScore) {
      best = route.key;
      bestScore = score;
    }
  }
  return best;
}
