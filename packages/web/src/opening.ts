/**
 * The first script of a visit that opens on /app (app.html, written by vitePlugins/appHtml.ts; the server
 * sends it for /app and /app/*). With a stored token it asks, at once, for what the screen the address
 * names will ask first — the profile, and the screen's first page or record — while the application's code
 * is still downloading, instead of after it has loaded and rendered (a round trip of a slow network each).
 * The answers wait in `window.__trasaOpening` until api/client.ts takes them (api/opening.ts): the same
 * address, once, with the same token and script. An answer nobody takes is dropped with the page. Then it preloads the
 * application's chunks and the screen's, from the list app.html carries.
 *
 * It imports nothing, so that it downloads and runs before the entry and adds nothing to the login page.
 * Each address is the exact one the screen asks for first: a list's page, page size and sort as its table
 * keeps them in session storage (components/DataTable/listState.ts, under `tabela:` and the table's query
 * key; the topics' filters under `teme:filteri`), the first page of 10 rows unsorted on a first visit. A
 * list with a saved search asks /api/search/… with the text in both scripts: nothing is asked for it early.
 * bench/lighthouse.mjs reports an address asked for twice (an early answer that went unused).
 */

type Opening = { token: string; script: 'cyr' | 'lat'; answers: Map<string, Promise<Response>> };

/** What a screen's first requests depend on: the address's id, the signed-in user's id, the address's query. */
type Context = { id: string; user: string; query: URLSearchParams };

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function stored(key: string): unknown {
  try {
    return JSON.parse(sessionStorage.getItem(key) ?? 'null');
  } catch {
    return null;
  }
}

/**
 * A list's first request as its DataTable will make it (listState.ts readListState, DataTable's query):
 * page, limit, sort and order, then the screen's own parameters; null when a search is saved.
 */
function firstPage(queryKey: readonly unknown[], path: string, extra: readonly [string, string][] = []): string | null {
  const saved = stored(`tabela:${JSON.stringify(queryKey)}`);
  const state = isRecord(saved) ? saved : {};
  if (typeof state.search === 'string' && state.search.trim() !== '') return null;
  const pageIndex = typeof state.pageIndex === 'number' && state.pageIndex >= 0 ? Math.floor(state.pageIndex) : 0;
  const pageSize = typeof state.pageSize === 'number' && state.pageSize > 0 ? Math.floor(state.pageSize) : 10;
  const params = new URLSearchParams([
    ['page', String(pageIndex + 1)],
    ['limit', String(pageSize)],
  ]);
  const sort = Array.isArray(state.sorting) && isRecord(state.sorting[0]) ? state.sorting[0] : null;
  if (sort && typeof sort.id === 'string') {
    params.append('sort', sort.id);
    params.append('order', sort.desc === true ? 'desc' : 'asc');
  }
  for (const [name, value] of extra) params.append(name, value);
  return `${path}?${params.toString()}`;
}

/** The topics' list: its filters (TopicsPage's `teme:filteri`) are part of its key and of its address. */
function topicsFirstPage(): string | null {
  const saved = stored('teme:filteri');
  const filters = isRecord(saved) ? saved : {};
  const status = typeof filters.status === 'string' ? filters.status : '';
  const prioritet = typeof filters.prioritet === 'string' ? filters.prioritet : '';
  return firstPage(['topics', 'list', status, prioritet], '/topic', [
    ['q', ''],
    ['qAlt', ''],
    ['status', status],
    ['prioritet', prioritet],
  ]);
}

/** The reports hub's other tabs (ReportsPage's REPORT_DEFS after the first; an unknown name opens the first). */
const OTHER_REPORTS = ['sumarni', 'dokumenta', 'ijo-takse', 'duzine-a1', 'duzine-a9', 'duzine-a12', 'uporedjivanje'];

/**
 * The /app routes (packages/domain/src/routes.ts paths): the screen's module (shell/screens.ts; its chunks
 * come from app.html's list) and its first GETs under /api. The lists' query keys are their DataTables'.
 */
