import { expect, test } from '@playwright/test';
import { DEMO_PASSWORD, lastMailTo, linkIn } from './support/api';
import { signIn } from './support/ui';

test('a user who forgot the password resets it from the mailed link and signs in with the new one', async ({ page, request }) => {
  const email = 'bojan.lazic@meridijan.rs';
  await page.goto('/');
  await page.getByRole('link', { name: 'Заборавили сте лозинку?' }).click();
  await expect(page).toHaveURL(/\/zaboravljena-lozinka$/);
  await page.locator('input[name="email"]').fill('nije-adresa');
  await page.getByRole('button', { name: 'Пошаљи линк' }).click();
  await expect(page.getByText('Имејл није валидан.')).toBeVisible();
  await page.locator('input[name="email"]').fill(email);
  await page.getByRole('button', { name: 'Пошаљи линк' }).click();
  await expect(page.getByText('Ако постоји налог са овом адресом, на њу је послат линк за промену лозинке.')).toBeVisible();
  await expect(page).toHaveURL(/\/$/, { timeout: 6_000 });

  const link = new URL(linkIn((await lastMailTo(request, email)).text));
  expect(link.pathname).toBe('/reset-lozninke');
  await page.goto(link.pathname + link.search);
  await page.locator('input[name="password"]').fill('NovaLozinka9');
  await page.locator('input[name="confirmPassword"]').fill('NovaLozinka8');
  await page.getByRole('button', { name: 'Промени лозинку' }).click();
  await expect(page.getByText('лозинке морају да се подударају')).toBeVisible();
  await page.locator('input[name="confirmPassword"]').fill('NovaLozinka9');
  await page.getByRole('button', { name: 'Промени лозинку' }).click();
  await expect(page.getByText('Успешна промена лозинке')).toBeVisible();
  await expect(page).toHaveURL(/\/$/, { timeout: 5_000 });

  // The old password no longer works, the new one does; the link cannot be used twice.
  await page.locator('input[name="email"]').fill(email);
  await page.locator('input[name="lozinka"]').fill(DEMO_PASSWORD);
  await page.getByRole('button', { name: 'Пријави се' }).click();
  await expect(page.getByText('Погрешна лозинка')).toBeVisible();
  await signIn(page, email, 'NovaLozinka9');
  await expect(page).toHaveURL(/\/app$/);
});
