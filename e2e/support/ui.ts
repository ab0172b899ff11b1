import { expect, type Locator, type Page } from '@playwright/test';
import { checkScreen } from './a11y';
import { apiToken } from './api';

/** Signs in through the login form and waits for the landing page. */
export async function signIn(page: Page, email: string, password: string): Promise<void> {
  await page.goto('/');
  await page.locator('input[name="email"]').fill(email);
  await page.locator('input[name="lozinka"]').fill(password);
  await page.getByRole('button', { name: 'Пријави се' }).click();
  await expect(page).toHaveURL(/\/app/);
  await checkScreen(page);
}

/**
 * Signs in without the login form, for journeys about what comes after it: the token from the API is put
 * into the browser's storage before the app first loads, and the app opens at `path` (one page load, where
 * the form's sign-in loads the landing screen before the journey goes on to its own). The token is put
 * there once: a journey that signs out and reloads stays signed out.
 */
export async function signInWithToken(page: Page, email: string, password: string, path = '/app'): Promise<void> {
  const token = await apiToken(page.request, email, password);
  // Each sign-in's script marks itself done in the tab's session storage: a later sign-in in the same page
  // (after a sign-out) adds a script of its own.
  const done = `trasa.e2e.signedIn.${Math.random().toString(36).slice(2)}`;
  await page.addInitScript(
    ({ token, done }) => {
      if (sessionStorage.getItem(done)) return;
      sessionStorage.setItem(done, '1');
      localStorage.setItem('token', token);
    },
    { token, done },
  );
  await page.goto(path);
  // The app's own main area (AppShell's, with data-path), not the login page's.
  await expect(page.locator('main[data-path]')).toBeVisible();
}

/**
 * Opens a path inside the running app, as its links do (the router follows the history), without loading
 * the page again; waits until the main area shows the new screen (AppShell's data-path is set in the
 * commit that shows it; until then the old screen stays).
 */
export async function openInApp(page: Page, path: string): Promise<void> {
  await page.evaluate((to) => {
    window.history.pushState({}, '', to);
    window.dispatchEvent(new PopStateEvent('popstate', { state: {} }));
  }, path);
  await expect(page.getByRole('main')).toHaveAttribute('data-path', path);
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
  await checkScreen(page);
}

/**
 * Closes a form dialog with 'Одустани'. A dialog with typed changes asks first ('Одбацити унете
 * измене?'): the changes are discarded.
 */
export async function cancelDialog(page: Page, dialog: Locator): Promise<void> {
  await checkScreen(page);
  await dialog.getByRole('button', { name: 'Одустани', exact: true }).click();
  const ask = page.getByRole('alertdialog', { name: 'Одбацити унете измене?' });
  await expect(async () => {
    if (await ask.isVisible()) await ask.getByRole('button', { name: 'Одбаци измене' }).click();
    await expect(dialog).toHaveCount(0, { timeout: 1_000 });
  }).toPass({ timeout: 10_000 });
}

/** An API date (YYYY-MM-DD) or local date-time (YYYY-MM-DDTHH:mm) as the web shows and takes it: DD.MM.YYYY (HH:mm). */
export function typedDate(value: string): string {
  const [date, time] = value.split('T');
  const [y, m, d] = (date ?? '').split('-');
  return time ? `${d}.${m}.${y} ${time.slice(0, 5)}` : `${d}.${m}.${y}`;
}

/** Types a date into a date field (issue 13 item 8: DD.MM.YYYY whatever the browser's language); '' clears it. */
export async function fillDate(input: Locator, value: string): Promise<void> {
  await input.fill(value ? typedDate(value) : '');
}
