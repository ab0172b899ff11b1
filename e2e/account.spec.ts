import { expect, test } from '@playwright/test';
import { DEMO_PASSWORD } from './support/api';
import { signIn } from './support/ui';

test('My account shows the data, changes it and the password, and deletes the account', async ({ page, request }) => {
  // A fresh employee of the demo contractor, made through the real sign-up is not possible (guests can't
  // open My account), so the journey uses a demo employee and ends by deleting that account.
  const email = 'marija.zivkovic@kablmreze.rs';
  await signIn(page, email, DEMO_PASSWORD);
  await page.goto('/app/moj-nalog');
  const table = page.getByRole('table', { name: 'Мој налог' });
  await expect(table).toContainText('Marija');
  await expect(table).toContainText('Kabl Mreže d.o.o.');
  await expect(table).toContainText('Izvođač');

  await page.locator('input[name="ime"]').fill('');
  await page.getByRole('button', { name: 'Сачувај измене' }).click();
  await expect(page.getByText('Polje je obavezno')).toBeVisible();
  await page.locator('input[name="ime"]').fill('Marijana');
  await page.getByRole('button', { name: 'Сачувај измене' }).click();
  await expect(page.getByText('Uspešno ste izmenili podatke.')).toBeVisible();
  await expect(table).toContainText('Marijana');
  await expect(page.getByText('Добродошли, Marijana Živković')).toBeVisible();

  await page.locator('input[name="password"]').fill(DEMO_PASSWORD);
  await page.locator('input[name="newPassword"]').fill('Nova2Lozinka');
  await page.locator('input[name="confirmNewPassword"]').fill('Nova2Lozinka');
  await page.getByRole('button', { name: 'Промени лозинку' }).click();
  await expect(page.getByText('Uspešno ste izmenili lozinku.')).toBeVisible();
  // The session goes on with the fresh token.
  await page.reload();
  await expect(page.getByRole('table', { name: 'Мој налог' })).toContainText('Marijana');

  await page.getByRole('button', { name: 'Обриши налог' }).click();
  await expect(page.getByText('Da li ste sigurni?')).toBeVisible();
  await page.getByRole('button', { name: 'Да' }).click();
  await expect(page.getByText('Nalog uspešno obrisan.')).toBeVisible();
  await expect(page).toHaveURL(/\/$/);
  const login = await request.post('/api/user/login', { data: { email, lozinka: 'Nova2Lozinka' } });
  expect(login.status()).toBe(401);
});
