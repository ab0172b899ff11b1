import { expect, type Page, test } from '@playwright/test';
import { choose, dataRows, expectNotice, rowWith, search } from './support/admin';
import { ADMIN, DEMO_PASSWORD } from './support/api';
import { cancelDialog, menuLabels, signIn } from './support/ui';

/**
 * Public-authority holders and the audit log (spec 3 §2.5, §2.9): the Admin adds, edits and deletes a
 * holder, finds the three actions in the logs and deletes one log row; an employee of the 'ПИУ ТА' group
 * gets the holders in the menu.
 */
const IJO_TABLE = 'Имаоци јавних овлашћења';
const LOG_TABLE = 'Логови';
const PIU_EMPLOYEE = 'milica.pavlovic@piuta.rs';
const PIU_GROUP = 'Јединица за техничку помоћ';

async function openFromMenu(page: Page, label: string): Promise<void> {
  await menuLabels(page)
    .filter({ hasText: new RegExp(`^${label}$`) })
    .click();
  await expect(page.getByRole('heading', { name: label, level: 1 })).toBeVisible();
}

test('the Admin keeps the holders, finds each change in the logs and deletes a log row', async ({ page }) => {
  const stamp = Date.now().toString(36);
  const naziv = `Vodovod Kosjerić ${stamp}`;
  const renamed = `JKP Vodovod Kosjerić ${stamp}`;
  await signIn(page, ADMIN.email, ADMIN.password);
  await openFromMenu(page, 'ИЈО');
  // The demo holders of the glossary are there.
  await expect(rowWith(page, IJO_TABLE, 'Srbijagas a.d.')).toBeVisible();

  // Add: save stays disabled until the name has a letter; the payer is chosen.
  await page.getByRole('button', { name: 'Додај ИЈО' }).click();
  const dialog = page.getByRole('dialog', { name: 'Нови ИЈО' });
  const save = dialog.getByRole('button', { name: 'Сачувај' });
  await expect(save).toBeDisabled();
  await dialog.getByRole('textbox', { name: 'Назив' }).fill('   ');
  await expect(save).toBeDisabled();
  await dialog.getByRole('textbox', { name: 'Назив' }).fill(naziv);
  await choose(dialog, page, 'Одговоран за таксу', 'Наручилац');
  await save.click();
  await expect(dialog).toHaveCount(0);
  await expect(rowWith(page, IJO_TABLE, naziv)).toContainText('Наручилац');

  // A name taken in the other script is refused in the dialog.
  await page.getByRole('button', { name: 'Додај ИЈО' }).click();
  await dialog.getByRole('textbox', { name: 'Назив' }).fill('Србијагас а.д.');
  await dialog.getByRole('button', { name: 'Сачувај' }).click();
  await expect(dialog.getByRole('alert')).toHaveText('ИЈО са овим називом већ постоји.');
  await cancelDialog(page, dialog);

  // Edit.
  await page.getByRole('button', { name: `Измени: ${naziv}` }).click();
  const edit = page.getByRole('dialog', { name: 'Измена ИЈО' });
  await expect(edit.getByRole('textbox', { name: 'Назив' })).toHaveValue(naziv);
  await edit.getByRole('textbox', { name: 'Назив' }).fill(renamed);
  await edit.getByRole('button', { name: 'Сачувај' }).click();
  await expect(edit).toHaveCount(0);
  await expect(rowWith(page, IJO_TABLE, renamed)).toBeVisible();

  // Delete, confirmed in a dialog titled 'Брисање ИЈО' that names the holder.
  await page.getByRole('button', { name: `Обриши: ${renamed}` }).click();
  const confirm = page.getByRole('dialog', { name: 'Брисање ИЈО' });
  await expect(confirm).toContainText(renamed);
  await confirm.getByRole('button', { name: 'Да' }).click();
  await expect(rowWith(page, IJO_TABLE, renamed)).toHaveCount(0);

  // The logs show the three actions, newest first.
  await openFromMenu(page, 'Логови');
  await search(page, stamp);
  await expect(dataRows(page, LOG_TABLE)).toHaveCount(3);
  await expect(dataRows(page, LOG_TABLE).nth(0)).toContainText(`је обрисао ИЈО ${renamed}`);
  await expect(dataRows(page, LOG_TABLE).nth(1)).toContainText(`је изменио ИЈО ${naziv} у ${renamed}`);
  await expect(dataRows(page, LOG_TABLE).nth(2)).toContainText(`је додао ИЈО ${naziv} (Наручилац)`);
  await expect(dataRows(page, LOG_TABLE).nth(0)).toContainText(/\d{2}:\d{2}:\d{2} \d{2}-\d{2}-\d{4}/);

  // The Admin deletes the row of the addition.
  const added = rowWith(page, LOG_TABLE, `је додао ИЈО ${naziv}`);
  await added.getByRole('checkbox').check();
  await page.getByRole('button', { name: 'Обриши изабране (1)' }).click();
  const confirmLogs = page.getByRole('dialog', { name: 'Брисање логова' });
  await confirmLogs.getByRole('button', { name: 'Да' }).click();
  await expectNotice(page, 'Успешно обрисани логови');
  await expect(dataRows(page, LOG_TABLE)).toHaveCount(2);
  await expect(rowWith(page, LOG_TABLE, `је додао ИЈО ${naziv}`)).toHaveCount(0);
});

test('an employee of the ПИУ ТА group has the holders in the menu and sees only their group’s logs', async ({ page }) => {
  await signIn(page, PIU_EMPLOYEE, DEMO_PASSWORD);
  await openFromMenu(page, 'ИЈО');
  await expect(page.getByRole('button', { name: 'Додај ИЈО' })).toBeVisible();
  await openFromMenu(page, 'Логови');
  // Their own sign-in is there, under their group; no delete for them.
  await expect(rowWith(page, LOG_TABLE, `Корисник ${PIU_EMPLOYEE} се пријавио.`).first()).toBeVisible();
  await expect(page.getByRole('button', { name: /Обриши изабране/ })).toHaveCount(0);
  await expect(page.getByRole('checkbox')).toHaveCount(0);
  // The group cell opens that group's logs (/app/logovi/{naziv}).
  await page
    .getByRole('link', { name: `Логови групе ${PIU_GROUP}` })
    .first()
    .click();
  await expect(page).toHaveURL(/\/app\/logovi\/.+/);
  await expect(page.getByRole('heading', { name: `Логови групе ${PIU_GROUP}` })).toBeVisible();
  await expect(rowWith(page, LOG_TABLE, `Корисник ${PIU_EMPLOYEE} се пријавио.`).first()).toBeVisible();
});
