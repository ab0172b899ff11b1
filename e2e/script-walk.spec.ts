import { type APIRequestContext, type Browser, expect, type Page, test } from '@playwright/test';
import {
  A3_OUTCOMES,
  A20_TEST_TYPES,
  ACTIVITY_CATALOGUE,
  ACTIVITY_INSTRUCTIONS,
  ACTIVITY_STATUSES,
  APP_ROUTES,
  type AppRouteKey,
  appPath,
  controlLabels,
  DATA_KEYS,
  DEFAULT_GROUP_TYPES,
  dataLabel,
  PAYERS,
  ROLE_KEYS,
} from '@trasa/domain';
import { toLatin } from '@trasa/domain/translit';
import { apiToken, DEMO_PASSWORD } from './support/api';
import { Answers, type Script, type Stray, shownTexts, straysOn } from './support/scriptWords';

/**
 * One script means one script: every route of the route table, the public pages, the tabs within screens,
 * the main dialogs and some of their pickers, activities in progress with their edit sections, a refused
 * sign-in, a saved layout and an export — walked in Ћирилица and in Latinica side by side (each by its own
 * Admin and Zaposleni); a word of the other script outside user data fails the walk, and so does a call
 * of the web without the script. User data is what the API answered in the fields people type (names,
 * descriptions, comments, addresses, codes, file names: support/scriptWords.ts), unless it is a name the
 * product ships (the catalogue, group types, roles, A20's test types, statuses), which the web shows in the
 * chosen script.
 */

/**
 * Whether the server answers in the script the web asks for (X-Trasa-Pismo): until it does, the words of
 * the other script found in its own sentences (answers' messages, the audit log) are listed as the test's
 * annotations instead of failing it.
 */
const SERVER_ANSWERS_IN_SCRIPT = true;

/** Names the product ships: they come from the API like data but are shown in the chosen script. */
const SHIPPED = new Set<string>([
  ...ACTIVITY_CATALOGUE.flatMap((e) => [e.naziv, e.dokumenta, ...controlLabels(e.code)]),
  ...Object.values(ACTIVITY_INSTRUCTIONS),
  ...ACTIVITY_CATALOGUE.flatMap((e) => Object.values(DATA_KEYS).map((key) => dataLabel(e.code, key))),
  ...DEFAULT_GROUP_TYPES.flatMap((t) => [t.naziv, t.kratakNaziv]),
  ...ROLE_KEYS,
  ...A20_TEST_TYPES,
  ...A3_OUTCOMES,
  ...ACTIVITY_STATUSES,
  ...PAYERS,
]);

/**
 * Who walks: the two scripts are walked side by side, each by its own Admin and Zaposleni (the profile's
 * script wins at sign-in). The Zaposleni are of client (Naručilac) groups that see every cluster, so the
 * activities in progress they answer for show them their edit sections and a control's decision buttons.
 */
const PEOPLE: Record<Script, { admin: string; employee: string }> = {
  cyr: { admin: 'milos.vukovic@mit.gov.rs', employee: 'gordana.stankovic@mit.gov.rs' },
  lat: { admin: 'ana.admin@mit.gov.rs', employee: 'dejan.milosevic@mit.gov.rs' },
};

/** Activities the Admin reads (A20's documents by test type) and those the Zaposleni works on. */
const ACTIVITY_IDS = ['A3', 'A20', 'A1', 'A7', 'control'] as const;
type Ids = Record<
  | 'cluster'
  | 'group'
  | 'groupName'
  | 'user'
  | 'role'
  | 'contract'
  | 'contractName'
  | 'topic'
  | 'invContract'
  | 'smtp'
  | (typeof ACTIVITY_IDS)[number],
  string
>;
/**
 * A screen of the walk: its route and record, the dialogs its buttons open (the buttons' names in
 * Cyrillic), and its tabs — each opened unless `tabs` is false (the same lists under another route) or
 * the tab's name matches `sameAs` (a view another tab showed already).
 */
type Screen = { key: AppRouteKey; params?: Record<string, string>; dialogs?: Dialog[]; tabs?: false; sameAs?: RegExp };
/** A dialog: the button that opens it, and the pickers in it whose options are read too (names in Cyrillic). */
type Dialog = { button: string; pickers?: string[] };

async function getJson<T>(request: APIRequestContext, token: string, path: string): Promise<T> {
  const res = await request.get(`/api${path}`, { headers: { authorization: `Bearer ${token}` } });
  expect(res.ok(), `${path}: ${res.status()}`).toBe(true);
  return (await res.json()) as T;
}

