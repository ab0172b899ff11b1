import { expect, test } from '@playwright/test';
import { dataRows } from './support/admin';
import { apiToken, DEMO_PASSWORD } from './support/api';
import { deviceRecords, serviceWorkerReady } from './support/device';
import { signIn, signOut } from './support/ui';

/**
 * Field work without signal (docs/decisions.md "Offline"): the installable app (manifest, service worker)
 * and what an employee opened online reading without a network — from the device's own copy, marked
 * 'Ван мреже — подаци од …' — while what was never opened says it is not kept, and signing out empties
 * the device. The network is switched off with the browser context's offline mode.
 */

// The other journeys block the service worker (playwright.config.ts).
test.use({ serviceWorkers: 'allow' });

const EMPLOYEE = 'jovana.kostic@optikagradnja.rs';
const LATE_CLUSTER = 'Užice 1 - Kremna';
const OFFLINE_NOTE = /^Ван мреже — подаци од \d\d\.\d\d\.\d{4} \d\d:\d\d$/;

/** Width and height of a PNG, from its IHDR chunk. */
function pngSize(bytes: Buffer): [number, number] {
  expect(bytes.subarray(1, 4).toString('latin1')).toBe('PNG');
  return [bytes.readUInt32BE(16), bytes.readUInt32BE(20)];
}

test('the app is installable: a valid manifest with its icons, and a service worker at /sw.js', async ({ page, request }) => {
  await page.goto('/');
  await expect(page.locator('link[rel="manifest"]')).toHaveAttribute('href', '/manifest.webmanifest');
  expect(await serviceWorkerReady(page)).toMatch(/\/sw\.js$/);

  const res = await request.get('/manifest.webmanifest');
  expect(res.status()).toBe(200);
  expect(res.headers()['content-type']).toMatch(/^application\/manifest\+json/);
  const manifest = await res.json();
  expect(manifest).toMatchObject({ name: 'Trasa', start_url: '/app', scope: '/', display: 'standalone', theme_color: '#417AB4' });
  const icons: { src: string; sizes: string; type: string; purpose: string }[] = manifest.icons;
  for (const size of [192, 512]) {
    for (const purpose of ['any', 'maskable']) {
      const icon = icons.find((i) => i.sizes === `${size}x${size}` && i.purpose === purpose);
      expect(icon, `${purpose} ${size}`).toBeDefined();
      const png = await request.get(icon?.src ?? '');
      expect(png.headers()['content-type']).toBe('image/png');
      expect(pngSize(await png.body())).toEqual([size, size]);
    }
  }
  // The browser looks for a new version through /sw.js: never kept in a cache without asking.
  const sw = await request.get('/sw.js');
  expect(sw.headers()['cache-control']).toBe('no-cache');
  expect(sw.headers()['content-type']).toMatch(/javascript/);
});

test('an employee reads the activity and notifications they opened without a network; sign-out empties the device', async ({
  page,
  context,
  request,
}) => {
  // An activity of the employee's group the device never opens in this journey.
  const token = await apiToken(request, EMPLOYEE, DEMO_PASSWORD);
  const list = await request.get('/api/activity/notifications?page=1&limit=50', { headers: { authorization: `Bearer ${token}` } });
  const notices: { activities: { _id: string; kratakNaziv: string }[] } = await list.json();

  await signIn(page, EMPLOYEE, DEMO_PASSWORD);
  await serviceWorkerReady(page);
  const late = dataRows(page, 'Обавештења').filter({ hasText: LATE_CLUSTER }).filter({ hasText: 'A2' });
  await late.click();
  await expect(page).toHaveURL(/\/app\/aktivnost\/[0-9a-f-]{36}$/);
  const heading = page.getByRole('heading', { level: 1, name: /^A2 - / });
  await expect(heading).toBeVisible();
  const opened = page.url().split('/').pop() ?? '';
  // The heading comes first, from the list's row; the documents and comments once the activity has loaded.
  await expect(page.getByTestId('file-name').first()).toBeVisible();
  const documents = await page.getByTestId('file-name').allTextContents();
  const comments = page.getByRole('region', { name: 'Коментари' });
  const commentsText = (await comments.textContent()) ?? '';
  await expect(page.getByTestId('offline-note')).toHaveCount(0);

  await context.setOffline(true);
  await page.reload();
  // From the device, not signed out, marked with the time the network answered it.
  await expect(heading).toBeVisible();
  await expect(page.getByTestId('offline-note')).toHaveText(OFFLINE_NOTE);
  await expect(page).toHaveURL(new RegExp(`/app/aktivnost/${opened}$`));
  expect(await page.evaluate(() => localStorage.getItem('token'))).toBeTruthy();
  await expect(page.getByTestId('file-name')).toHaveText(documents);
  await expect(comments).toHaveText(commentsText);

  // The notifications, as they were last seen.
  await page.getByRole('link', { name: 'Назад на обавештења' }).click();
  await expect(page).toHaveURL(/\/app$/);
  await expect(late).toHaveCount(1);
  await expect(page.getByTestId('offline-note')).toHaveText(OFFLINE_NOTE);

  // An activity never opened here: said so, no spinner.
  const other = notices.activities.find((a) => a._id !== opened);
  expect(other).toBeDefined();
  await page.goto(`/app/aktivnost/${other?._id}`);
  await expect(page.getByTestId('not-kept-offline')).toContainText('Није доступно ван мреже');
  await expect(page.getByRole('progressbar')).toHaveCount(0);

  // Back online: signing out clears every store of the device's database and leaves no runtime cache.
  await context.setOffline(false);
  await page.goto('/app');
  await expect(late).toHaveCount(1);
  expect((await deviceRecords(page)).answers).toBeGreaterThan(0);
  await signOut(page);
  await expect.poll(() => deviceRecords(page)).toEqual({ answers: 0, changes: 0, session: 0 });
  expect((await page.evaluate(() => caches.keys())).filter((name) => !name.startsWith('workbox-precache'))).toEqual([]);
});
