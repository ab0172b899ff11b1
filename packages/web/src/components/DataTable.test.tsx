import type { UserDto } from '@trasa/domain';
import { useState } from 'react';
import { afterEach, beforeAll, beforeEach, expect, test } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import { listUsers, searchUsers } from '../api/users';
import { USERS } from '../messages';
import { renderInApp, signIn, watchApiCalls } from '../testing/app';
import { UI } from '../texts';
import { type ColumnDef, DataTable, type TableQuery } from './DataTable';
import { SHARED } from './sharedTexts';
import { TABLE_TEXTS } from './tableTexts';

/**
 * The list table against the real server's users list (GET /api/user, /api/search/user) of the demo seed:
 * what it asks the server for and what it shows.
 */

let admin: UserDto;
beforeAll(async () => {
  admin = await signIn();
});

let api: ReturnType<typeof watchApiCalls>;
beforeEach(() => {
  // Each test starts on the first page without search or sort (the table keeps them in session storage).
  sessionStorage.clear();
  api = watchApiCalls();
});
afterEach(async () => {
  api.stop();
  await page.viewport(1280, 800);
});

const COLUMNS: ColumnDef<UserDto>[] = [
  { accessorKey: 'ime', header: 'Ime' },
  { accessorKey: 'prezime', header: 'Prezime' },
  { accessorKey: 'email', header: 'Email' },
];

function fetchUsers(q: TableQuery) {
  const params = { page: q.page, limit: q.limit, sort: q.sort, order: q.order };
  const answer = q.search ? searchUsers({ ...params, ...q.search }, q.signal) : listUsers(params, q.signal);
  return answer.then((p) => ({ rows: p.users, total: p.totalResults }));
}

type Props = Partial<Parameters<typeof DataTable<UserDto>>[0]>;

function renderUsers(props: Props = {}) {
  return renderInApp(
    <DataTable
      tableName="webTestUsers"
      label="Korisnici"
      columns={COLUMNS}
      queryKey={['web-test-users']}
      fetchPage={fetchUsers}
      sortable={['ime', 'prezime']}
      exportAs={false}
      {...props}
    />,
    admin,
  );
}

/** The table (found in the DOM: an open popover hides the page from the accessibility tree). */
function tableElement(): HTMLTableElement {
  const el = document.querySelector<HTMLTableElement>('table[aria-label="Korisnici"]');
  if (!el) throw new Error('no table');
  return el;
}

/** The e-mails of the table's rows as shown, once the table is not busy (null while it is). */
function shownEmails(): string[] | null {
  const el = tableElement();
  if (el.getAttribute('aria-busy') !== 'false') return null;
  return [...el.querySelectorAll('tbody tr:not(.dt-message)')].map((tr) => tr.querySelectorAll('td')[2]?.textContent ?? '');
}

async function expectEmails(expected: string[]) {
  await expect.poll(shownEmails).toEqual(expected);
}

/** The column header's aria-sort (null without one). */
function sortOf(header: string): string | null {
  const th = [...tableElement().querySelectorAll('thead th')].find((el) => el.firstElementChild?.textContent === header);
  if (!th) throw new Error(`no column ${header}`);
  return th.getAttribute('aria-sort');
}

test('sorting asks the server for the sorted page and marks the column ascending, descending, then unsorted', async () => {
  const byDefault = (await listUsers({ page: 1, limit: 10 })).users.map((u) => u.email);
  const ascending = (await listUsers({ page: 1, limit: 10, sort: 'prezime', order: 'asc' })).users.map((u) => u.email);
  const descending = (await listUsers({ page: 1, limit: 10, sort: 'prezime', order: 'desc' })).users.map((u) => u.email);
  expect(ascending).not.toEqual(descending);
  await renderUsers();
  await expectEmails(byDefault);
  expect(sortOf('Prezime')).toBe('none');
  expect(sortOf('Email')).toBeNull();

  await page.getByRole('button', { name: TABLE_TEXTS.sortByColumnAsc('Prezime') }).click();
  await expectEmails(ascending);
  expect(sortOf('Prezime')).toBe('ascending');
  expect(sortOf('Ime')).toBe('none');
  expect(api.calls('/api/user').at(-1)?.searchParams.toString()).toBe('page=1&limit=10&sort=prezime&order=asc');

  await page.getByRole('button', { name: TABLE_TEXTS.sortedByColumnAsc('Prezime') }).click();
  await expectEmails(descending);
  expect(sortOf('Prezime')).toBe('descending');
  expect(api.calls('/api/user').at(-1)?.searchParams.toString()).toBe('page=1&limit=10&sort=prezime&order=desc');

  // The third click goes back to the list's own order (the first page, cached: no new call).
  await page.getByRole('button', { name: TABLE_TEXTS.sortedByColumnDesc('Prezime') }).click();
  await expectEmails(byDefault);
  expect(sortOf('Prezime')).toBe('none');
});

