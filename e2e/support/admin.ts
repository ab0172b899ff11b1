import { expect, type Locator, type Page } from '@playwright/test';
import { checkScreen } from './a11y';

/** Helpers for the user, group and role screens (MUI selects, pickers, DataTable rows). */

/** Chooses an option of an MUI select, found by its label (the accessible name also carries the value). */
export async function choose(scope: Page | Locator, page: Page, label: string, option: string): Promise<void> {
  await checkScreen(page);
  // A list that re-renders while loading may close the menu under the click: open it again until the
  // choice is made.
  await expect(async () => {
    if ((await page.getByRole('listbox').count()) > 0) await page.keyboard.press('Escape');
    await scope.getByRole('combobox', { name: new RegExp(`^${label}`) }).click();
    await page.getByRole('listbox').getByRole('option', { name: option, exact: true }).click({ timeout: 3_000 });
    await expect(page.getByRole('listbox')).toHaveCount(0, { timeout: 2_000 });
  }).toPass({ timeout: 20_000 });
}

/**
 * The option names of an MUI select, then closes it. A select whose options are still loading opens empty:
 * they are read once the first is there (a journey that read at once took an empty list for the answer).
 */
export async function optionsOf(scope: Page | Locator, page: Page, label: string): Promise<string[]> {
  await scope.getByRole('combobox', { name: new RegExp(`^${label}`) }).click();
  const listbox = page.getByRole('listbox');
  await expect(listbox.getByRole('option').first()).toBeVisible();
  const names = (await listbox.getByRole('option').allTextContents()).map((t) => t.trim()).filter(Boolean);
  await page.keyboard.press('Escape');
  await expect(listbox).toHaveCount(0);
  return names;
}

/** Types into a searchable picker (groups) and picks the option with that exact name. */
export async function pick(scope: Page | Locator, page: Page, label: string, option: string): Promise<void> {
  await checkScreen(page);
  const input = scope.getByRole('combobox', { name: label, exact: true });
  await input.click();
  await input.fill(option);
  await page.getByRole('listbox').getByRole('option', { name: option, exact: true }).click();
  await expect(input).toHaveValue(option);
}

/**
 * Types `typed` into a searchable picker (it may be in the other script: 'чајетина' finds 'Čajetina…')
 * and picks the option with that exact name.
 */
export async function pickTyped(scope: Page | Locator, page: Page, label: string, typed: string, option: string): Promise<void> {
  await checkScreen(page);
  const input = scope.getByRole('combobox', { name: label, exact: true });
  await input.click();
  await input.fill(typed);
  await page.getByRole('listbox').getByRole('option', { name: option, exact: true }).click();
  await expect(input).toHaveValue(option);
}

/** The option names a picker offers, then closes it (read once the first is there, as optionsOf). */
export async function pickerOptions(scope: Page | Locator, page: Page, label: string): Promise<string[]> {
  const input = scope.getByRole('combobox', { name: label, exact: true });
  await input.click();
  const listbox = page.getByRole('listbox');
  await expect(listbox.getByRole('option').first()).toBeVisible();
  const names = (await listbox.getByRole('option').allTextContents()).map((t) => t.trim());
  await page.keyboard.press('Escape');
  return names;
}

/** The data rows of a DataTable (its header row left out). */
/**
 * The table's data rows: not the row that stands in for them while the page loads, or says the list is
 * empty or failed (a journey counting right after typing a search once took the loader for its one row).
 */
export function dataRows(page: Page, table: string): Locator {
  return page.getByRole('table', { name: table }).locator('tbody tr:not(.dt-message)');
}

/** Every row of the table's body, the message that stands in for rows included ('Нема пронађених података.'). */
export function bodyRows(page: Page, table: string): Locator {
  return page.getByRole('table', { name: table }).locator('tbody tr');
}

export function rowWith(page: Page, table: string, text: string): Locator {
  return dataRows(page, table).filter({ hasText: text });
}

