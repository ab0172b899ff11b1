import { expect, type Page, test } from '@playwright/test';
import { choose, expectNotice, rowWith } from './support/admin';
import { ADMIN } from './support/api';
import { signIn } from './support/ui';

/**
 * The mail-server screens (spec 3 §2.8, §5, §8): the Admin adds a server (the spec's validation texts
 * first), the warning 'none in use' goes away once one is in use, edits it (an empty password keeps the
 * stored one), and deletes it after confirming; the outbox below the servers shows a mail kept while no
 * server was in use, filtered by status, with its text.
 */
const TABLE = 'SMTP сервери';
const OUTBOX = 'Одлазна пошта';
const shots = process.env.SMTP_SHOTS;

async function shot(page: Page, name: string) {
  if (shots) await page.screenshot({ path: `${shots}/${name}.png`, fullPage: true });
}

test('the Admin adds, edits and deletes an SMTP server', async ({ page }) => {
  const host = `smtp-${Date.now().toString(36)}.primer.rs`;
  await signIn(page, ADMIN.email, ADMIN.password);
  await page.goto('/app/emailconfig');
  await expect(page.getByRole('heading', { name: 'Мејл сервер', level: 1 })).toBeVisible();
  const warning = page.getByTestId('smtp-none-in-use');
  await expect(warning).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Одлазна пошта' })).toBeVisible();
  // With no server in use a mail waits in the outbox, where the Admin reads it (its link included).
  const reset = await page.request.post('/api/user/reset-password', { data: { email: 'milica.pavlovic@piuta.rs' } });
  expect(reset.ok()).toBe(true);
  const mail = rowWith(page, OUTBOX, 'milica.pavlovic@piuta.rs').first();
  await expect(async () => {
    await page.reload();
    await expect(mail).toContainText('Нема сервера', { timeout: 2000 });
  }).toPass();
  await choose(page, page, 'Статус поруке', 'Послата');
  await expect(rowWith(page, OUTBOX, 'milica.pavlovic@piuta.rs')).toHaveCount(0);
  await choose(page, page, 'Статус поруке', 'Нема сервера');
  await mail.click();
  const read = page.getByRole('dialog', { name: 'Траса — промена лозинке' });
  await expect(read).toContainText('/reset-lozninke?email=');
  await shot(page, 'list-empty');
  await read.getByRole('button', { name: 'Затвори' }).click();

  await page.getByRole('button', { name: 'Додај сервер' }).click();
  const dialog = page.getByRole('dialog', { name: 'Нови SMTP сервер' });
  await dialog.getByRole('textbox', { name: 'Порт' }).fill('25a');
  await dialog.getByRole('textbox', { name: 'Имејл' }).fill('nije-adresa');
  await dialog.getByRole('button', { name: 'Сачувај' }).click();
  await expect(dialog.getByText('Обавезно поље')).toHaveCount(2); // host, password
  await expect(dialog.getByText('Порт мора бити број од 1 до 65535.')).toBeVisible();
  await expect(dialog.getByText('Неисправна е-пошта')).toBeVisible();
  await shot(page, 'add-errors');
  await dialog.getByRole('textbox', { name: 'Хост' }).fill(host);
  await dialog.getByRole('textbox', { name: 'Порт' }).fill('587');
  await dialog.getByRole('textbox', { name: 'Имејл' }).fill('posta@primer.rs');
  await dialog.getByLabel('Лозинка').fill('tajna-lozinka');
  await dialog.getByLabel('У употреби').check();
  await dialog.getByRole('button', { name: 'Сачувај' }).click();
  await expectNotice(page, 'SMTP сервер је сачуван.');
  await expect(dialog).toHaveCount(0);
  await expect(rowWith(page, TABLE, host)).toContainText('Да');
  await expect(warning).toHaveCount(0);
  await shot(page, 'list-in-use');

  // The detail: edit the port and take the server out of use; the password stays empty.
  await rowWith(page, TABLE, host).click();
  await expect(page).toHaveURL(/\/app\/emailconfig\/[0-9a-f-]{36}$/);
  await expect(page.getByRole('textbox', { name: 'Хост' })).toHaveValue(host);
  await expect(page.getByLabel('Лозинка')).toHaveValue('');
  await shot(page, 'detail');
  await page.getByRole('textbox', { name: 'Порт' }).fill('2525');
  await page.getByLabel('У употреби').uncheck();
  await page.getByRole('button', { name: 'Сачувај', exact: true }).click();
  await expectNotice(page, 'SMTP сервер је измењен.');
  await page.getByRole('link', { name: 'Назад' }).click();
  await expect(rowWith(page, TABLE, host)).toContainText('2525');
  await expect(warning).toBeVisible();

  // Delete, confirmed.
  await rowWith(page, TABLE, host).click();
  await page.getByRole('button', { name: 'Обриши сервер' }).click();
  const confirm = page.getByRole('dialog', { name: 'Брисање SMTP сервера' });
  await expect(confirm).toContainText(host);
  await shot(page, 'delete-confirm');
  await confirm.getByRole('button', { name: 'Да' }).click();
  await expectNotice(page, 'SMTP сервер је обрисан.');
  await expect(page).toHaveURL(/\/app\/emailconfig$/);
  await expect(rowWith(page, TABLE, host)).toHaveCount(0);
});
