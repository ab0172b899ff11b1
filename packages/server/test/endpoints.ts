import type { RoleKey } from '@trasa/domain';

/**
 * Every /api endpoint and who may call it. The authorization test calls each one as anonymous and as
 * each role: a caller outside `allowed` must get 401 (anonymous) or 403, a caller inside must not.
 * Each feature adds its rows here; the test fails when a registered route has no row.
 */
export type Endpoint = {
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  /** The registered route pattern, e.g. /api/user/single/:id. */
  route: string;
  /** The URL to call (route with parameters filled in); defaults to `route`. */
  url?: string;
  payload?: unknown;
  allowed: 'public' | 'signedIn' | readonly RoleKey[];
};

const ADMIN: RoleKey[] = ['Admin'];

export const ENDPOINTS: Endpoint[] = [
  { method: 'GET', route: '/api/health', allowed: 'public' },
  { method: 'GET', route: '/api/docs/json', allowed: 'public' },
  { method: 'POST', route: '/api/user/login', payload: { email: 'niko@primer.rs', lozinka: 'Lozinka123' }, allowed: 'public' },
  { method: 'POST', route: '/api/user/signup', payload: {}, allowed: 'public' },
  { method: 'GET', route: '/api/user/activate', url: '/api/user/activate?email=a@b.rs&code=x', allowed: 'public' },
  { method: 'POST', route: '/api/user/reset-password', payload: { email: 'niko@primer.rs' }, allowed: 'public' },
  { method: 'GET', route: '/api/user/my-profile', allowed: 'signedIn' },
  { method: 'POST', route: '/api/user/change-password', payload: {}, allowed: 'signedIn' },
  { method: 'POST', route: '/api/user/change-info', payload: {}, allowed: 'signedIn' },
  { method: 'POST', route: '/api/user/edit-columns', payload: {}, allowed: 'signedIn' },
  { method: 'DELETE', route: '/api/user/my-profile', allowed: 'signedIn' },
  { method: 'GET', route: '/api/smtp/outbox', allowed: ADMIN },
];
