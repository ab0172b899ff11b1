import type { UserDto } from '@trasa/domain';
import { useState } from 'react';
import { beforeAll, expect, test } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import { renderInApp, signIn } from '../testing/app';
import { DateField, type DateKind } from './dates';

/** The date fields: typed and shown DD.MM.YYYY (HH:mm) whatever the browser's language, kept as the API's strings. */

let user: UserDto;
beforeAll(async () => {
  user = await signIn();
});

const changes: { value: string; incomplete: boolean }[] = [];

function Field({ kind = 'date', initial = '' }: { kind?: DateKind; initial?: string }) {
  const [value, setValue] = useState(initial);
  return (
    <>
      <DateField
        label="Rok"
        name="rok"
        kind={kind}
        value={value}
        onChange={(next, incomplete) => {
          changes.push({ value: next, incomplete });
          setValue(next);
        }}
      />
      <output aria-label="vrednost">{value}</output>
    </>
  );
}

const input = () => page.getByRole('textbox', { name: 'Rok' });
const held = () => page.getByRole('status', { name: 'vrednost' });

test('a stored date shows DD.MM.YYYY; typed day by day it becomes the API date once whole', async () => {
  changes.length = 0;
  await renderInApp(<Field initial="2024-03-07" />, user);
  await expect.element(input()).toHaveValue('07.03.2024');
  await expect.element(input()).toBeEnabled();

  await userEvent.clear(input());
  await expect.element(held()).toHaveTextContent('');
  await userEvent.type(input(), '25112025');
  await expect.element(input()).toHaveValue('25.11.2025');
  await expect.element(held()).toHaveTextContent('2025-11-25');
  // On the way there the field held no date: '' (not yet whole), never a wrong one.
  expect(changes.slice(0, -1).every((c) => c.value === '')).toBe(true);
  expect(changes.at(-1)).toEqual({ value: '2025-11-25', incomplete: false });
});

test('a whole date pasted at once is taken; an impossible one typed is no date, and not an empty field', async () => {
  changes.length = 0;
  await renderInApp(<Field />, user);
  await expect.element(input()).toBeEnabled();
  await input().fill('03.01.2026');
  await expect.element(held()).toHaveTextContent('2026-01-03');

  // Typed, it stays in the field as typed, held as no date but not as an empty field.
  await userEvent.clear(input());
  await userEvent.type(input(), '31022026');
  await expect.element(input()).toHaveValue('31.02.2026');
  await expect.element(held()).toHaveTextContent('');
  expect(changes.at(-1)).toEqual({ value: '', incomplete: true });
});

test('a date and time shows DD.MM.YYYY HH:mm and is kept as local YYYY-MM-DDTHH:mm', async () => {
  await renderInApp(<Field kind="datetime" initial="2025-06-30T08:05" />, user);
  await expect.element(input()).toHaveValue('30.06.2025 08:05');
  await input().fill('01.07.2025 17:45');
  await expect.element(held()).toHaveTextContent('2025-07-01T17:45');
});
