import { expect, test } from '@playwright/test';
import { dataRows, expectNotice, rowWith, search } from './support/admin';
import { ADMIN } from './support/api';
import { signIn } from './support/ui';

const LIST = 'Уговори извођача';

/**
 * Issue 13 item 8: dates are typed and shown DD.MM.YYYY whatever the browser's language. An English
 * browser west of Greenwich: its own date input would show 03/01/2026, and a stored 2026-03-01 read as
 * midnight UTC would be 28.02 there.
 */
test.use({ locale: 'en-US', timezoneId: 'America/New_York' });

test('an English browser types and sees a contract date as DD.MM.YYYY, with a Serbian calendar', async ({ page }, testInfo) => {
  const stamp = Date.now().toString(36);
  const naziv = `Ugovor datumi ${stamp}`;
  await signIn(page, ADMIN.email, ADMIN.password);
  await page.goto('/app/ugovori-izvodjaci');
  await page.getByRole('button', { name: 'Креирај уговор' }).click();
  const dialog = page.getByRole('dialog', { name: 'Нови уговор' });
  await expect(dialog.locator('input[type="date"], input[type="datetime-local"]')).toHaveCount(0);

  const date = dialog.locator('input[name="datumPocetka"]');
  await date.click();
  // The empty field shows the pattern in the user's script (Ћирилица here).
  await expect(date).toHaveAttribute('placeholder', 'ДД.ММ.ГГГГ');
  await date.fill('01.03.2026');
  await expect(date).toHaveValue('01.03.2026');
  // The calendar opens on the typed date, in Serbian.
  await dialog.getByRole('button', { name: /Изаберите датум/ }).click();
  const calendar = page.getByRole('dialog').filter({ has: page.getByRole('grid') });
  await expect(calendar).toContainText(/март 2026/i);
  await expect(calendar.getByRole('gridcell', { name: '1', exact: true }).first()).toHaveAttribute('aria-selected', 'true');
  await page.screenshot({ path: testInfo.outputPath('contract-date-en-US.png') });
  await page.keyboard.press('Escape');
  await expect(date).toHaveValue('01.03.2026');

  await dialog.locator('input[name="naziv"]').fill(naziv);
  await dialog.locator('input[name="broj"]').fill(`DAT-${stamp}`);
  await dialog.locator('input[name="rokTrajanja"]').fill('30');
  await dialog.getByRole('button', { name: 'Сачувај' }).click();
  await expectNotice(page, 'Успешно креиран уговор.');

  await search(page, stamp);
  await expect(dataRows(page, LIST)).toHaveCount(1);
  const row = rowWith(page, LIST, naziv);
  await expect(row).toContainText('01.03.2026');
  await expect(row).not.toContainText('28.02.2026');
  await expect(row).not.toContainText('3/1/2026');

  await row.getByRole('button', { name: `Измени: ${naziv}` }).click();
  const edit = page.getByRole('dialog', { name: 'Измена уговора' });
  await expect(edit.locator('input[name="datumPocetka"]')).toHaveValue('01.03.2026');
  await page.screenshot({ path: testInfo.outputPath('contract-edit-en-US.png') });
});
