import { expect, type Page, test } from '@playwright/test';
import { checkScreen } from './support/a11y';
import { ADMIN, apiToken } from './support/api';
import { signIn } from './support/ui';

/**
 * One script at a time (issue 13 item 10): the switch in the top bar shows the same texts in Latin — the
 * menu, a list's headings, a dialog —, the choice is the user's (a reload, even without the browser's own
 * copy, keeps it), and switching back reads Cyrillic again. The users' data stays as written.
 */
const RELOAD_MS = 30_000;
const MENU = { cyr: 'Главни мени', lat: 'Glavni meni' };

function menuLabels(page: Page, script: keyof typeof MENU) {
  return page.getByRole('navigation', { name: MENU[script] }).getByRole('link');
}

async function openGroups(page: Page, name: string): Promise<void> {
  await menuLabels(page, 'cyr')
    .filter({ hasText: new RegExp(`^${name}$`) })
    .click();
  await expect(page.getByRole('heading', { name })).toBeVisible();
}

// The journeys share one server and the Admin: whatever happens here, the Admin's script is Cyrillic after.
test.afterEach(async ({ request }) => {
  const token = await apiToken(request, ADMIN.email, ADMIN.password);
  const res = await request.post('/api/user/edit-script', {
    headers: { authorization: `Bearer ${token}` },
    data: { pismo: 'cyr' },
  });
  expect(res.ok(), await res.text()).toBe(true);
});

test('the top bar switches every text between Ћирилица and Latinica, kept with the profile', async ({ page }) => {
  await signIn(page, ADMIN.email, ADMIN.password);
  await openGroups(page, 'Групе');
  const bar = page.getByRole('banner');
  const switcher = bar.getByRole('group', { name: 'Писмо' });
  // The bar's buttons are named by what they show (WCAG 2.5.3); the full name is their title.
  const cyrillic = switcher.getByRole('button', { name: 'Ћир', exact: true });
  await expect(cyrillic).toHaveAttribute('aria-pressed', 'true');
  await expect(cyrillic).toHaveAttribute('title', 'Ћирилица');
  await expect(cyrillic).toHaveAttribute('lang', 'sr-Cyrl');
  await expect(switcher.getByRole('button', { name: 'Lat', exact: true })).toHaveAttribute('lang', 'sr-Latn');

  await switcher.getByRole('button', { name: 'Lat', exact: true }).click();
  // The page loads again in the new script (a busy machine takes its time).
  await expect(page.getByRole('heading', { name: 'Grupe' })).toBeVisible({ timeout: RELOAD_MS });
  await expect(bar.getByRole('group', { name: 'Pismo' }).getByRole('button', { name: 'Lat', exact: true })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
  // The menu, the bar and the list's headings read in Latin; nothing of the web's own is left in Cyrillic.
  await expect(menuLabels(page, 'lat').filter({ hasText: /^Korisnici$/ })).toBeVisible();
  await expect(bar.getByRole('button', { name: 'Kraj rada' })).toBeVisible();
  const table = page.getByRole('table', { name: 'Grupe' });
  // (Columns every layout shows: the groups journey hides 'Kratak naziv' in the Admin's saved layout.)
  for (const heading of ['Naziv', 'Tip', 'Nadređena grupa']) {
    // MRT's own sort label follows too: 'Sortiraj po Naziv rastuće'.
    await expect(table.getByRole('columnheader', { name: new RegExp(`^${heading} Sortiraj po ${heading}`) })).toBeVisible();
  }
  await expect(page.getByRole('button', { name: 'Redova po stranici' }).or(page.getByText('Redova po stranici'))).toBeVisible();
  // A dialog, its validation message and the spec's 'Odustani'.
  await page.getByRole('button', { name: 'Dodaj grupu' }).click();
  const dialog = page.getByRole('dialog', { name: 'Nova grupa' });
  await dialog.getByRole('button', { name: 'Sačuvaj' }).click();
  await expect(dialog.getByText('Morate upisati naziv grupe.')).toBeVisible();
  await checkScreen(page);
  expect(await dialog.textContent()).not.toMatch(/[\u0400-\u04FF]/);
  await dialog.getByRole('button', { name: 'Odustani' }).click();
  await expect(dialog).toBeHidden();
  expect(await table.locator('thead').textContent()).not.toMatch(/[\u0400-\u04FF]/);

  // The choice is the user's: kept by the profile when this browser forgets its own copy.
  await page.evaluate(() => localStorage.removeItem('trasa.script'));
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Grupe' })).toBeVisible({ timeout: RELOAD_MS });
  await expect(menuLabels(page, 'lat').filter({ hasText: /^Moj nalog$/ })).toBeVisible();

  // My account has the same switch; back to Cyrillic there.
  await menuLabels(page, 'lat')
    .filter({ hasText: /^Moj nalog$/ })
    .click();
  await page.getByRole('main').getByRole('group', { name: 'Pismo' }).getByRole('button', { name: 'Ћирилица' }).click();
  await expect(page.getByRole('heading', { name: 'Мој налог' })).toBeVisible({ timeout: RELOAD_MS });
  await expect(menuLabels(page, 'cyr').filter({ hasText: /^Групе$/ })).toBeVisible();
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Мој налог' })).toBeVisible({ timeout: RELOAD_MS });
});

test('the public pages have their own switch, kept by the browser; after sign-in the profile wins', async ({ page }) => {
  await page.goto('/');
  const switcher = page.getByRole('group', { name: 'Писмо' });
  await expect(switcher.getByRole('button', { name: 'Ћирилица' })).toHaveAttribute('aria-pressed', 'true');
  await switcher.getByRole('button', { name: 'Latinica' }).click();
  // The page reads again at once, without loading.
  await expect(page.getByRole('heading', { name: 'Prijava' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Prijavi se' })).toBeVisible();
  await expect(page.getByRole('group', { name: 'Pismo' }).getByRole('button', { name: 'Latinica' })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
  await checkScreen(page);
  // Another public page follows, and so does a reload (the browser keeps the choice).
  await page.getByRole('link', { name: 'Nemate nalog? Registrujte se' }).click();
  await expect(page.getByRole('heading', { name: 'Registracija' })).toBeVisible();
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Registracija' })).toBeVisible();
  // Nothing in Cyrillic but the switch's own name of that script.
  expect((await page.getByRole('main').textContent())?.replace('Ћирилица', '')).not.toMatch(/[\u0400-\u04FF]/);
  await page.getByRole('link', { name: 'Nazad na prijavu' }).click();

  // The Admin's own script is Cyrillic: it wins over the browser's once signed in.
  await page.locator('input[name="email"]').fill(ADMIN.email);
  await page.locator('input[name="lozinka"]').fill(ADMIN.password);
  await page.getByRole('button', { name: 'Prijavi se' }).click();
  await expect(page).toHaveURL(/\/app/);
  await expect(menuLabels(page, 'cyr').first()).toBeVisible({ timeout: RELOAD_MS });
  expect(await page.evaluate(() => localStorage.getItem('trasa.script'))).toBe('cyr');
});
