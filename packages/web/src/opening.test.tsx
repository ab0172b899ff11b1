import type { UserDto } from '@trasa/domain';
import type { ReactNode } from 'react';
import { afterEach, beforeAll, expect, test } from 'vitest';
import { getToken } from './api/token';
import { TopicsPage } from './features/topics/TopicsPage';
import { UsersPage } from './features/users/UsersPage';
import { openingOf } from './opening';
import { renderInApp, signIn, watchApiCalls } from './testing/app';

/**
 * src/opening.ts asks, before the application loads, for what the screen will ask first: a list's page,
 * page size, sort and filters as the table keeps them in session storage, so its early answer is taken.
 */

let user: UserDto;
let token = '';
beforeAll(async () => {
  user = await signIn('admin');
  token = getToken() ?? '';
});

afterEach(() => {
  sessionStorage.clear();
});

/** The screen's first request to `path` (its address with the query, as the opening script writes it). */
async function firstRequest(screen: ReactNode, path: string): Promise<string> {
  const calls = watchApiCalls();
  try {
    renderInApp(screen, user);
    await expect.poll(() => calls.calls(path).length).toBeGreaterThan(0);
    const url = calls.calls(path)[0] as URL;
    return `${url.pathname}${url.search}`;
  } finally {
    calls.stop();
  }
}

test('a first visit asks for the first page of 10 rows, unsorted', async () => {
  expect(openingOf('/app/korisnici', '', token)?.paths).toEqual(['/user/my-profile', '/user?page=1&limit=10']);
  expect(`/api${openingOf('/app/korisnici', '', token)?.paths[1]}`).toBe(await firstRequest(<UsersPage />, '/api/user'));
});

test('the users list kept on its second page of 25, sorted by e-mail descending: the early request is the screen’s', async () => {
  sessionStorage.setItem(
    'tabela:["users","list"]',
    JSON.stringify({ pageIndex: 1, pageSize: 25, search: '', sorting: [{ id: 'email', desc: true }] }),
  );
  const early = openingOf('/app/korisnici', '', token)?.paths[1];
  expect(early).toBe('/user?page=2&limit=25&sort=email&order=desc');
  expect(`/api${early}`).toBe(await firstRequest(<UsersPage />, '/api/user'));
});

test('the topics with their filters and sort kept: the early request is the screen’s', async () => {
  sessionStorage.setItem('teme:filteri', JSON.stringify({ status: 'otvoren', prioritet: '' }));
  sessionStorage.setItem(
    'tabela:["topics","list","otvoren",""]',
    JSON.stringify({ pageIndex: 0, pageSize: 50, search: '', sorting: [{ id: 'rok', desc: false }] }),
  );
  const early = openingOf('/app/teme', '', token)?.paths[1];
  expect(early).toContain('status=otvoren');
  expect(`/api${early}`).toBe(await firstRequest(<TopicsPage />, '/api/topic'));
});

test('a kept search asks nothing early for the list (the screen searches in both scripts)', () => {
  sessionStorage.setItem('tabela:["users","list"]', JSON.stringify({ pageIndex: 0, pageSize: 10, search: 'petar', sorting: [] }));
  expect(openingOf('/app/korisnici', '', token)?.paths).toEqual(['/user/my-profile']);
});

test('an activity and the notifications: the address’s id, the signed-in user’s table', () => {
  expect(openingOf('/app/aktivnost/abc', '', token)?.paths).toEqual(['/user/my-profile', '/activity/abc']);
  sessionStorage.setItem(`tabela:${JSON.stringify(['notifications', user._id])}`, JSON.stringify({ pageIndex: 0, pageSize: 50 }));
  expect(openingOf('/app', '', token)?.paths).toEqual(['/user/my-profile', '/activity/notifications?page=1&limit=50']);
  expect(openingOf('/app/izvestaji', '?izvestaj=sumarni', token)?.paths).toEqual(['/user/my-profile', '/report/snapshots']);
  expect(openingOf('/prijava', '', token)).toBeNull();
});
