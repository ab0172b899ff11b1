import { expect, type Page } from '@playwright/test';

/** Signs in through the login form and waits for the landing page. */
export async function signIn(page: Page, email: string, password: string): Promise<void> {
  await page.goto('/');
  await page.locator('input[name="email"]').fill(email);
  await page.locator('input[name="lozinka"]').fill(password);
  await page.getByRole('button', { name: 'Пријави се' }).click();
  await expect(page).toHaveURL(/\/app/);
}

export function menuLabels(page: Page) {
  return page.getByRole('navigation', { name: 'Главни мени' }).getByRole('link');
}

export async function signOut(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Крај рада' }).click();
  await expect(page).toHaveURL(/\/$/);
}

/** Signs in and opens 'Кластери' from the menu: an employee's or manager's own clusters (/app/klasteri-user). */
export async function openMyClusters(page: Page, email: string, password: string): Promise<void> {
  await signIn(page, email, password);
  await menuLabels(page)
    .filter({ hasText: /^Кластери$/ })
    .click();
  await expect(page).toHaveURL(/\/app\/klasteri-user$/);
}
