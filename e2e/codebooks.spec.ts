import { expect, test } from '@playwright/test';
import { dataRows, expectNotice, rowWith } from './support/admin';
import { ADMIN, apiToken } from './support/api';
import { cancelDialog, signIn } from './support/ui';

/**
 * Journeys through the Admin's codebooks (priorities, group types) and a list's last page emptied under it.
 */

test('an Admin keeps the priorities codebook', async ({ page }) => {
  const stamp = Date.now().toString(36);
  const name = `Hitno ${stamp}`;
  await signIn(page, ADMIN.email, ADMIN.password);
  await page.goto('/app/sifrarnici');
  await page.getByRole('tab', { name: 'Приоритети' }).click();
  await page.getByRole('button', { name: 'Додај приоритет' }).click();
  const dialog = page.getByRole('dialog', { name: 'Нови приоритет' });
  await dialog.getByRole('button', { name: 'Сачувај' }).click();
  await expect(dialog.getByText('Морате уписати Назив.')).toBeVisible();
  await expect(dialog.getByText('Морате уписати Број.')).toBeVisible();
  await dialog.locator('input[name="naziv"]').fill(name);
  await dialog.locator('input[name="broj"]').fill('0');
  await dialog.getByRole('button', { name: 'Сачувај' }).click();
  await expectNotice(page, 'Успешно сте додали приоритет.');
  await expect(rowWith(page, 'Приоритети', name)).toContainText('0');

  // The same name in the other script and case is taken (issue 14).
  await page.getByRole('button', { name: 'Додај приоритет' }).click();
  const again = page.getByRole('dialog', { name: 'Нови приоритет' });
  await again.locator('input[name="naziv"]').fill(`ХИТНО ${stamp.toUpperCase()}`);
  await again.locator('input[name="broj"]').fill('1');
  await again.getByRole('button', { name: 'Сачувај' }).click();
  await expect(again.getByText('Приоритет са тим називом већ постоји.')).toBeVisible();
  await cancelDialog(page, again);
  await expect(again).toHaveCount(0);

  await rowWith(page, 'Приоритети', name)
    .getByRole('button', { name: `Измени: ${name}` })
    .click();
  const edit = page.getByRole('dialog', { name: 'Измена приоритета' });
  await expect(edit.locator('input[name="naziv"]')).toHaveValue(name);
  await edit.locator('input[name="naziv"]').fill(`${name} (izmenjen)`);
  await edit.getByRole('button', { name: 'Сачувај' }).click();
  await expectNotice(page, 'Успешно сте изменили приоритет.');

  await rowWith(page, 'Приоритети', `${name} (izmenjen)`)
    .getByRole('button', { name: `Обриши: ${name} (izmenjen)` })
    .click();
  await page.getByRole('dialog', { name: 'Да ли сте сигурни?' }).getByRole('button', { name: 'Да' }).click();
  await expectNotice(page, 'Успешно сте обрисали приоритет.');
  await expect(rowWith(page, 'Приоритети', name)).toHaveCount(0);
});

test('a table whose last page loses its last row shows the page before it', async ({ page, request }) => {
  // Priorities made through the API until the codebook has 10·n + 1 of them, ours the last (the highest
  // number): alone on the last page.
  const stamp = Date.now().toString(36);
  const token = await apiToken(request, ADMIN.email, ADMIN.password);
  const headers = { authorization: `Bearer ${token}` };
  const count = async () =>
    ((await (await request.get('/api/priority', { headers })).json()) as { priorities: unknown[] }).priorities.length;
  const made: string[] = [];
  const make = async (naziv: string, broj: number) => {
    const res = await request.post('/api/priority', { headers, data: { naziv, broj } });
    expect(res.ok(), await res.text()).toBeTruthy();
    made.push(((await res.json()) as { priority: { _id: string } }).priority._id);
  };
  for (let i = 0; (await count()) % 10 !== 0; i++) await make(`Punjenje ${stamp} ${i}`, 900_000 + i);
  const last = `Poslednji ${stamp}`;
  await make(last, 999_999);
  const total = await count();

  await signIn(page, ADMIN.email, ADMIN.password);
  await page.goto('/app/sifrarnici');
  await page.getByRole('tab', { name: 'Приоритети' }).click();
  await page.getByRole('button', { name: 'Иди на последњу страницу' }).click();
  await expect(dataRows(page, 'Приоритети')).toHaveCount(1);
  await rowWith(page, 'Приоритети', last)
    .getByRole('button', { name: `Обриши: ${last}` })
    .click();
  await page.getByRole('dialog', { name: 'Да ли сте сигурни?' }).getByRole('button', { name: 'Да' }).click();
  await expectNotice(page, 'Успешно сте обрисали приоритет.');
  // The page before it, full, and the pager says so.
  await expect(dataRows(page, 'Приоритети')).toHaveCount(10);
  await expect(page.getByText(`${total - 10}-${total - 1} од ${total - 1}`)).toBeVisible();
  for (const id of made.slice(0, -1)) await request.delete(`/api/priority/${id}`, { headers });
});

test('an Admin keeps the group-types codebook: built-in types stay, a name is taken in either script', async ({ page }) => {
  const stamp = Date.now().toString(36);
  const name = `Održavanje ${stamp}`;
  await signIn(page, ADMIN.email, ADMIN.password);
  await page.goto('/app/sifrarnici');
  const table = 'Типови група';
  // Built-in types can be renamed but have no delete (the server would refuse it).
  const builtin = rowWith(page, table, 'Извођач');
  await expect(builtin).toContainText('Да');
  await expect(builtin.getByRole('button', { name: 'Измени: Извођач' })).toBeVisible();
  await expect(builtin.getByRole('button', { name: /^Обриши:/ })).toHaveCount(0);

  await page.getByRole('button', { name: 'Додај тип групе' }).click();
  let dialog = page.getByRole('dialog', { name: 'Нови тип групе' });
  await dialog.locator('input[name="naziv"]').fill(name);
  await dialog.locator('input[name="kratakNaziv"]').fill('ODR');
  await dialog.getByRole('button', { name: 'Сачувај' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(rowWith(page, table, name).getByRole('button', { name: `Обриши: ${name}` })).toBeVisible();

  await page.getByRole('button', { name: 'Додај тип групе' }).click();
  dialog = page.getByRole('dialog', { name: 'Нови тип групе' });
  await dialog.locator('input[name="naziv"]').fill(`ОДРЖАВАЊЕ ${stamp.toUpperCase()}`);
  await dialog.locator('input[name="kratakNaziv"]').fill('O2');
  await dialog.getByRole('button', { name: 'Сачувај' }).click();
  await expect(dialog.getByText('Тип групе са тим називом већ постоји.')).toBeVisible();
  await cancelDialog(page, dialog);

  await rowWith(page, table, name)
    .getByRole('button', { name: `Обриши: ${name}` })
    .click();
  await page.getByRole('dialog', { name: 'Да ли сте сигурни?' }).getByRole('button', { name: 'Да' }).click();
  await expect(rowWith(page, table, name)).toHaveCount(0);
});
