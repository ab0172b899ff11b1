/**
 * The row a list last opened (its table's storage key and the row's id): when the list shows again — the
 * user came back from the row's page, by the page's 'Назад' or the browser's back — focus returns to that
 * row instead of the top of the page (WCAG 2.4.3). Kept for the page's life (not across reloads); a row
 * opened in another list, or a row opened again, replaces it.
 */
let opened: { table: string; row: string } | null = null;

export function rememberOpenedRow(table: string, row: string): void {
  opened = { table, row };
}

/** The id of the row this list opened last, if it did. */
export function openedRowOf(table: string): string | null {
  return opened?.table === table ? opened.row : null;
}

/** The row had focus back: the next visit of the list starts at its top. */
export function forgetOpenedRow(table: string): void {
  if (opened?.table === table) opened = null;
}

/** Whether focus is on nothing in particular: the page, or the main area the shell focuses after a navigation. */
export function focusIsFree(): boolean {
  const active = document.activeElement;
  return !active || active === document.body || active.tagName === 'MAIN';
}