const OPENING: readonly [RegExp, string, (c: Context) => readonly (string | null)[]][] = [
  [/^$/, 'features/notices/NoticesPage.tsx', (c) => [firstPage(['notifications', c.user], '/activity/notifications')]],
  [
    /^aktivnosti-u-toku$/,
    'features/notices/ActivitiesInProgressPage.tsx',
    () => [firstPage(['activities-in-progress', {}], '/activity/in-progress')],
  ],
  [/^teme$/, 'features/topics/TopicsPage.tsx', () => [topicsFirstPage()]],
  [/^korisnici$/, 'features/users/UsersPage.tsx', () => [firstPage(['users', 'list'], '/user')]],
  [/^klasteri$/, 'features/clusters/ClustersPage.tsx', () => [firstPage(['locations', 'list'], '/location')]],
  [/^klasteri-user$/, 'features/clusters/MyClustersPage.tsx', () => [firstPage(['locations', 'mine'], '/location')]],
  [/^klaster\/(?<id>[^/]+)$/, 'features/clusters/ClusterPage.tsx', (c) => [`/location/${c.id}`]],
  [/^grupe$/, 'features/groups/GroupsPage.tsx', () => [firstPage(['groups', 'list'], '/group')]],
  [/^ugovori$/, 'features/contracts/ContractsPage.tsx', () => [firstPage(['contracts', 'contract', 'list'], '/contract')]],
  [
    /^inventar$/,
    'features/inventory/InventoryPage.tsx',
    // Unless the address's ?tab= names another tab (an unknown one is the contracts').
    (c) =>
      ['sifarnik', 'izvestaji', 'skole', 'provera'].includes(c.query.get('tab') ?? '')
        ? []
        : [firstPage(['inventory', 'contracts', 'list'], '/contract', [['inventory', 'true']])],
  ],
  [
    /^izvestaji$/,
    'features/reports/ReportsPage.tsx',
    (c) => [
      // The hub opens on the finished activities' report unless the address names another.
      OTHER_REPORTS.includes(c.query.get('izvestaj') ?? '') ? null : firstPage(['reports', 'finished'], '/report/finished'),
      '/report/snapshots',
    ],
  ],
  [/^ijo$/, 'features/ijo/IjoPage.tsx', () => ['/ijo']],
  [/^sifrarnici$/, 'features/codebooks/CodebooksPage.tsx', () => ['/types']],
  [/^emailconfig$/, 'features/smtp/SmtpListPage.tsx', () => ['/smtp']],
  [/^logovi$/, 'features/logs/LogsPage.tsx', () => [firstPage(['logs', ''], '/log')]],
  [/^komentari$/, 'features/comments/CommentsPage.tsx', () => [firstPage(['comment-list'], '/comment')]],
  [/^role$/, 'features/roles/RolesPage.tsx', () => [firstPage(['roles', 'list'], '/role')]],
  [/^aktivnost\/(?<id>[^/]+)$/, 'features/activities/ActivityPage.tsx', (c) => [`/activity/${c.id}`]],
  [/^moj-nalog$/, 'features/account/MyAccountPage.tsx', () => []],
];

/** The signed-in user's id: the token's subject (a JWT; its payload is base64url JSON). */
function userOf(token: string): string {
  try {
    const payload = token.split('.')[1] ?? '';
    const json = atob(
      payload
        .replace(/-/g, '+')
        .replace(/_/g, '/')
        .padEnd(Math.ceil(payload.length / 4) * 4, '='),
    );
    const claims: unknown = JSON.parse(json);
    return isRecord(claims) && typeof claims.sub === 'string' ? claims.sub : '';
  } catch {
    return '';
  }
}

type Chunks = { application: string[]; screens: Record<string, string[]> };

/** Starts downloading a chunk (a module preloaded, a stylesheet fetched) without running it. */
function preload(file: string): void {
  const link = document.createElement('link');
  link.rel = file.endsWith('.css') ? 'preload' : 'modulepreload';
  if (file.endsWith('.css')) link.as = 'style';
  link.crossOrigin = '';
  link.href = `/${file}`;
  document.head.append(link);
}

/**
 * What an address of the app asks for early: the screen's module and the paths under /api of its first
 * requests, the profile first (null: not an /app address).
 */
export function openingOf(pathname: string, search: string, token: string): { screen?: string; paths: string[] } | null {
  const match = /^\/app(?:\/(.*?))?\/*$/.exec(pathname);
  if (!match) return null;
  const rest = match[1] ?? '';
  const paths = ['/user/my-profile'];
  for (const [route, screen, requests] of OPENING) {
    const found = route.exec(rest);
    if (!found) continue;
    const context = { id: found.groups?.id ?? '', user: userOf(token), query: new URLSearchParams(search) };
    for (const request of requests(context)) if (request !== null) paths.push(request);
    return { screen, paths };
  }
  return { paths };
}

function start(): void {
  let token: string | null = null;
  let script: Opening['script'] = 'cyr';
  try {
    token = localStorage.getItem('token');
    // The script the application will read (script.ts: the browser's copy of the choice, Ћирилица by default).
    script = localStorage.getItem('trasa.script') === 'lat' ? 'lat' : 'cyr';
  } catch {
    return;
  }
  const opening = token ? openingOf(window.location.pathname, window.location.search, token) : null;
  if (!token || !opening) return;
  const { screen, paths } = opening;
  // As api/client.ts asks: in the user's script (X-Trasa-Pismo), with the token.
  const headers = { Accept: 'application/json', 'X-Trasa-Pismo': script, Authorization: `Bearer ${token}` };
  const answers = new Map<string, Promise<Response>>();
  for (const path of paths) {
    const url = `/api${path}`;
    const answer = fetch(url, { headers, credentials: 'include' });
    // A failure is the taker's to report (it gets the rejected promise); nobody taking it is no error.
    answer.catch(() => undefined);
    answers.set(url, answer);
  }
  (window as { __trasaOpening?: Opening }).__trasaOpening = { token, script, answers };
  // Then the code: asked for after the answers, so that they are first in line for the browser's six
  // connections (HTTP/1.1); the entry's own files were asked for by the page itself.
  let chunks: Chunks | undefined;
  try {
    chunks = JSON.parse(document.getElementById('trasa-chunks')?.textContent ?? 'null') ?? undefined;
  } catch {
    chunks = undefined;
  }
  for (const file of [...(chunks?.application ?? []), ...((screen && chunks?.screens[screen]) || [])]) preload(file);
}

start();
