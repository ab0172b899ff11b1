import { expect, type Page, test } from '@playwright/test';
import { addSettlementRow, dataRows, expectNotice, pickMany, rowWith, search } from './support/admin';
import { ADMIN, DEMO_PASSWORD } from './support/api';
import { pdfFile } from './support/files';
import { fillDate, openMyClusters, signIn, signOut } from './support/ui';

/**
 * Issue 4's setup journey, all through the screens: an Admin adds settlements, a cluster with no
 * responsible group and a contractor contract with a PDF; the contractor's employee does not see the
 * cluster until the Admin links it to their contract, then sees it and downloads the contract's document.
 */
const CONTRACTOR_GROUP = 'Optika Gradnja d.o.o.';
const CONTRACTOR_EMPLOYEE = 'stefan.markovic@optikagradnja.rs';
const LIST = 'Уговори извођача';

async function employeeClusters(page: Page, stamp: string): Promise<void> {
  await openMyClusters(page, CONTRACTOR_EMPLOYEE, DEMO_PASSWORD);
  await search(page, stamp);
}

test("an Admin sets up a cluster and a contractor contract; the contractor's employee sees the cluster once they are linked", async ({
  page,
}) => {
  const stamp = Date.now().toString(36);
  const settlements = [
    { id: `SJ-${stamp}-1`, naziv: `Brdo ${stamp}`, maticniBroj: `SJ${stamp}1` },
    { id: `SJ-${stamp}-2`, naziv: `Dolina ${stamp}`, maticniBroj: `SJ${stamp}2` },
  ];
  const cluster = `Klaster Brdo ${stamp}`;
  const contract = `Izvođenje Brdo ${stamp}`;
  const broj = `SJ-${stamp}`;
  const document = `Ugovor Brdo ${stamp}.pdf`;

  // 1. Settlements in the codebooks.
  await signIn(page, ADMIN.email, ADMIN.password);
  await page.goto('/app/sifrarnici');
  await page.getByRole('tab', { name: 'Насеља' }).click();
  for (const s of settlements) {
    await page.getByRole('button', { name: 'Додај насеље' }).click();
    const dialog = page.getByRole('dialog', { name: 'Ново насеље' });
    await dialog.locator('input[name="id"]').fill(s.id);
    await dialog.locator('input[name="naziv"]').fill(s.naziv);
    await dialog.locator('input[name="maticniBroj"]').fill(s.maticniBroj);
    await dialog.locator('input[name="opstina"]').fill('Kosjerić');
    await dialog.getByRole('button', { name: 'Сачувај' }).click();
    await expectNotice(page, 'Насеље је сачувано.');
    await expect(dialog).toHaveCount(0);
  }

  // 2. A cluster of both, with no responsible group.
  await page.goto('/app/klasteri');
  await page.getByRole('button', { name: 'Креирај нови кластер' }).click();
  let dialog = page.getByRole('dialog', { name: 'Нови кластер' });
  await dialog.locator('input[name="naziv"]').fill(cluster);
  for (const [i, s] of settlements.entries()) {
    const row = `Насеље ${i + 1}`;
    const input = await addSettlementRow(dialog, 'Насеља у кластеру', row);
    await input.fill(s.naziv);
    await page
      .getByRole('listbox')
      .getByRole('option', { name: `${s.naziv} (${s.maticniBroj})`, exact: true })
      .click();
    await expect(input).toHaveValue(`${s.naziv} (${s.maticniBroj})`);
    await expect(dialog.getByRole('textbox', { name: `Матични број (${row})`, exact: true })).toHaveValue(s.maticniBroj);
  }
  // A row added by mistake is removed; an incidental row left empty is not submitted.
  await addSettlementRow(dialog, 'Насеља у кластеру', 'Насеље 3');
  await dialog.getByRole('button', { name: 'Уклони ред: Насеље 3', exact: true }).click();
  await expect(dialog.getByRole('group', { name: 'Насеља у кластеру', exact: true }).getByRole('combobox')).toHaveCount(2);
  await addSettlementRow(dialog, 'Успутна насеља', 'Успутно насеље 1');
  await dialog.getByRole('button', { name: 'Сачувај' }).click();
  await expectNotice(page, 'Успешно сте направили нови кластер.');
  await expect(dialog).toHaveCount(0);

  // 3. A contractor contract of the employee's group, with a PDF.
  await page.goto('/app/ugovori-izvodjaci');
  await page.getByRole('button', { name: 'Креирај уговор' }).click();
  dialog = page.getByRole('dialog', { name: 'Нови уговор' });
  await dialog.locator('input[name="naziv"]').fill(contract);
  await dialog.locator('input[name="broj"]').fill(broj);
  await fillDate(dialog.locator('input[name="datumPocetka"]'), new Date().toISOString().slice(0, 10));
  await dialog.locator('input[name="rokTrajanja"]').fill('180');
  await pickMany(dialog, page, 'Групе извођача', 'Optika Gradnja d', `${CONTRACTOR_GROUP} (Извођач)`);
  await dialog.locator('input[type="file"]').setInputFiles([pdfFile(document)]);
  await dialog.getByRole('button', { name: 'Сачувај' }).click();
  await expectNotice(page, 'Успешно креиран уговор.');
  await expect(dialog).toHaveCount(0);
  await signOut(page);

  // 4. Not linked yet: the employee does not see the cluster.
  await employeeClusters(page, stamp);
  await expect(page.getByRole('table', { name: 'Кластери' })).toContainText('Нема пронађених података.');
  await signOut(page);

  // 5. The Admin links the cluster from the contract's two-tab screen.
  await signIn(page, ADMIN.email, ADMIN.password);
  await page.goto('/app/ugovori-izvodjaci');
  await search(page, stamp);
  await rowWith(page, LIST, contract)
    .getByRole('button', { name: `Повежи кластере: ${contract}` })
    .click();
  await expect(page.getByRole('heading', { name: `${contract} (${broj})` })).toBeVisible();
  await page.getByRole('tab', { name: 'Повежи кластер' }).click();
  await search(page, stamp);
  await expect(dataRows(page, 'Повежи кластер')).toHaveCount(1);
  await page.getByRole('checkbox', { name: `Изабери кластер: ${cluster}` }).check();
  await page.getByRole('button', { name: 'Повежи изабране' }).click();
  await expectNotice(page, 'Успешно додата локација на уговор');
  await expect(rowWith(page, 'Повезани кластери', cluster)).toHaveCount(1);
  await signOut(page);

  // 6. Now the employee sees it, opens it and downloads the contract's document from its card.
  await employeeClusters(page, stamp);
  await expect(dataRows(page, 'Кластери')).toHaveCount(1);
  await rowWith(page, 'Кластери', cluster).getByRole('cell', { name: cluster, exact: true }).click();
  await expect(page).toHaveURL(/\/app\/klasteri-user\/[0-9a-f-]{36}$/);
  await expect(page.getByRole('heading', { name: cluster })).toBeVisible();
  await page.getByRole('switch', { name: 'Лична карта кластера' }).check();
  await expect(page.getByRole('table', { name: 'Насеља у кластеру' })).toContainText(`Brdo ${stamp}`);
  await expect(page.getByRole('table', { name: 'Насеља у кластеру' })).toContainText(`Dolina ${stamp}`);
  const contractor = page.getByRole('region', { name: 'Уговор извођача' });
  await expect(contractor).toContainText(contract);
  const download = page.waitForEvent('download');
  await contractor.getByRole('button', { name: `Преузми: ${document}` }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe(document);
  const saved = await file.createReadStream();
  const chunks: Buffer[] = [];
  for await (const chunk of saved) chunks.push(chunk as Buffer);
  expect(Buffer.concat(chunks).subarray(0, 5).toString('latin1')).toBe('%PDF-');
});