/** Types into the list's search box; the list answers after the 1 s debounce. */
/**
 * Types into the list's search box. A table that is still loading its first page (or its saved layout)
 * may reset the box: the text is typed again until it stays.
 */
export async function search(page: Page, text: string): Promise<void> {
  await checkScreen(page);
  const box = page.getByRole('searchbox', { name: 'Претрага...' });
  await expect(async () => {
    if ((await box.inputValue()) !== text) await box.fill(text);
    await page.waitForTimeout(300);
    expect(await box.inputValue()).toBe(text);
  }).toPass({ timeout: 15_000 });
}

/**
 * The notices (role=alert) the page has shown since the last call, with those shown now: the list is
 * started again by each call and kept by a MutationObserver in the page (installed again after a
 * navigation). A notice hides after 2 s (spec 1 §8): on a busy machine it can come and go between two of
 * Playwright's looks, so a look alone made journeys flaky.
 */
function noticesSince(reset: boolean): string[] {
  const holder = window as unknown as { __trasaNotices?: Set<string> };
  // Rendered and not display:none or visibility:hidden (the opacity of the notice's fade-in doesn't count).
  const shown = () =>
    Array.from(document.querySelectorAll('[role="alert"]'))
      .filter((e) => e.checkVisibility({ visibilityProperty: true }))
      .map((e) => (e.textContent ?? '').replace(/\s+/g, ' ').trim());
  let texts = holder.__trasaNotices;
  if (!texts) {
    const recorded = new Set<string>();
    new MutationObserver(() => {
      for (const text of shown()) if (text) recorded.add(text);
    }).observe(document, { subtree: true, childList: true, characterData: true, attributes: true, attributeFilter: ['role'] });
    texts = recorded;
    holder.__trasaNotices = texts;
  }
  if (reset) texts.clear();
  for (const text of shown()) if (text) texts.add(text);
  return [...texts];
}

/** A notice with this text is shown (now, or since the call began: see noticesSince). */
export async function expectNotice(page: Page, text: string): Promise<void> {
  const wanted = text.replace(/\s+/g, ' ').trim();
  let first = true;
  await expect
    .poll(
      async () => {
        const reset = first;
        first = false;
        return page.evaluate(noticesSince, reset).catch(() => [] as string[]);
      },
      { message: `the notice '${text}'` },
    )
    .toEqual(expect.arrayContaining([expect.stringMatching(new RegExp(escapeRegExp(wanted), 'i'))]));
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Shows more rows per page (the list's page-size select). */
export async function setPageSize(page: Page, size: number): Promise<void> {
  await choose(page, page, 'Редова по страници', String(size));
}

/** Chooses an option of a multi-select picker in `scope` (a dialog) by typing part of it; it shows as a chip. */
export async function pickMany(scope: Locator, page: Page, label: string, typed: string, option: string): Promise<void> {
  await checkScreen(page);
  const input = scope.getByRole('combobox', { name: label, exact: true });
  await input.click();
  await input.fill(typed);
  await page.getByRole('listbox').getByRole('option', { name: option, exact: true }).click();
  // The list closes on the choice.
  await expect(page.getByRole('listbox')).toHaveCount(0);
  await expect(scope.getByText(option, { exact: true })).toBeVisible();
}

/** The row list of the cluster form named `list` ('Насеља у кластеру', 'Успутна насеља'). */
export function settlementList(dialog: Locator, list: string): Locator {
  return dialog.getByRole('group', { name: list, exact: true });
}

/** Adds a row to a settlement list of the cluster form ('додај насеље'); the new row's picker, named `row`, takes the focus. */
export async function addSettlementRow(dialog: Locator, list: string, row: string): Promise<Locator> {
  const group = settlementList(dialog, list);
  await group.getByRole('button', { name: 'додај насеље', exact: true }).click();
  const input = group.getByRole('combobox', { name: row, exact: true });
  await expect(input).toBeFocused();
  return input;
}
