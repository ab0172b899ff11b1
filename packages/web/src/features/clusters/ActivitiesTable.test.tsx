import type { UserDto } from '@trasa/domain';
import { afterEach, beforeAll, expect, inject, test } from 'vitest';
import { page } from 'vitest/browser';
import { getActivity } from '../../api/activities';
import { getLocation, type LocationDto } from '../../api/clusters';
import { renderInApp, signIn } from '../../testing/app';
import { ACTIVITY_UI } from '../catalogue/labels';
import { ActivitiesTable } from './ActivitiesTable';

/**
 * A cluster's activities (spec 2 §4) say in words what a row's deadline colour says (issue 40 item 4, WCAG
 * 1.4.1): against the real server, the demo's 'Užice 1 - Kremna', whose A2 is under way twelve days late
 * (red).
 */

let admin: UserDto;
let location: LocationDto;
beforeAll(async () => {
  admin = await signIn('admin');
  const { activity } = await getActivity(inject('activityA2Id'));
  location = await getLocation(activity.lokacija._id);
});

afterEach(async () => {
  await page.viewport(1280, 800);
});

const rowOf = (code: string) =>
  [...document.querySelectorAll('tbody tr')].find((tr) => tr.querySelector('td')?.textContent?.startsWith(code));

test('the late activity is red and says so in its status; on a phone under the activity, with its deadline', async () => {
  await page.viewport(1280, 800);
  await renderInApp(<ActivitiesTable location={location} />, admin);
  await expect.poll(() => rowOf('A2')?.textContent).toContain('У току, рок је истекао');
  expect(rowOf('A2')?.classList.contains('dt-colored')).toBe(true);
  // A row the colour says nothing more of keeps its plain status.
  expect([...(rowOf('A3')?.querySelectorAll('td') ?? [])].map((td) => td.textContent)).toContain('Није започета');

  await page.viewport(390, 844);
  await expect
    .poll(() => rowOf('A2')?.querySelector('td')?.textContent)
    .toMatch(new RegExp(`^A2Статус: У току, рок је истекао${ACTIVITY_UI.deadline}: \\d\\d\\.\\d\\d\\.\\d{4}\\.?$`));
});