test('paging shows the next page of the server and its range', async () => {
  const { users: second, totalResults: total } = await listUsers({ page: 2, limit: 10 });
  expect(total).toBeGreaterThan(20);
  await renderUsers();
  await expect.element(page.getByText(`1-10 ${TABLE_TEXTS.of} ${total}`)).toBeVisible();
  await expect.element(page.getByRole('button', { name: TABLE_TEXTS.goToPreviousPage })).toBeDisabled();

  await page.getByRole('button', { name: TABLE_TEXTS.goToNextPage }).click();
  await expectEmails(second.map((u) => u.email));
  await expect.element(page.getByText(`11-20 ${TABLE_TEXTS.of} ${total}`)).toBeVisible();
  expect(api.calls('/api/user').at(-1)?.searchParams.get('page')).toBe('2');

  await page.getByRole('button', { name: TABLE_TEXTS.goToLastPage }).click();
  const lastPage = Math.ceil(total / 10);
  const { users: last } = await listUsers({ page: lastPage, limit: 10 });
  await expectEmails(last.map((u) => u.email));
  await expect.element(page.getByText(`${(lastPage - 1) * 10 + 1}-${total} ${TABLE_TEXTS.of} ${total}`)).toBeVisible();
  await expect.element(page.getByRole('button', { name: TABLE_TEXTS.goToNextPage })).toBeDisabled();
});

/** The column headers' texts, left to right. */
function headers(): string[] {
  return [...tableElement().querySelectorAll('thead th')].map((th) => th.firstElementChild?.textContent ?? th.textContent ?? '');
}

test('the column chooser hides a column and moves one left and right', async () => {
  await renderUsers();
  await expect.poll(headers).toEqual(['Ime', 'Prezime', 'Email']);
  await page.getByRole('button', { name: TABLE_TEXTS.showHideColumns }).click();
  const chooser = page.getByRole('dialog', { name: TABLE_TEXTS.showHideColumns });
  await expect.element(chooser).toBeVisible();
  await expect.element(chooser.getByRole('button', { name: `${TABLE_TEXTS.moveUp}: Ime` })).toBeDisabled();
  await expect.element(chooser.getByRole('button', { name: `${TABLE_TEXTS.moveDown}: Email` })).toBeDisabled();

  await chooser.getByRole('checkbox', { name: 'Email' }).click();
  await expect.poll(headers).toEqual(['Ime', 'Prezime']);
  await expect.element(chooser.getByRole('checkbox', { name: 'Email' })).not.toBeChecked();

  await chooser.getByRole('button', { name: `${TABLE_TEXTS.moveDown}: Ime` }).click();
  await expect.poll(headers).toEqual(['Prezime', 'Ime']);
  // The cells follow their headers.
  const [first] = (await listUsers({ page: 1, limit: 10 })).users;
  const firstRow = tableElement().querySelector('tbody tr:not(.dt-message)');
  expect([...(firstRow?.querySelectorAll('td') ?? [])].map((td) => td.textContent)).toEqual([first?.prezime, first?.ime]);

  // The hidden column moves too: up twice, it is first once it shows again.
  await chooser.getByRole('button', { name: `${TABLE_TEXTS.moveUp}: Email` }).click();
  await chooser.getByRole('button', { name: `${TABLE_TEXTS.moveUp}: Email` }).click();
  await chooser.getByRole('checkbox', { name: 'Email' }).click();
  await expect.poll(headers).toEqual(['Email', 'Prezime', 'Ime']);

  await chooser.getByRole('button', { name: TABLE_TEXTS.resetOrder }).click();
  await expect.poll(headers).toEqual(['Ime', 'Prezime', 'Email']);
});

test("on a phone a row's actions are behind its menu button, and a column marked for it shows under the first cell", async () => {
  const opened: string[] = [];
  const actions = (row: UserDto) => (
    <button type="button" onClick={() => opened.push(row.email)}>
      Otvori {row.email}
    </button>
  );
  const [first] = (await listUsers({ page: 1, limit: 10 })).users;
  if (!first) throw new Error('no users');

  await page.viewport(390, 844);
  const status: ColumnDef<UserDto> = { id: 'status', header: 'Status', accessorFn: (u) => u.status, phoneDetail: true };
  await renderUsers({ renderRowActions: actions, columns: [...COLUMNS, status] });
  const menu = page.getByRole('button', { name: `${SHARED.rowActions}: ${first.ime}`, exact: true }).first();
  await expect.element(menu).toHaveAttribute('aria-expanded', 'false');
  await expect.element(page.getByRole('button', { name: `Otvori ${first.email}` })).not.toBeInTheDocument();
  // The first two columns only, and the actions; the status (never told by a colour alone) under the name.
  await expect.poll(headers).toEqual(['Ime', 'Prezime', UI.actions]);
  const firstCell = () => tableElement().querySelector('tbody tr td')?.textContent;
  await expect.poll(firstCell).toBe(`${first.ime}Status: ${first.status}`);

  await menu.click();
  const group = page.getByRole('group', { name: `${SHARED.rowActions}: ${first.ime}` });
  await group.getByRole('button', { name: `Otvori ${first.email}` }).click();
  expect(opened).toEqual([first.email]);
  // A click in the menu closes it.
  await expect.element(group).not.toBeInTheDocument();
  await expect.element(menu).toHaveAttribute('aria-expanded', 'false');

  // A wide screen shows the buttons in the rows and every column again.
  await page.viewport(1280, 800);
  await expect.element(page.getByRole('button', { name: `Otvori ${first.email}` })).toBeVisible();
  await expect.element(page.getByRole('button', { name: `${SHARED.rowActions}: ${first.ime}` }).first()).not.toBeInTheDocument();
  await expect.poll(headers).toEqual(['Ime', 'Prezime', 'Email', 'Status', UI.actions]);
  await expect.poll(firstCell).toBe(first.ime);
});

