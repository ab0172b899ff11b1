/**
 * The first script of a visit that opens on /app (app.html, written by vitePlugins/appHtml.ts; the server
 * sends it for /app and /app/*). With a stored token it asks, at once, for what the screen the address
 * names will ask first — the profile, and the screen's first page or record — while the application's code
 * is still downloading, instead of after it has loaded and rendered (a round trip of a slow network each).
 * The answers wait in `window.__trasaOpening` until api/client.ts takes them (api/opening.ts): the same
 * address, once, with the same token. An answer nobody takes is dropped with the page.
 *
 * It imports nothing, so that it downloads and runs before the entry and adds nothing to the login page.
 * Each address is the exact one the screen asks for on a first visit (page 1 of 10 rows, no search or
 * sort): a list whose saved state differs asks again, and its early answer goes unused.
 * bench/lighthouse.mjs reports an address asked for twice.
 */

type Opening = { token: string; answers: Map<string, Promise<Response>> };

/** The /app routes (packages/domain/src/routes.ts paths) and their first GETs under /api; `:id` is the address's id. */
const OPENING: readonly [RegExp, readonly string[]][] = [
  [/^$/, ['/activity/notifications?page=1&limit=10']],
  [/^aktivnosti-u-toku$/, ['/activity/in-progress?page=1&limit=10']],
  [/^teme$/, ['/topic?page=1&limit=10&q=&qAlt=&status=&prioritet=']],
  [/^korisnici$/, ['/user?page=1&limit=10']],
  [/^(klasteri|klasteri-user)$/, ['/location?page=1&limit=10']],
  [/^klaster\/(?<id>[^/]+)$/, ['/location/:id']],
  [/^grupe$/, ['/group?page=1&limit=10']],
  [/^ugovori$/, ['/contract?page=1&limit=10']],
  [/^inventar$/, ['/contract?page=1&limit=10&inventory=true']],
  [/^izvestaji$/, ['/report/finished?page=1&limit=10', '/report/snapshots']],
  [/^ijo$/, ['/ijo']],
  [/^sifrarnici$/, ['/types']],
  [/^emailconfig$/, ['/smtp']],
  [/^logovi$/, ['/log?page=1&limit=10']],
  [/^komentari$/, ['/comment?page=1&limit=10']],
  [/^role$/, ['/role?page=1&limit=10']],
  [/^aktivnost\/(?<id>[^/]+)$/, ['/activity/:id']],
];

function start(): void {
  let token: string | null = null;
  try {
    token = localStorage.getItem('token');
  } catch {
    return;
  }
  const match = /^\/app(?:\/(.*?))?\/*$/.exec(window.location.pathname);
  if (!token || !match) return;
  const rest = match[1] ?? '';
  const paths = ['/user/my-profile'];
  for (const [route, requests] of OPENING) {
    const found = route.exec(rest);
    if (!found) continue;
    const id = found.groups?.id;
    for (const request of requests) paths.push(id ? request.replace(':id', id) : request);
    break;
  }
  const headers = { Accept: 'application/json', Authorization: `Bearer ${token}` };
  const answers = new Map<string, Promise<Response>>();
  for (const path of paths) {
    const url = `/api${path}`;
    const answer = fetch(url, { headers, credentials: 'include' });
    // A failure is the taker's to report (it gets the rejected promise); nobody taking it is no error.
    answer.catch(() => undefined);
    answers.set(url, answer);
  }
  (window as { __trasaOpening?: Opening }).__trasaOpening = { token, answers };
}

start();