type Named = { _id: string; naziv: string };
type ActivityBrief = { _id: string; kratakNaziv: string; status: string };

/** The records the screens with an id open: the first of each list, and activities worth seeing. */
async function recordIds(request: APIRequestContext, token: string): Promise<Ids> {
  const { locations } = await getJson<{ locations: Named[] }>(request, token, '/location?page=1&limit=50');
  const details = await Promise.all(
    locations.map((l) => getJson<{ location: { aktivnosti: ActivityBrief[] } }>(request, token, `/location/${l._id}`)),
  );
  const acts = details.flatMap((d) => d.location.aktivnosti);
  const [, inProgress] = ACTIVITY_STATUSES;
  // One in progress where there is one (the journeys before this one move some on), else any started.
  const active = (codes: ReadonlySet<string>) =>
    acts.find((a) => codes.has(a.kratakNaziv) && a.status === inProgress) ??
    acts.find((a) => codes.has(a.kratakNaziv) && a.status !== ACTIVITY_STATUSES[0]);
  const pick = (code: string) => active(new Set([code]))?._id ?? '';
  const controls = ACTIVITY_CATALOGUE.filter((e) => e.kontrolna);
  const clientsControl = active(new Set(controls.filter((e) => e.odgovoran.includes('NARUCILAC')).map((e) => e.code)));
  const { groups } = await getJson<{ groups: Named[] }>(request, token, '/group?page=1&limit=5');
  const { users } = await getJson<{ users: { _id: string }[] }>(request, token, '/user?page=1&limit=1');
  const { roles } = await getJson<{ roles: { _id: string }[] }>(request, token, '/role?page=1&limit=1');
  const { contracts } = await getJson<{ contracts: Named[] }>(request, token, '/contract?page=1&limit=1');
  const { data: topics } = await getJson<{ data: { _id: string }[] }>(request, token, '/topic?page=1&limit=1');
  const inventory = await getJson<{ contracts: Named[] }>(request, token, '/contract?inventory=true&page=1&limit=1');
  const { smtps } = await getJson<{ smtps: { _id: string }[] }>(request, token, '/smtp?page=1&limit=1');
  const group = groups[0];
  const ids: Ids = {
    A1: pick('A1'),
    A3: pick('A3'),
    A7: pick('A7'),
    A20: pick('A20'),
    control: (clientsControl ?? active(new Set(controls.map((e) => e.code))))?._id ?? '',
    cluster: locations[0]?._id ?? '',
    group: group?._id ?? '',
    groupName: group?.naziv.replace(/\//g, '-') ?? '',
    user: users[0]?._id ?? '',
    role: roles[0]?._id ?? '',
    contract: contracts[0]?._id ?? '',
    contractName: contracts[0]?.naziv.replace(/\//g, '-') ?? '',
    topic: topics[0]?._id ?? '',
    invContract: inventory.contracts[0]?._id ?? '',
    smtp: smtps[0]?._id ?? '00000000-0000-4000-8000-000000000000',
  };
  for (const [name, id] of Object.entries(ids)) expect(id, `an id for ${name}`).not.toBe('');
  return ids;
}

/** Screens per person; a route with parameters names the record (an entry of `recordIds`). */
function adminScreens(ids: Ids): Screen[] {
  return [
    { key: 'activitiesInProgress' },
    { key: 'topics' },
    { key: 'topicNew' },
    { key: 'topic', params: { id: ids.topic } },
    { key: 'topicEdit', params: { id: ids.topic } },
    { key: 'users', dialogs: [{ button: 'Додај корисника', pickers: ['Рола'] }] },
    { key: 'user', params: { id: ids.user }, tabs: false },
    { key: 'clusters' },
    { key: 'cluster', params: { id: ids.cluster } },
    { key: 'clusterEdit', params: { id: ids.cluster } },
    { key: 'clusterNew' },
    { key: 'clusterLinkContract', params: { id: ids.cluster }, tabs: false },
    { key: 'groups', dialogs: [{ button: 'Додај групу', pickers: ['Тип'] }] },
    { key: 'group', params: { id: ids.group } },
    { key: 'groupMembers', params: { naziv: ids.groupName, groupId: ids.group } },
    // The typed contracts' tabs are their own routes, walked next.
    { key: 'contracts', dialogs: [{ button: 'Креирај уговор' }], tabs: false },
    { key: 'contractsIzv', tabs: false },
    { key: 'contractsPro', tabs: false },
    { key: 'contractsNad', tabs: false },
    { key: 'contract', params: { id: ids.contract } },
    { key: 'contractLinkClusters', params: { naziv: ids.contractName, id: ids.contract } },
    { key: 'inventory', dialogs: [{ button: 'Креирај уговор' }] },
    { key: 'inventoryContractLocations', params: { id: ids.invContract } },
    { key: 'inventoryLocation', params: { id: ids.cluster } },
    { key: 'reports', sameAs: /A(9|12)$/ },
    { key: 'ijo', dialogs: [{ button: 'Додај ИЈО' }] },
    { key: 'codebooks' },
    { key: 'activityCatalogue' },
    { key: 'smtpList', dialogs: [{ button: 'Додај сервер' }] },
    // The demo has no mail server: an unknown one shows the screen's not-found answer.
    { key: 'smtpDetail', params: { id: ids.smtp } },
    { key: 'roles' },
    { key: 'roleEdit', params: { id: ids.role } },
    { key: 'roleNew' },
    // A tab per role, each the same list: its first is read.
    { key: 'usersByRole', tabs: false },
    { key: 'logs' },
    { key: 'logsOfGroup', params: { naziv: ids.groupName } },
    { key: 'myAccount' },
    { key: 'comments' },
    { key: 'activity', params: { id: ids.A3 } },
    { key: 'activity', params: { id: ids.A20 } },
  ];
}

function employeeScreens(ids: Ids): Screen[] {
  return [
    { key: 'notices' },
    { key: 'myClusters' },
    { key: 'myCluster', params: { id: ids.cluster } },
    { key: 'report', params: { naziv: 'zavrsene-aktivnosti' } },
    { key: 'activity', params: { id: ids.A1 } },
    { key: 'activity', params: { id: ids.A7 }, dialogs: [{ button: 'Упутство' }] },
    { key: 'activity', params: { id: ids.control } },
  ];
}

/** A text of the walk in the script of the screen (the walk's button names are written in Cyrillic). */
function inScript(text: string, script: Script): string {
  return script === 'lat' ? toLatin(text) : text;
}

/** Signs in by the API, with the profile's script set first (the profile's choice wins at sign-in). */
async function signInWithScript(page: Page, request: APIRequestContext, email: string, script: Script): Promise<void> {
  const token = await apiToken(request, email, DEMO_PASSWORD);
  const res = await request.post('/api/user/edit-script', { headers: { authorization: `Bearer ${token}` }, data: { pismo: script } });
  expect(res.ok(), await res.text()).toBe(true);
  await page.goto('/');
  await page.evaluate(
    ({ token, script }) => {
      localStorage.setItem('token', token);
      localStorage.setItem('trasa.script', script);
    },
    { token, script },
  );
  await page.goto('/app');
  await expect(page.getByRole('main')).toBeVisible();
}

type Walk = { page: Page; script: Script; answers: Answers; strays: Stray[]; seen: Set<AppRouteKey> };

/** What the walk reads: the screen (its main part, or the dialog a screen of a dialog of its own opens), a dialog, a picker's options. */
type Part = 'screen' | 'dialog' | 'options';

/**
 * Waits until a part is drawn: the screen of the address is in place, its heading (or, on a screen that
 * found no record, its alert) or its first option is there, no loader is left in it (a progressbar,
 * a skeleton, a busy table), each of its tables shows rows or its empty text, and every call of the web to
 * the API has its answer. The page is looked at after a frame, so what an answer drew, and the calls its
 * effects started, are in. Bounded by the journeys' expect timeout.
 */
async function drawn(walk: Walk, part: Part): Promise<void> {
  await expect
    .poll(
      async () => {
        const missing = await walk.page.evaluate(
          (part) =>
            new Promise<string>((resolve) =>
              requestAnimationFrame(() =>
                setTimeout(() => {
                  const dialog = document.querySelector('[role="dialog"]');
                  const main = document.querySelector('main');
                  // After a navigation the old screen stays until the new one is committed (AppShell's data-path).
                  const path = main?.getAttribute('data-path');
                  if (path && decodeURI(path) !== decodeURI(window.location.pathname)) return resolve('the old screen');
                  const roots = (
                    part === 'options' ? [document.querySelector('[role="listbox"]')] : part === 'dialog' ? [dialog] : [main, dialog]
                  ).filter((el): el is Element => el !== null);
                  const [first] = roots;
                  if (!first) return resolve(`no ${part}`);
                  const heading =
                    part === 'options'
                      ? first.querySelector('[role="option"]')
                      : part === 'dialog'
                        ? first.querySelector('h2')
                        : document.querySelector('main h1, main [role="alert"], [role="dialog"] h2');
                  if (!heading?.textContent?.trim()) return resolve('no heading');
                  for (const root of roots) {
                    if (root.querySelector('[role="progressbar"], .MuiSkeleton-root, [aria-busy="true"]')) return resolve('a loader');
                    if (Array.from(root.querySelectorAll('table')).some((t) => !t.querySelector('tbody tr')))
                      return resolve('a table without rows');
                  }
                  resolve('');
                }, 0),
              ),
            ),
          part,
        );
        return missing || (walk.answers.unanswered() > 0 ? 'a call unanswered' : '');
      },
      { message: `${walk.page.url()}: the ${part} is drawn`, intervals: [50, 100, 250] },
    )
    .toBe('');
}

/** Opens a path inside the running app (the router follows the history), without loading the page again. */
async function visit(walk: Walk, path: string): Promise<void> {
  await walk.page.evaluate((to) => {
    window.history.pushState({}, '', to);
    window.dispatchEvent(new PopStateEvent('popstate', { state: {} }));
  }, path);
  await expect(walk.page).toHaveURL((url) => `${url.pathname}${url.search}` === path);
  await drawn(walk, 'screen');
}

async function read(walk: Walk, screen: string, scope?: string): Promise<void> {
  await walk.answers.settled();
  walk.strays.push(...straysOn(screen, await shownTexts(walk.page, walk.script, scope), walk.script, walk.answers));
}

/** A screen, each of its tabs, and the dialogs its buttons open. */
async function walkScreen(walk: Walk, screen: Screen): Promise<void> {
  const { page, script } = walk;

  const path = appPath(screen.key, screen.params);
  await visit(walk, path);
  walk.seen.add(screen.key);
  await read(walk, path);
  const tabs = page.getByRole('main').getByRole('tab');
  const count = screen.tabs === false ? 0 : await tabs.count();
  for (let i = 1; i < count; i++) {
    const tab = tabs.nth(i);
    const name = (await tab.textContent())?.trim() ?? String(i);
    if (screen.sameAs?.test(name)) continue;
    await tab.click();
    await expect(tab).toHaveAttribute('aria-selected', 'true');
    await drawn(walk, 'screen');
    await read(walk, `${path} ▸ ${name}`, 'main');
  }
  for (const { button, pickers = [] } of screen.dialogs ?? []) {
    if (count > 1) {
      await tabs.first().click();
      await expect(tabs.first()).toHaveAttribute('aria-selected', 'true');
    }
    await page
      .getByRole('main')
      .getByRole('button', { name: inScript(button, script) })
      .first()
      .click();
    const dialog = page.getByRole('dialog');
    await expect(dialog).toBeVisible();
    await drawn(walk, 'dialog');
    await read(walk, `${path} ▸ ${button}`, '[role="dialog"]');
    for (const picker of pickers) {
      await dialog.getByRole('combobox', { name: inScript(picker, script) }).click();
      await expect(page.getByRole('listbox')).toBeVisible();
      await drawn(walk, 'options');
      await read(walk, `${path} ▸ ${button} ▸ ${picker}`, '[role="listbox"]');
      await page.keyboard.press('Escape');
      await expect(page.getByRole('listbox')).toHaveCount(0);
    }
    await page.keyboard.press('Escape');
    await expect(dialog).toHaveCount(0);
  }
}

/** One line per text: its words of the other script and the screens it was on. */
function report(script: Script, strays: Stray[]): string[] {
  const byText = new Map<string, { words: Set<string>; screens: Set<string> }>();
  for (const s of strays) {
    const entry = byText.get(s.text) ?? { words: new Set(), screens: new Set() };
    entry.words.add(s.word);
    entry.screens.add(s.screen);
    byText.set(s.text, entry);
  }
  return [...byText].map(([text, { words, screens }]) => {
    const where = [...screens];
    const more = where.length > 2 ? ` and ${where.length - 2} more` : '';
    return `[${script}] '${text.slice(0, 160)}' (${[...words].join(', ')}) on ${where.slice(0, 2).join(', ')}${more}`;
  });
}

type Outcome = { strays: Stray[]; seen: Set<AppRouteKey>; unscripted: string[] };

/** Every screen in one script: the public pages, the Admin's screens, the Rukovodilac's own. */
async function walkAll(browser: Browser, request: APIRequestContext, script: Script, ids: Ids): Promise<Outcome> {
  const context = await browser.newContext({ viewport: { width: 1366, height: 800 } });
  // Every action and wait of the walk is bounded (a click, a download), as the journeys' expect is.
  context.setDefaultTimeout(20_000);
  const page = await context.newPage();
  const answers = new Answers(new Set([...SHIPPED].map((s) => s.trim())));
  answers.listen(page);
  const walk: Walk = { page, script, answers, strays: [], seen: new Set() };
  // Every call of the web says which script the user reads (once the browser keeps the choice).
  const unscripted: string[] = [];
  let scriptKept = false;
  page.on('request', (req) => {
    const url = new URL(req.url());
    if (scriptKept && url.pathname.startsWith('/api/') && req.headers()['x-trasa-pismo'] !== script)
      unscripted.push(`${req.method()} ${url.pathname} (${req.headers()['x-trasa-pismo'] ?? 'none'})`);
  });
  const people = PEOPLE[script];
  let where = 'the public pages';
  try {
    // The public pages, and a message of the server there: a sign-in with an unknown address.
    await page.goto('/');
    await page.evaluate((s) => localStorage.setItem('trasa.script', s), script);
    scriptKept = true;
    for (const path of ['/', '/registracija', '/zaboravljena-lozinka']) {
      await page.goto(path);
      await drawn(walk, 'screen');
      await read(walk, path);
    }
    await page.goto('/');
    await page.locator('input[name="email"]').fill(`nepoznat.${script}.${Date.now().toString(36)}@primer.rs`);
    await page.locator('input[name="lozinka"]').fill('Pogresna1');
    await page.getByRole('button', { name: inScript('Пријави се', script) }).click();
    await expect(page.getByRole('alert').first()).toBeVisible();
    await read(walk, '/ (sign-in refused)');

    await signInWithScript(page, request, people.admin, script);
    for (const screen of adminScreens(ids)) {
      where = `${screen.key} as the Admin`;
      await walkScreen(walk, screen);
    }
    await signInWithScript(page, request, people.employee, script);
    for (const screen of employeeScreens(ids)) {
      where = `${screen.key} as the Zaposleni`;
      await walkScreen(walk, screen);
    }
    // A message of the server on success: the clusters table's layout saved to the Zaposleni's profile.
    where = 'the saved layout and an export';
    await visit(walk, appPath('myClusters'));
    await page.getByRole('button', { name: inScript('Сачувај изглед табеле', script) }).click();
    await expect(page.getByRole('alert').first()).toBeVisible();
    await read(walk, `${appPath('myClusters')} ▸ layout saved`);
    // An export: the file the server makes is asked for in the user's script too.
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: inScript('Извоз у PDF', script) }).click();
    await download;
  } catch (error) {
    throw new Error(`[${script}] walking ${where}: ${error instanceof Error ? error.message : error}`);
  } finally {
    await context.close();
    // The people walked keep Ћирилица, the default, for whoever signs in as them next.
    for (const email of Object.values(people)) {
      const token = await apiToken(request, email, DEMO_PASSWORD);
      await request.post('/api/user/edit-script', { headers: { authorization: `Bearer ${token}` }, data: { pismo: 'cyr' } });
    }
  }
  return { strays: walk.strays, seen: walk.seen, unscripted };
}