test('a failed load shows its error and a retry in place of the rows, and no pager', async () => {
  // The server refuses a sort by a column it does not know (400): a real failure, not a stand-in.
  await renderUsers({
    fetchPage: (q) =>
      listUsers({ page: q.page, limit: q.limit, sort: 'nepoznata' }, q.signal).then((p) => ({ rows: p.users, total: p.totalResults })),
  });
  const table = page.getByRole('table', { name: 'Korisnici' });
  await expect.element(table.getByText(USERS.loadFailed)).toBeVisible();
  await expect.element(table.getByRole('button', { name: SHARED.retry })).toBeVisible();
  expect(document.querySelector('.dt-pager')).toBeNull();
  expect(document.body.textContent).not.toContain(`0-0 ${TABLE_TEXTS.of} 0`);
});

test('numbers stand right-aligned in their column, header too', async () => {
  const count: ColumnDef<UserDto> = { id: 'tabele', header: 'Tabele', accessorFn: (u) => u.tabela.length, numeric: true };
  await renderUsers({ columns: [...COLUMNS, count] });
  await expect.poll(shownEmails).not.toBeNull();
  const [th, td] = [tableElement().querySelectorAll('thead th')[3], tableElement().querySelector('tbody tr td:nth-child(4)')];
  expect(th && getComputedStyle(th).textAlign).toBe('right');
  expect(td && getComputedStyle(td).textAlign).toBe('right');
  expect(td && getComputedStyle(td).fontVariantNumeric).toBe('tabular-nums');
  expect(getComputedStyle(tableElement().querySelectorAll('tbody tr td')[0] as Element).textAlign).toBe('left');
});

/** The list, and in its place the page of the row opened (Enter or a click), with a way back. */
function ListAndPage() {
  const [opened, setOpened] = useState<UserDto | null>(null);
  if (opened) {
    return (
      <button type="button" onClick={() => setOpened(null)}>
        Nazad sa {opened.email}
      </button>
    );
  }
  return (
    <DataTable
      tableName="webTestUsers"
      label="Korisnici"
      columns={COLUMNS}
      queryKey={['web-test-users']}
      fetchPage={fetchUsers}
      exportAs={false}
      onRowClick={setOpened}
    />
  );
}

test("back from a row's page, focus returns to the row that was opened", async () => {
  const { users } = await listUsers({ page: 1, limit: 10 });
  const third = users[2];
  if (!third) throw new Error('too few users');
  await renderInApp(<ListAndPage />, admin);
  await expect.poll(shownEmails).toEqual(users.map((u) => u.email));
  const row = () => [...tableElement().querySelectorAll<HTMLElement>('tbody tr')].find((tr) => tr.textContent?.includes(third.email));
  row()?.focus();
  await userEvent.keyboard('{Enter}');
  const back = page.getByRole('button', { name: `Nazad sa ${third.email}` });
  await back.click();
  await expect.poll(() => !!row() && document.activeElement === row()).toBe(true);
});

test('typing in the search box sends one search, for the whole text, after the pause', async () => {
  const text = 'admin';
  const found = await searchUsers({ page: 1, limit: 10, eng: text, srb: 'админ' });
  expect(found.users.map((u) => u.email)).toContain('admin@trasa.test');
  api.reset();
  await renderUsers({ searchable: true });
  await expect.poll(shownEmails).not.toBeNull();
  const listCalls = api.calls('/api/user').length;

  await userEvent.type(page.getByRole('searchbox', { name: UI.search }), text);
  await expectEmails(found.users.map((u) => u.email));
  const searches = api.calls('/api/search/user');
  expect(searches.map((u) => u.searchParams.get('eng'))).toEqual([text]);
  expect(searches[0]?.searchParams.get('srb')).toBe('админ');
  expect(searches[0]?.searchParams.get('page')).toBe('1');
  expect(api.calls('/api/user')).toHaveLength(listCalls);
});
