import { expect, test } from '@playwright/test';
import { ADMIN } from './support/api';
import { menuLabels, signIn, signOut } from './support/ui';

test('the Admin signs in, lands on activities in progress, and signs out', async ({ page }) => {
  await signIn(page, ADMIN.email, ADMIN.password);
  await expect(page).toHaveURL(/\/app\/aktivnosti-u-toku$/);
  await expect(page.getByText('Министарство информисања и телекомуникација').first()).toBeVisible();
  await expect(page.getByText('Добродошли, Admin Trasa')).toBeVisible();
  await expect(menuLabels(page)).toHaveCount(14);

  // /app sends the Admin on to activities in progress.
  await page.goto('/app');
  await expect(page).toHaveURL(/\/app\/aktivnosti-u-toku$/);

  // A route outside the role is not offered; an unknown path shows the not-found page.
  await page.goto('/app/klasteri-user');
  await expect(page.getByText('Страница коју тражите не постоји')).toBeVisible();
  await page.goto('/nema-ove-strane');
  await expect(page.getByText('Страница коју тражите не постоји')).toBeVisible();

  await page.goto('/app/moj-nalog');
  await signOut(page);
  // Without a token the application routes go back to the login.
  await page.goto('/app/moj-nalog');
  await expect(page).toHaveURL(/\/$/);
});

test('a wrong password is shown under the password field, an unknown user under the e-mail', async ({ page }) => {
  await page.goto('/');
  await page.locator('input[name="email"]').fill(ADMIN.email);
  await page.locator('input[name="lozinka"]').fill('PogresnaLozinka1');
  await page.getByRole('button', { name: 'Пријави се' }).click();
  await expect(page.getByText('Погрешна лозинка')).toBeVisible();

  await page.locator('input[name="email"]').fill('niko.nepoznat@primer.rs');
  await page.getByRole('button', { name: 'Пријави се' }).click();
  await expect(page.getByText('Корисник са овом имејл адресом не постоји.')).toBeVisible();

  await page.locator('input[name="email"]').fill('nije-adresa');
  await page.locator('input[name="lozinka"]').fill('');
  await page.getByRole('button', { name: 'Пријави се' }).click();
  await expect(page.getByText('Погрешна имејл адреса')).toBeVisible();
  await expect(page.getByText('Унесите лозинку')).toBeVisible();
});
