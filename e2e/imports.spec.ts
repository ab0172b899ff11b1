import { readFile } from 'node:fs/promises';
import { expect, type Page, test } from '@playwright/test';
import { dataRows, expectNotice, rowWith, search } from './support/admin';
import { ADMIN } from './support/api';
import { menuLabels, signIn } from './support/ui';

/** Spreadsheet imports (spec 2 §2 "Import UI"): the file goes in through the hidden input behind 'Увоз'. */

const stamp = Date.now().toString(36);

function csv(rows: string[][]): Buffer {
  return Buffer.from(rows.map((r) => r.map((c) => `"${c.replace(/"/g, '""')}"`).join(',')).join('\n'), 'utf8');
}

async function chooseFile(page: Page, model: string, name: string, content: Buffer): Promise<void> {
  await page.getByTestId(`import-${model}`).setInputFiles({ name, mimeType: 'text/csv', buffer: content });
}

test('an Admin imports settlements with good and bad rows, reads the report, filters and exports it', async ({ page }) => {
  await signIn(page, ADMIN.email, ADMIN.password);
  await menuLabels(page)
    .filter({ hasText: /^Шифарници$/ })
    .click();
  await page.getByRole('tab', { name: 'Насеља' }).click();

  // The template comes as a file.
  const templateDownload = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Преузми шаблон' }).click();
  expect((await templateDownload).suggestedFilename()).toBe('klasteri.xlsx');

  const good = `Uvozno Selo ${stamp}`;
  await chooseFile(
    page,
    'naselje',
    'naselja.csv',
    csv([
      ['ID насеља', 'Назив насеља', 'Општина', 'Број домаћинстава'],
      [`UV-${stamp}-1`, good, 'Kosjerić, Požega', '140'],
      ['', 'Bez šifre', '', ''],
      [`UV-${stamp}-2`, 'Minus Selo', '', '-3'],
    ]),
  );
  // Rows with errors: the notice (above the dialog, which hides the page from assistive technology, so
  // found by its text), followed by the report with the heading and the details.
  await expect(page.getByText('Успешно додат документ.')).toBeVisible();
  const report = page.getByRole('dialog', { name: 'Резултат увоза' });
  await expect(report).toBeVisible();
  await expect(report.getByText('Грешка при увозу кластера:')).toBeVisible();
  await expect(report.getByText('Увезено: 1, прескочено: 0, са грешком: 2.')).toBeVisible();
  const rows = report.getByRole('table', { name: 'Резултат увоза' }).locator('tbody tr');
  await expect(rows).toHaveCount(3);
  await expect(rows.nth(1)).toContainText('Грешка при креирању за ред: 3 - Морате уписати ID.');
  await expect(rows.nth(2)).toContainText('Број мора бити >= 0');

  await report.getByRole('button', { name: 'Само грешке' }).click();
  await expect(rows).toHaveCount(2);
  await report.getByRole('button', { name: 'Само упозорења' }).click();
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText('Нема пронађених података.');
  await report.getByRole('button', { name: 'Сви' }).click();
  await expect(rows).toHaveCount(3);

  const csvDownload = page.waitForEvent('download');
  await report.getByRole('button', { name: 'Извоз CSV' }).click();
  const csvFile = await csvDownload;
  expect(csvFile.suggestedFilename()).toBe('import-report.csv');
  const exported = await readFile((await csvFile.path()) ?? '', 'utf8');
  expect(exported).toContain('Ред,Назив,Успешно,Упозорења,Грешке');
  expect(exported).toContain(good);
  const xlsxDownload = page.waitForEvent('download');
  await report.getByRole('button', { name: 'Извоз XLSX' }).click();
  expect((await xlsxDownload).suggestedFilename()).toBe('import-report.xlsx');
  await report.getByRole('button', { name: 'Затвори' }).click();
  await expect(report).toHaveCount(0);

  // The good row is in the codebook; importing the same file again changes nothing and says so.
  await search(page, good);
  await expect(rowWith(page, 'Насеља', good)).toContainText('Kosjerić, Požega');
  await expect(dataRows(page, 'Насеља')).toHaveCount(1);
});

test('an Admin imports clusters from the clusters template: a clean file only shows the notice', async ({ page }) => {
  await signIn(page, ADMIN.email, ADMIN.password);
  await page.goto('/app/klasteri');
  const name = `Klaster Uvoz ${stamp}`;
  await chooseFile(
    page,
    'location',
    'klasteri.csv',
    csv([
      ['Кластер', 'ID насеља', 'Назив насеља', 'Успутно насеље', 'Индикативна дужина кластера'],
      [name, `UVK-${stamp}-1`, `Prvo ${stamp}`, 'ne', '14,2'],
      [name, `UVK-${stamp}-2`, `Drugo ${stamp}`, 'da', ''],
    ]),
  );
  await expectNotice(page, 'Успешно додат документ.');
  await expect(page.getByRole('dialog', { name: 'Резултат увоза' })).toHaveCount(0);
  await search(page, name);
  await expect(dataRows(page, 'Кластери')).toHaveCount(1);
  await rowWith(page, 'Кластери', name).getByRole('cell', { name, exact: true }).click();
  await page.getByRole('switch', { name: 'Лична карта кластера' }).check();
  await expect(page.getByRole('table', { name: 'Подаци о кластеру' })).toContainText('14,2');
  await expect(page.getByRole('table', { name: 'Насеља у кластеру' })).toContainText(`Prvo ${stamp}`);
  await expect(page.getByRole('table', { name: 'Успутна насеља' })).toContainText(`Drugo ${stamp}`);
});

test('an Admin imports a user whose built-in role is named in Cyrillic', async ({ page }) => {
  // Server tests cover an extra role carrying the same base (issue 14); roles can't be deleted, so the
  // journeys, which share one database, add none.
  await signIn(page, ADMIN.email, ADMIN.password);
  await page.goto('/app/korisnici');
  const email = `uvoz.${stamp}@optikagradnja.rs`;
  await chooseFile(
    page,
    'user',
    'korisnici.csv',
    csv([
      ['Име', 'Презиме', 'Имејл', 'Рола', 'Група'],
      ['Uvezena', 'Radnica', email, 'Запослени', 'Оптика Градња д.о.о.'],
    ]),
  );
  await expectNotice(page, 'Успешно додат документ.');
  await expect(page.getByRole('dialog', { name: 'Резултат увоза' })).toHaveCount(0);
  await search(page, email);
  await expect(rowWith(page, 'Сви корисници', email)).toContainText('Запослени');
});

test('an oversize file is refused before it is sent', async ({ page }) => {
  await signIn(page, ADMIN.email, ADMIN.password);
  await page.goto('/app/korisnici');
  await chooseFile(page, 'user', 'korisnici.csv', Buffer.alloc(10_000_001, 0x41));
  await expectNotice(page, 'Документ не сме бити већи од 10 Мегабајта');
});
