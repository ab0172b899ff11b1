import { useQueryClient } from '@tanstack/react-query';
import type { UserDto } from '@trasa/domain';
import { type ReactNode, useState } from 'react';
import { Route, Routes } from 'react-router';
import { afterEach, beforeAll, expect, inject, test } from 'vitest';
import { page } from 'vitest/browser';
import { getActivity } from '../../api/activities';
import { type ActivityRowDto, listInProgress } from '../../api/notifications';
import { ACTIVITIES } from '../../messages';
import { activityTitle } from '../../shipped';
import { renderInApp, signIn, watchApiCalls } from '../../testing/app';
import { IN_PROGRESS_KEY } from '../notices/columns';
import { ActivityPage } from './ActivityPage';
import { ACTIVITY_LABELS } from './labels';
import { activityStatusLabel } from './model';

/**
 * The activity page opened from a list (issue 40 item 3): while GET /api/activity/{id} is on its way, the
 * title, the status and the details come from the list's row in React Query's cache; opened with no list
 * behind it, the page waits for the activity. Against the real server, as the Admin, on the demo's A2
 * under way in 'Užice 1 - Kremna'; the activity's own answer is held back until the test lets it go.
 */

const id = inject('activityA2Id');
let admin: UserDto;
let row: ActivityRowDto;
beforeAll(async () => {
  admin = await signIn('admin');
  const listed = await listInProgress({ page: 1, limit: 1000 });
  const found = listed.activities.find((a) => a._id === id);
  if (!found) throw new Error('the demo A2 is not among the activities in progress');
  row = found;
});

const original = window.fetch;
afterEach(() => {
  window.fetch = original;
});

/** Holds the activity's own answer until the returned function is called. */
function holdActivity(): () => void {
  let release: () => void = () => undefined;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  window.fetch = async (input, init) => {
    const href = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    if (new URL(href, window.location.href).pathname === `/api/activity/${id}`) await released;
    return original(input, init);
  };
  return release;
}

/** The page at /app/aktivnost/{id}, after `seed` has put what a list knows into the cache. */
function Opened({ seed }: { seed: boolean }): ReactNode {
  const queryClient = useQueryClient();
  const [ready] = useState(() => {
    if (seed) queryClient.setQueryData([...IN_PROGRESS_KEY, {}, { page: 1, limit: 10 }], { rows: [row], total: 1 });
    return true;
  });
  return ready ? (
    <Routes location={`/app/aktivnost/${id}`}>
      <Route path="/app/aktivnost/:id" element={<ActivityPage />} />
    </Routes>
  ) : null;
}

test('opened from a list, the title, status and details show before the activity has loaded', async () => {
  const release = holdActivity();
  await renderInApp(<Opened seed />, admin);
  const title = activityTitle(row);
  await expect.element(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
  await expect.element(page.getByText(ACTIVITIES.notFinished)).toBeVisible();
  await expect.element(page.getByRole('cell', { name: activityStatusLabel(row.status), exact: true })).toBeVisible();
  await expect.element(page.getByRole('cell', { name: row.lokacija.naziv, exact: true })).toBeVisible();
  // The instructions come with the activity: their button waits for it.
  await expect.element(page.getByRole('button', { name: ACTIVITY_LABELS.instructions })).toBeDisabled();
  release();
  await expect.element(page.getByRole('button', { name: ACTIVITY_LABELS.instructions })).toBeEnabled();
  // The same title stays, now the activity's own.
  const { activity } = await getActivity(id);
  expect(activityTitle(activity)).toBe(title);
  await expect.element(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
});

test('opened with no list behind it, the page waits for the activity', async () => {
  const release = holdActivity();
  await renderInApp(<Opened seed={false} />, admin);
  await expect.element(page.getByRole('progressbar').first()).toBeVisible();
  expect(page.getByRole('heading', { level: 1 }).elements()).toHaveLength(0);
  release();
  await expect.element(page.getByRole('heading', { level: 1, name: activityTitle(row) })).toBeVisible();
});

test('an activity that does not exist shows the not-found page, asked for once', async () => {
  const missing = crypto.randomUUID();
  const calls = watchApiCalls();
  try {
    await renderInApp(
      <Routes location={`/app/aktivnost/${missing}`}>
        <Route path="/app/aktivnost/:id" element={<ActivityPage />} />
      </Routes>,
      admin,
    );
    await expect.element(page.getByRole('heading', { name: ACTIVITIES.missingStep })).toBeVisible();
    // What mounts after the refusal (the page itself, its parts) does not ask again.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(calls.calls(`/api/activity/${missing}`)).toHaveLength(1);
  } finally {
    calls.stop();
  }
});
