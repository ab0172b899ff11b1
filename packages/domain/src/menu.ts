import type { GroupTypeCode } from './groupTypes.js';
import type { RoleKey } from './roles.js';
import { roleIn } from './roles.js';
import { type AppRouteKey, appPath, canOpen } from './routes.js';

export type MenuItem = { key: AppRouteKey; label: string; path: string; icon: MenuIcon };
export type MenuIcon =
  | 'progress'
  | 'topics'
  | 'users'
  | 'clusters'
  | 'groups'
  | 'contracts'
  | 'inventory'
  | 'reports'
  | 'ijo'
  | 'codebooks'
  | 'mail'
  | 'logs'
  | 'account'
  | 'comments'
  | 'notices'
  | 'roles';

type Entry = { key: AppRouteKey; label: string; icon: MenuIcon; roles?: readonly RoleKey[] };

const E = {
  activitiesInProgress: { key: 'activitiesInProgress', label: 'Активности у току', icon: 'progress' },
  topics: { key: 'topics', label: 'Отворена питања', icon: 'topics' },
  users: { key: 'users', label: 'Корисници', icon: 'users' },
  clusters: { key: 'clusters', label: 'Кластери', icon: 'clusters' },
  myClusters: { key: 'myClusters', label: 'Кластери', icon: 'clusters' },
  groups: { key: 'groups', label: 'Групе', icon: 'groups' },
  contracts: { key: 'contracts', label: 'Уговори', icon: 'contracts' },
  inventory: { key: 'inventory', label: 'Инвентар', icon: 'inventory' },
  reports: { key: 'reports', label: 'Извештаји', icon: 'reports' },
  ijo: { key: 'ijo', label: 'ИЈО', icon: 'ijo' },
  codebooks: { key: 'codebooks', label: 'Шифарници', icon: 'codebooks' },
  smtp: { key: 'smtpList', label: 'Мејл сервер', icon: 'mail' },
  logs: { key: 'logs', label: 'Логови', icon: 'logs' },
  myAccount: { key: 'myAccount', label: 'Мој налог', icon: 'account' },
  comments: { key: 'comments', label: 'Коментари', icon: 'comments' },
  notices: { key: 'notices', label: 'Обавештења', icon: 'notices' },
  roles: { key: 'roles', label: 'Роле', icon: 'roles' },
} as const satisfies Record<string, Entry>;

/** Menus of spec 1 §2.3, in the spec's order. */
const MENUS: Record<Exclude<RoleKey, 'Gost'>, readonly Entry[]> = {
  Admin: [
    E.activitiesInProgress,
    E.topics,
    E.users,
    E.clusters,
    E.groups,
    E.contracts,
    E.inventory,
    E.reports,
    E.ijo,
    E.codebooks,
    E.smtp,
    E.logs,
    E.myAccount,
    E.comments,
  ],
  Zaposleni: [E.notices, E.myClusters, E.topics, E.reports, E.logs, E.myAccount, E.comments],
  Rukovodilac: [E.topics, E.users, E.roles, E.groups, E.notices, E.clusters, E.reports, E.logs, E.myAccount, E.comments],
};

/**
 * The side menu of a user. Guests have none. An Employee of a Naručilac group also gets Inventory,
 * of a 'ПИУ ТА' group the public-authority holders. Every item is filtered by the route table, so a
 * menu never offers a screen the role may not open.
 */
export function menuFor(role: string | null | undefined, groupTypeCode?: GroupTypeCode | null): MenuItem[] {
  const key = (['Admin', 'Rukovodilac', 'Zaposleni'] as const).find((r) => roleIn(role, [r]));
  if (!key) return [];
  const entries: Entry[] = [...MENUS[key]];
  if (key === 'Zaposleni' && groupTypeCode === 'NARUCILAC') entries.splice(entries.length - 2, 0, E.inventory);
  if (key === 'Zaposleni' && groupTypeCode === 'PIU_TA') entries.splice(entries.length - 2, 0, E.ijo);
  return entries
    .filter((e) => (e.roles ? roleIn(role, e.roles) : true) && canOpen(role, e.key))
    .map((e) => ({ key: e.key, label: e.label, icon: e.icon, path: appPath(e.key) }));
}
