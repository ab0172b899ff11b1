import { expect, test } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import { updateWaiting } from '../offline/update';
import { renderInApp, signIn } from '../testing/app';
import { UpdateNotice } from './UpdateNotice';

/** A new version of the application waits for the user: the notice stays until 'Освежи', which lets it take over. */
test("a waiting version shows 'Нова верзија је спремна' and takes over only on 'Освежи'", async () => {
  const user = await signIn();
  const screen = await renderInApp(<UpdateNotice />, user);
  await expect.element(page.getByText('Нова верзија је спремна')).not.toBeInTheDocument();

  let activated = 0;
  updateWaiting(async () => {
    activated++;
  });
  await expect.element(page.getByText('Нова верзија је спремна')).toBeVisible();
  // It does not hide by itself: the page reloads only when the user chooses.
  await new Promise((resolve) => setTimeout(resolve, 2500));
  expect(activated).toBe(0);
  await expect.element(page.getByText('Нова верзија је спремна')).toBeVisible();
  await userEvent.click(page.getByRole('button', { name: 'Освежи' }));
  expect(activated).toBe(1);
  screen.unmount();
});
