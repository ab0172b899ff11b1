import { readFile } from 'node:fs/promises';
import { expect, test } from '@playwright/test';
import ExcelJS from 'exceljs';
import { ADMIN, DEMO_PASSWORD } from './support/api';
import { signIn } from './support/ui';

/**
 * The report hub's pictures and exports (issue 10 items 3 and 9): the Admin sees each contract's
 * progress as charts, downloads the summary as Excel (opened and counted), and finds a cluster's
 * activities on a time line with the demo's A4 revision. On a phone a sees-all manager's hub holds still
 * while it loads and the window never scrolls past the application.
 */

test('the report hub charts each contract, exports the summary, and a cluster shows its activity time line', async ({ page }) => {
  await signIn(page, ADMIN.email, ADMIN.password);
  await page.goto('/app/izvestaji');
  await expect(page.getByRole('heading', { name: 'Извештаји', level: 1 })).toBeVisible();
  // Clearing the snapshots deletes every one of them: it asks first, and 'Не' leaves them.
  await page.getByRole('button', { name: 'Обриши снимке' }).click();
  const confirm = page.getByRole('dialog', { name: 'Обрисати све снимке извештаја?' });
  await expect(confirm).toBeVisible();
  await confirm.getByRole('button', { name: 'Не' }).click();
  await expect(confirm).toBeHidden();
  await expect(page.getByText(/^Обрисано снимака/)).toHaveCount(0);
  const charts = page.getByTestId('progress-charts');
  await expect(charts.getByRole('heading', { name: 'Напредак по уговорима' })).toBeVisible();
  // Every contract's section draws its bars (SVG rectangles of @mui/x-charts).
  const first = charts.locator('section').first();
  await expect(first).toBeVisible();
  await expect(first.locator('svg rect').first()).toBeVisible();
  await expect(first.getByText('Кластери по етапи (последња завршена активност)')).toBeVisible();

  // The summary's Excel export: downloaded, opened, a row per catalogue activity and the count row.
  // The tab's panel loads lazily and the finished report's panel (with its own export button) stays
  // until it has; wait for the summary's table so the click lands on the summary's button.
  await page.getByRole('tab', { name: 'Збирни извештај' }).click();
  await expect(page).toHaveURL(/izvestaj=sumarni/);
  await expect(page.getByRole('table', { name: 'Збирни извештај' })).toBeVisible();
  // …and for its rows: the rows counted below must be the loaded report's (a CI run counted 0 while they came).
  await expect(page.getByRole('table', { name: 'Збирни извештај' }).locator('tbody tr')).not.toHaveCount(0);
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Извоз у Excel' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^report-summary-\d{4}-\d{2}-\d{2}-\d{4}\.xlsx$/);
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load((await readFile(await file.path())) as unknown as ArrayBuffer);
  const sheet = wb.worksheets[0];
  const shownRows = await page.getByRole('table', { name: 'Збирни извештај' }).locator('tbody tr').count();
  expect(sheet?.rowCount).toBe(1 + shownRows + 1);
  expect(sheet?.getRow(1).getCell(1).value).toBe('Ознака');

  // The demo's Ivanjica - Kušići: A4 went back once (revision 1); its time line says so.
  // The cluster detail opens from the clusters list (spec 2 §2).
  await page.goto('/app/klasteri');
  await page.getByRole('cell', { name: 'Ivanjica - Kušići', exact: true }).click();
  await expect(page).toHaveURL(/\/app\/klaster\//);
  const timeline = page.getByTestId('activity-timeline');
  await expect(timeline.getByRole('heading', { name: 'Временска линија активности' })).toBeVisible();
  await expect(timeline.locator('svg').getByText('A4 · ревизија 1')).toBeVisible();
  await expect(timeline.locator('svg').getByText('A1', { exact: true })).toBeVisible();
});

test('a sees-all manager’s hub on a phone: nothing moves when the snapshots answer, the window stays on the app', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  // The layout shifts of each page's load, as Lighthouse counts them (none after the user's input).
  await page.addInitScript(() => {
    const w = window as unknown as { shifts: number[] };
    w.shifts = [];
    new PerformanceObserver((list) => {
      for (const e of list.getEntries() as unknown as { value: number; hadRecentInput: boolean }[]) {
        if (!e.hadRecentInput) w.shifts.push(e.value);
      }
    }).observe({ type: 'layout-shift', buffered: true });
  });
  const shifted = () => page.evaluate(() => (window as unknown as { shifts: number[] }).shifts.reduce((a, b) => a + b, 0));
  await signIn(page, 'dragana.nikolic@mit.gov.rs', DEMO_PASSWORD);
  // The list of snapshots (which says whether the test panel is hers) is held until the charts are drawn.
  let release = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route('**/api/report/snapshots', async (route) => {
    await held;
    await route.continue();
  });
  await page.goto('/app/izvestaji');
  const charts = page.getByTestId('progress-charts');
  await expect(charts.locator('section').first().locator('svg rect').first()).toBeVisible();
  // Her group sees every cluster: the panel is drawn from her profile at once, not when the answer comes.
  await expect(page.getByRole('heading', { name: 'Тест панел (снимци извештаја)' })).toBeVisible();
  await expect(page.getByRole('tab', { name: 'Збирни извештај' })).toBeVisible();
  const before = await shifted();
  const answered = page.waitForResponse('**/api/report/snapshots');
  release();
  expect((await answered).status()).toBe(200);
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
  await expect(page.getByRole('heading', { name: 'Тест панел (снимци извештаја)' })).toBeVisible();
  expect(await shifted()).toBeLessThan(0.1);
  expect((await shifted()) - before).toBeLessThan(0.01);
  // The charts' hidden data lists stay inside their sections: the window has nothing to scroll.
  expect(await page.evaluate(() => document.documentElement.scrollHeight - window.innerHeight)).toBeLessThanOrEqual(0);
  expect(
    await page.evaluate(() => {
      window.scrollTo({ top: 10_000, behavior: 'instant' });
      return window.scrollY;
    }),
  ).toBe(0);
});
