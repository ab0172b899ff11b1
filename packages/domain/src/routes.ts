import type { RoleKey } from './roles.js';
import { roleIn } from './roles.js';

const ADMIN = 'Admin';
const MANAGER = 'Rukovodilac';
const EMPLOYEE = 'Zaposleni';
const GUEST = 'Gost';

/**
 * Every application route of spec 1 §2.2 (and specs 2 and 3), with the roles that may open it.
 * The web router renders exactly these; the server's role checks reuse the same lists
 * (see `rolesFor`). Paths are relative to /app.
 */
export const APP_ROUTES = [
  { key: 'notices', path: '', roles: [MANAGER, EMPLOYEE, GUEST] },
  { key: 'topics', path: 'teme', roles: [ADMIN, MANAGER, EMPLOYEE] },
  { key: 'topicNew', path: 'teme/nova', roles: [ADMIN, MANAGER, EMPLOYEE] },
  { key: 'topicEdit', path: 'teme/izmeni/:id', roles: [ADMIN, MANAGER, EMPLOYEE] },
  { key: 'topic', path: 'teme/:id', roles: [ADMIN, MANAGER, EMPLOYEE] },
  { key: 'clusters', path: 'klasteri', roles: [ADMIN, MANAGER] },
  { key: 'cluster', path: 'klaster/:id', roles: [ADMIN, MANAGER] },
  { key: 'clusterEdit', path: 'izmeni-klaster/:id', roles: [ADMIN, MANAGER] },
  { key: 'clusterNew', path: 'novi-klaster', roles: [ADMIN] },
  { key: 'codebooks', path: 'sifrarnici', roles: [ADMIN] },
  { key: 'activityCatalogue', path: 'aktivnosti', roles: [ADMIN] },
  { key: 'smtpList', path: 'emailconfig', roles: [ADMIN] },
  { key: 'smtpDetail', path: 'emailconfig/:id', roles: [ADMIN] },
  { key: 'roles', path: 'role', roles: [ADMIN, MANAGER] },
  { key: 'roleEdit', path: 'izmeni-rolu/:id', roles: [ADMIN, MANAGER] },
  { key: 'roleNew', path: 'nova-rola', roles: [ADMIN] },
  { key: 'usersByRole', path: 'upravljanje-korisnicima', roles: [ADMIN, MANAGER] },
  { key: 'contracts', path: 'ugovori', roles: [ADMIN] },
  { key: 'contractsIzv', path: 'ugovori-izvodjaci', roles: [ADMIN, EMPLOYEE] },
  { key: 'contractsPro', path: 'ugovori-projektanti', roles: [ADMIN, EMPLOYEE] },
  { key: 'contractsNad', path: 'ugovori-nadzor', roles: [ADMIN, EMPLOYEE] },
  { key: 'contract', path: 'ugovor/:id', roles: [ADMIN] },
  { key: 'users', path: 'korisnici', roles: [ADMIN, MANAGER] },
  { key: 'user', path: 'korisnici/:id', roles: [ADMIN, MANAGER] },
  { key: 'groups', path: 'grupe', roles: [ADMIN, MANAGER] },
  { key: 'group', path: 'grupa/:id', roles: [ADMIN, MANAGER] },
  { key: 'myClusters', path: 'klasteri-user', roles: [EMPLOYEE, MANAGER] },
  { key: 'myCluster', path: 'klasteri-user/:id', roles: [EMPLOYEE, MANAGER] },
  { key: 'activity', path: 'aktivnost/:id', roles: [EMPLOYEE, MANAGER, ADMIN] },
  { key: 'groupMembers', path: 'grupe/upravljanje-korisnicima/:naziv/:groupId', roles: [ADMIN, MANAGER] },
  { key: 'myAccount', path: 'moj-nalog', roles: [EMPLOYEE, ADMIN, MANAGER] },
  { key: 'reports', path: 'izvestaji', roles: [ADMIN, EMPLOYEE, MANAGER] },
  { key: 'report', path: 'izvestaji/:naziv', roles: [MANAGER, EMPLOYEE] },
  { key: 'logs', path: 'logovi', roles: [ADMIN, MANAGER, EMPLOYEE] },
  { key: 'logsOfGroup', path: 'logovi/:naziv', roles: [ADMIN, MANAGER, EMPLOYEE] },
  { key: 'comments', path: 'komentari', roles: [ADMIN, EMPLOYEE, MANAGER] },
  { key: 'contractLinkClusters', path: 'ugovor/povezivanje-sa-klasterima/:naziv/:id', roles: [ADMIN] },
  { key: 'clusterLinkContract', path: 'klaster/povezivanje-sa-ugovorom/:id', roles: [ADMIN] },
  { key: 'activitiesInProgress', path: 'aktivnosti-u-toku', roles: [ADMIN] },
  { key: 'ijo', path: 'ijo', roles: [ADMIN, EMPLOYEE] },
  { key: 'inventory', path: 'inventar', roles: [ADMIN, EMPLOYEE] },
  { key: 'inventoryLocation', path: 'inventar/lokacija/:id', roles: [ADMIN, EMPLOYEE] },
  { key: 'inventoryContractLocations', path: 'inventar/ugovor/lokacije/:id', roles: [ADMIN, EMPLOYEE] },
] as const satisfies readonly { key: string; path: string; roles: readonly RoleKey[] }[];

export type AppRoute = (typeof APP_ROUTES)[number];
export type AppRouteKey = AppRoute['key'];

const byKey = new Map<string, AppRoute>(APP_ROUTES.map((r) => [r.key, r]));

export function appRoute(key: AppRouteKey): AppRoute {
  const route = byKey.get(key);
  if (!route) throw new Error(`unknown route ${key}`);
  return route;
}

/** The roles that may open a screen; the server grants its API calls to the same roles. */
export function rolesFor(...keys: AppRouteKey[]): RoleKey[] {
  const set = new Set<RoleKey>();
  for (const key of keys) for (const role of appRoute(key).roles) set.add(role);
  return [...set];
}

export function canOpen(role: string | null | undefined, key: AppRouteKey): boolean {
  return roleIn(role, appRoute(key).roles);
}

/** Absolute path of a route with its parameters filled in. */
export function appPath(key: AppRouteKey, params: Record<string, string> = {}): string {
  const path = appRoute(key).path.replace(/:(\w+)/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`missing route parameter ${name}`);
    return encodeURIComponent(value);
  });
  return path ? `/app/${path}` : '/app';
}

/** Public routes (spec 1 §2.1). */
export const PUBLIC_PATHS = {
  login: '/',
  register: '/registracija',
  forgotPassword: '/zaboravljena-lozinka',
  resetPassword: '/reset-lozninke',
} as const;

/** Where a role lands after sign-in and on /app. */
export function landingPath(role: string | null | undefined): string {
  return roleIn(role, ['Admin']) ? appPath('activitiesInProgress') : appPath('notices');
}

/** In user-management routes the {naziv} segment has slashes replaced by dashes (spec 1 §2.2). */
export function nameSegment(naziv: string): string {
  return naziv.replace(/\//g, '-');
}
