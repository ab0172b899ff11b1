import { expect, test } from '@playwright/test';
import { lastMailTo, linkIn } from './support/api';
import { menuLabels, signIn } from './support/ui';

test('a newcomer registers, activates the account from the mail and waits for a role as a guest', async ({ page, request }) => {
  const email = `gost.${Date.now()}@primer.rs`;
  await page.goto('/registracija');
  await page.locator('input[name="ime"]').fill('Mirjana');
  await page.locator('input[name="prezime"]').fill('Radović');
  await page.locator('input[name="email"]').fill(email);
  await page.locator('input[name="lozinka"]').fill('Zlatni-Vetar-27');
  await page.getByRole('button', { name: 'Региструј се' }).click();
  await expect(page.getByText('На ваш мејл је послат активациони линк.')).toBeVisible();
  await expect(page).toHaveURL(/\/$/, { timeout: 8_000 });

  // Not active before the link is followed.
  await page.locator('input[name="email"]').fill(email);
  await page.locator('input[name="lozinka"]').fill('Zlatni-Vetar-27');
  await page.getByRole('button', { name: 'Пријави се' }).click();
  await expect(page.getByText(/Корисник није активан/)).toBeVisible();

  const mail = await lastMailTo(request, email);
  await page.goto(linkIn(mail.text));
  await expect(page.getByText('Налог је активиран. Можете се пријавити.')).toBeVisible();

  await signIn(page, email, 'Zlatni-Vetar-27');
  await expect(page).toHaveURL(/\/app$/);
  await expect(page.getByText('Ваш налог још нема додељену улогу. Сачекајте да вам администратор додели улогу.')).toBeVisible();
  await expect(menuLabels(page)).toHaveCount(0);
  // A guest may open nothing else.
  await page.goto('/app/moj-nalog');
  await expect(page.getByText('Страница коју тражите не постоји')).toBeVisible();
});

test('registration shows the spec messages, refuses a common password and answers a taken address like a new one', async ({ page }) => {
  await page.goto('/registracija');
  await page.getByRole('button', { name: 'Региструј се' }).click();
  await expect(page.getByText('Обавезно поље').first()).toBeVisible();
  await page.locator('input[name="ime"]').fill('Ana');
  await page.locator('input[name="prezime"]').fill('Admin');
  await page.locator('input[name="email"]').fill('ana.admin@mit.gov.rs');
  await page.locator('input[name="lozinka"]').fill('kratka');
  await page.getByRole('button', { name: 'Региструј се' }).click();
  await expect(page.getByText('Лозинка мора имати минимум 8 карактера')).toBeVisible();
  await page.locator('input[name="lozinka"]').fill('Lozinka123');
  await page.getByRole('button', { name: 'Региструј се' }).click();
  await expect(page.getByText('Лозинка је превише честа или лака за погађање.').first()).toBeVisible();
  // A taken address gets the same answer as a new one (its owner is told by mail): no enumeration.
  await page.locator('input[name="lozinka"]').fill('Ruza-Vetrova-8');
  await page.getByRole('button', { name: 'Региструј се' }).click();
  await expect(page.getByText('На ваш мејл је послат активациони линк.')).toBeVisible();
});
