import { expect, test } from '@playwright/test';
import { DEMO_PASSWORD, lastMailTo, linkIn } from './support/api';
import { signIn } from './support/ui';

test('My account shows the data, changes it, the password and the e-mail, signs out everywhere and deletes the account', async ({
  page,
  request,
}) => {
  // A fresh employee of the demo contractor, made through the real sign-up is not possible (guests can't
  // open My account), so the journey uses a demo employee and ends by deleting that account.
  const email = 'marija.zivkovic@kablmreze.rs';
  await signIn(page, email, DEMO_PASSWORD);
  await page.goto('/app/moj-nalog');
  const table = page.getByRole('table', { name: 'Мој налог' });
  await expect(table).toContainText('Marija');
  await expect(table).toContainText('Kabl Mreže d.o.o.');
  await expect(table).toContainText('Извођач');

  await page.locator('input[name="ime"]').fill('');
  await page.getByRole('button', { name: 'Сачувај измене' }).click();
  await expect(page.getByText('Поље је обавезно')).toBeVisible();
  await page.locator('input[name="ime"]').fill('Marijana');
  await page.getByRole('button', { name: 'Сачувај измене' }).click();
  await expect(page.getByText('Успешно сте изменили податке.')).toBeVisible();
  await expect(table).toContainText('Marijana');
  await expect(page.getByText('Добродошли, Marijana Živković')).toBeVisible();

  await page.locator('input[name="password"]').fill(DEMO_PASSWORD);
  await page.locator('input[name="newPassword"]').fill('Nova2Lozinka');
  await page.locator('input[name="confirmNewPassword"]').fill('Nova2Lozinka');
  await page.getByRole('button', { name: 'Промени лозинку' }).click();
  await expect(page.getByText('Успешно сте изменили лозинку.')).toBeVisible();
  // The session goes on with the fresh token.
  await page.reload();
  await expect(page.getByRole('table', { name: 'Мој налог' })).toContainText('Marijana');

  // A new e-mail asks for the current password and waits for a confirmation from the new address.
  const newEmail = `marija.${Date.now()}@primer.rs`;
  await page.locator('input[name="email"]').fill(newEmail);
  await page.getByRole('button', { name: 'Сачувај измене' }).click();
  await expect(page.getByText('За промену имејл адресе унесите тренутну лозинку.').first()).toBeVisible();
  await page.locator('input[name="lozinka"]').fill('Nova2Lozinka');
  await page.getByRole('button', { name: 'Сачувај измене' }).click();
  await expect(page.getByText('Нову имејл адресу потврдите преко линка који смо послали на њу.', { exact: false })).toBeVisible();
  await expect(table).toContainText(email);
  const link = new URL(linkIn((await lastMailTo(request, newEmail)).text));
  expect(link.pathname).toBe('/api/user/confirm-email');
  await page.goto(link.pathname + link.search);
  // Confirming ends every session: the login page says so, and the new address signs in.
  await expect(page.getByText('Имејл адреса је промењена. Пријавите се новом адресом.')).toBeVisible();
  await expect(page).toHaveURL(/\/$/);
  await signIn(page, newEmail, 'Nova2Lozinka');
  await page.goto('/app/moj-nalog');
  await expect(page.getByRole('table', { name: 'Мој налог' })).toContainText(newEmail);

  // Signing out everywhere ends this session too, on the server.
  const token = await page.evaluate(() => localStorage.getItem('token'));
  await page.getByRole('button', { name: 'Одјави се са свих уређаја' }).click();
  await page.getByRole('button', { name: 'Да' }).click();
  await expect(page.getByText('Одјављени сте са свих уређаја.')).toBeVisible();
  await expect(page).toHaveURL(/\/$/);
  const revoked = await request.get('/api/user/my-profile', { headers: { authorization: `Bearer ${token}` } });
  expect(revoked.status()).toBe(401);

  await signIn(page, newEmail, 'Nova2Lozinka');
  await page.goto('/app/moj-nalog');
  await page.getByRole('button', { name: 'Обриши налог' }).click();
  await expect(page.getByText('Да ли сте сигурни?')).toBeVisible();
  await page.getByRole('button', { name: 'Да' }).click();
  await expect(page.getByText('Налог успешно обрисан.')).toBeVisible();
  await expect(page).toHaveURL(/\/$/);
  const login = await request.post('/api/user/login', { data: { email: newEmail, lozinka: 'Nova2Lozinka' } });
  expect(login.status()).toBe(401);
});

test("'Крај рада' signs the token out on the server", async ({ page, request }) => {
  await signIn(page, 'nenad.stojanovic@mit.gov.rs', DEMO_PASSWORD);
  const token = await page.evaluate(() => localStorage.getItem('token'));
  await page.getByRole('button', { name: 'Крај рада' }).click();
  await expect(page).toHaveURL(/\/$/);
  expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
  const after = await request.get('/api/user/my-profile', { headers: { authorization: `Bearer ${token}` } });
  expect(after.status()).toBe(401);
});