test('every screen in Ћирилица and in Latinica shows no word of the other script outside user data', async ({ browser, request }) => {
  test.setTimeout(240_000);
  const ids = await recordIds(request, await apiToken(request, PEOPLE.cyr.admin, DEMO_PASSWORD));
  // Side by side: the walk takes about as long as one script's.
  const [cyr, lat] = await Promise.all([walkAll(browser, request, 'cyr', ids), walkAll(browser, request, 'lat', ids)]);
  const outcomes = { cyr, lat } as const;

  for (const script of ['cyr', 'lat'] as const) {
    const { strays, seen, unscripted } = outcomes[script];
    expect(unscripted, `[${script}] calls without the script`).toEqual([]);
    const unseen = APP_ROUTES.map((r) => r.key).filter((key) => !seen.has(key));
    expect(unseen, 'every route of the route table is walked').toEqual([]);
    const server = report(
      script,
      strays.filter((s) => s.fromServer),
    );
    for (const line of server) test.info().annotations.push({ type: "the server's text in the other script", description: line });
    if (server.length) console.log(server.join('\n'));
  }
  for (const script of ['cyr', 'lat'] as const) {
    const { strays } = outcomes[script];
    expect(
      report(
        script,
        strays.filter((s) => !s.fromServer),
      ),
      'words of the other script outside user data',
    ).toEqual([]);
    if (SERVER_ANSWERS_IN_SCRIPT)
      expect(
        report(
          script,
          strays.filter((s) => s.fromServer),
        ),
        "the server's texts",
      ).toEqual([]);
  }
});
