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
 * Each address is the exact one the screen asks for on a first visit (page 1 of 10 rows, no search or
 * sort): a list whose saved state differs asks again, and its early answer goes unused.
 * bench/lighthouse.mjs reports an address asked for twice.
 */

type Opening = { token: string; script: 'cyr' | 'lat'; answers: Map<string, Promise<Response>> };

/**
 * The /app routes (packages/domain/src/routes.ts paths): the screen's module (shell/screens.ts; its chunks
 * come from app.html's list) and its first GETs under /api (`:id` is the address's id).
 */
const OPENING: readonly [RegExp, string, readonly string[]][] = [
  [/^$/, 'features/notices/NoticesPage.tsx', ['/activity/notifications?page=1&limit=10']],
  [/^aktivnosti-u-toku$/, 'features/notices/ActivitiesInProgressPage.tsx', ['/activity/in-progress?page=1&limit=10']],
  [/^teme$/, 'features/topics/TopicsPage.tsx', ['/topic?page=1&limit=10&q=&qAlt=&status=&prioritet=']],
  [/^korisnici$/, 'features/users/UsersPage.tsx', ['/user?page=1&limit=10']],
  [/^klasteri$/, 'features/clusters/ClustersPage.tsx', ['/location?page=1&limit=10']],
  [/^klasteri-user$/, 'features/clusters/MyClustersPage.tsx', ['/location?page=1&limit=10']],
  [/^klaster\/(?<id>[^/]+)$/, 'features/clusters/ClusterPage.tsx', ['/location/:id']],
  [/^grupe$/, 'features/groups/GroupsPage.tsx', ['/group?page=1&limit=10']],
  [/^ugovori$/, 'features/contracts/ContractsPage.tsx', ['/contract?page=1&limit=10']],
  [/^inventar$/, 'features/inventory/InventoryPage.tsx', ['/contract?page=1&limit=10&inventory=true']],
  [/^izvestaji$/, 'features/reports/ReportsPage.tsx', ['/report/finished?page=1&limit=10', '/report/snapshots']],
  [/^ijo$/, 'features/ijo/IjoPage.tsx', ['/ijo']],
  [/^sifrarnici$/, 'features/codebooks/CodebooksPage.tsx', ['/types']],
  [/^emailconfig$/, 'features/smtp/SmtpListPage.tsx', ['/smtp']],
  [/^logovi$/, 'features/logs/LogsPage.tsx', ['/log?page=1&limit=10']],
  [/^komentari$/, 'features/comments/CommentsPage.tsx', ['/comment?page=1&limit=10']],
  [/^role$/, 'features/roles/RolesPage.tsx', ['/role?page=1&limit=10']],
  [/^aktivnost\/(?<id>[^/]+)$/, 'features/activities/ActivityPage.tsx', ['/activity/:id']],
  [/^moj-nalog$/, 'features/account/MyAccountPage.tsx', []],
];

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
  const match = /^\/app(?:\/(.*?))?\/*$/.exec(window.location.pathname);
  if (!token || !match) return;
  const rest = match[1] ?? '';
  const paths = ['/user/my-profile'];
  let screen: string | undefined;
  for (const [route, module, requests] of OPENING) {
    const found = route.exec(rest);
    if (!found) continue;
    screen = module;
    const id = found.groups?.id;
    for (const request of requests) paths.push(id ? request.replace(':id', id) : request);
    break;
  }
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
