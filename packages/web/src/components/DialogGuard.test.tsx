import { TextField } from '@mui/material';
import type { UserDto } from '@trasa/domain';
import { useState } from 'react';
import { beforeAll, expect, test } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import { renderInApp, signIn } from '../testing/app';
import { UI } from '../texts';
import { DialogGuard } from './DialogGuard';
import { FormDialog } from './FormDialog';
import { SHARED } from './sharedTexts';

/** The guard of every dialog (mounted once by the shell): a changed form asks before it closes. */

let user: UserDto;
beforeAll(async () => {
  user = await signIn();
});

const closed: string[] = [];

/** A page with a button that opens a form dialog, as the features' lists have. */
function Screen() {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        Dodaj
      </button>
      <FormDialog
        open={open}
        title="Nova stavka"
        onClose={() => {
          closed.push('closed');
          setOpen(false);
        }}
        onSubmit={(e) => e.preventDefault()}
      >
        <TextField name="naziv" label="Naziv" />
      </FormDialog>
      <DialogGuard />
    </>
  );
}

const dialog = () => page.getByRole('dialog', { name: 'Nova stavka' });
const asking = () => page.getByRole('alertdialog', { name: SHARED.discardTitle });

async function openForm() {
  closed.length = 0;
  await page.getByRole('button', { name: 'Dodaj' }).click();
  await expect.element(dialog()).toBeVisible();
  // The guard puts the focus in the first field.
  await expect.element(page.getByRole('textbox', { name: 'Naziv' })).toHaveFocus();
}

test('a form nothing was typed in closes at once, by its cancel button or by Escape', async () => {
  await renderInApp(<Screen />, user);
  await openForm();
  await page.getByRole('button', { name: UI.cancel }).click();
  await expect.element(dialog()).not.toBeInTheDocument();
  expect(closed).toEqual(['closed']);
  expect(asking().query()).toBeNull();

  await openForm();
  await userEvent.keyboard('{Escape}');
  await expect.element(dialog()).not.toBeInTheDocument();
  expect(closed).toEqual(['closed']);
});

test('a changed form asks first: kept, it stays as typed; discarded, it closes', async () => {
  await renderInApp(<Screen />, user);
  await openForm();
  const field = page.getByRole('textbox', { name: 'Naziv' });
  await userEvent.type(field, 'Ormar');

  await page.getByRole('button', { name: UI.cancel }).click();
  await expect.element(asking()).toBeVisible();
  await asking().getByRole('button', { name: SHARED.discardKeep }).click();
  await expect.element(asking()).not.toBeInTheDocument();
  await expect.element(dialog()).toBeVisible();
  await expect.element(field).toHaveValue('Ormar');
  expect(closed).toEqual([]);

  // Escape asks too.
  await field.click();
  await userEvent.keyboard('{Escape}');
  await expect.element(asking()).toBeVisible();
  expect(closed).toEqual([]);
  await asking().getByRole('button', { name: SHARED.discardConfirm }).click();
  await expect.element(asking()).not.toBeInTheDocument();
  await expect.element(dialog()).not.toBeInTheDocument();
  expect(closed).toEqual(['closed']);
});
