import { type APIRequestContext, expect, type Locator, type Page, test } from '@playwright/test';
import { addSettlementRow, choose, dataRows, expectNotice, pickMany, rowWith, search, settlementList } from './support/admin';
import { ADMIN, apiToken, DEMO_PASSWORD } from './support/api';
import { cancelDialog, menuLabels, openInApp, openMyClusters, signIn, signInWithToken, signOut } from './support/ui';

/** Demo accounts (packages/server/src/seed/demo.ts): Optika Gradnja's employee and manager, and a designer's employee. */
const CONTRACTOR_GROUP = 'Optika Gradnja d.o.o.';
const CONTRACTOR_EMPLOYEE = 'stefan.markovic@optikagradnja.rs';
const CONTRACTOR_MANAGER = 'zoran.ilic@optikagradnja.rs';
const OTHER_EMPLOYEE = 'bojan.lazic@meridijan.rs';
/** A demo cluster with open topics (seed/demoTopics.ts). */
const DEMO_CLUSTER_WITH_TOPICS = 'Čajetina 1 - Sirogojno';

/** Chooses a settlement in a row's picker by typing part of it; its registration number shows beside it. */
async function chooseSettlement(page: Page, dialog: Locator, row: string, typed: string, s: { naziv: string; maticniBroj: string }) {
  const input = dialog.getByRole('combobox', { name: row, exact: true });
  await input.fill(typed);
  await page
    .getByRole('listbox')
    .getByRole('option', { name: `${s.naziv} (${s.maticniBroj})`, exact: true })
    .click();
  await expect(page.getByRole('listbox')).toHaveCount(0);
  await expect(input).toHaveValue(`${s.naziv} (${s.maticniBroj})`);
  await expect(dialog.getByRole('textbox', { name: `Матични број (${row})`, exact: true })).toHaveValue(s.maticniBroj);
}

function today(offsetDays = 0): string {
  return new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);
}

async function adminApi(request: APIRequestContext) {
  const token = await apiToken(request, ADMIN.email, ADMIN.password);
  const headers = { authorization: `Bearer ${token}` };
  return {
    async post<T>(path: string, data: unknown): Promise<T> {
      const res = await request.post(path, { headers, data });
      expect(res.ok(), `${path}: ${await res.text()}`).toBeTruthy();
      return (await res.json()) as T;
    },
    async multipart(path: string, fields: Record<string, string>): Promise<void> {
      const res = await request.post(path, { headers, multipart: fields });
      expect(res.ok(), `${path}: ${await res.text()}`).toBeTruthy();
    },
  };
}

test.describe
  .serial('a cluster of new settlements', () => {
    const stamp = Date.now().toString(36);
    const first = { id: `E2E-${stamp}-1`, naziv: `Gornje Polje ${stamp}`, maticniBroj: `MB${stamp}1` };
    const second = { id: `E2E-${stamp}-2`, naziv: `Donje Polje ${stamp}`, maticniBroj: `MB${stamp}2` };
    const cluster = `Klaster Polje ${stamp}`;
    const renamed = `${cluster} - Istok`;

    test('an Admin creates two settlements, builds a cluster with them, opens and edits it', async ({ page }) => {
      await signIn(page, ADMIN.email, ADMIN.password);

      // Codebooks: two settlements, with the form's own rules and the server's duplicate check.
      await menuLabels(page)
        .filter({ hasText: /^Шифарници$/ })
        .click();
      await page.getByRole('tab', { name: 'Насеља' }).click();
      await page.getByRole('button', { name: 'Додај насеље' }).click();
      let dialog = page.getByRole('dialog', { name: 'Ново насеље' });
      await dialog.locator('input[name="brojDomacinstava"]').fill('mnogo');
      await dialog.locator('input[name="brojSkola"]').fill('-1');
      await dialog.getByRole('button', { name: 'Сачувај' }).click();
      await expect(dialog.getByText('Морате уписати ID.')).toBeVisible();
      await expect(dialog.getByText('Мора бити број ако је унет.')).toBeVisible();
      await expect(dialog.getByText('Број мора бити >= 0')).toBeVisible();
      for (const s of [first, second]) {
        if (s === second) {
          await page.getByRole('button', { name: 'Додај насеље' }).click();
          dialog = page.getByRole('dialog', { name: 'Ново насеље' });
        }
        await dialog.locator('input[name="id"]').fill(s.id);
        await dialog.locator('input[name="naziv"]').fill(s.naziv);
        await dialog.locator('input[name="maticniBroj"]').fill(s.maticniBroj);
        await dialog.locator('input[name="opstina"]').fill('Ub, Valjevo');
        await dialog.locator('input[name="brojDomacinstava"]').fill('140');
        await dialog.locator('input[name="brojSkola"]').fill('1');
        await dialog.getByRole('button', { name: 'Сачувај' }).click();
        await expectNotice(page, 'Насеље је сачувано.');
        await expect(dialog).toHaveCount(0);
      }
      // The same registry id again is a duplicate.
      await page.getByRole('button', { name: 'Додај насеље' }).click();
      dialog = page.getByRole('dialog', { name: 'Ново насеље' });
      await dialog.locator('input[name="id"]').fill(first.id);
      await dialog.locator('input[name="naziv"]').fill(`Treće Polje ${stamp}`);
      await dialog.getByRole('button', { name: 'Сачувај' }).click();
      await expect(page.getByRole('alert').filter({ hasText: /^Дупликат за: / })).toBeVisible();
      await cancelDialog(page, dialog);
      await search(page, stamp);
      await expect(dataRows(page, 'Насеља')).toHaveCount(2);
      await expect(rowWith(page, 'Насеља', first.naziv)).toContainText('Ub, Valjevo');

      // A new cluster with them and the contractor group.
      await menuLabels(page)
        .filter({ hasText: /^Кластери$/ })
        .click();
      await expect(page.getByRole('heading', { name: 'Кластери' })).toBeVisible();
      await expect(page.getByRole('region', { name: 'Легенда боја' })).toContainText('Завршено са закашњењем');
      await page.getByRole('button', { name: 'Креирај нови кластер' }).click();
      dialog = page.getByRole('dialog', { name: 'Нови кластер' });
      await expect(dialog.locator('input[name="naziv"]')).toBeVisible();
      // Money takes digits and one separator: letters are refused at the keystroke, with the reason.
      await dialog.locator('input[name="ugovorenaVrednostKlastera"]').fill('mnogo');
      await expect(dialog.locator('input[name="ugovorenaVrednostKlastera"]')).toHaveValue('');
      await expect(dialog.getByText('Дозвољене су само цифре и један децимални сепаратор.')).toBeVisible();
      await dialog.getByRole('button', { name: 'Сачувај' }).click();
      await expect(dialog.getByText('Поље је обавезно')).toBeVisible();
      await dialog.locator('input[name="naziv"]').fill(cluster);
      await dialog.locator('input[name="indikativnaDuzinaKlastera"]').fill('12,5');
      await dialog.locator('input[name="ugovorenaVrednostKlastera"]').fill('1500000.75');
      await expect(dialog.getByText('= 1.500.000,75 RSD')).toBeVisible();
      await pickMany(dialog, page, 'Одговорне групе', 'Optika Gradnja d', `${CONTRACTOR_GROUP} (Извођач)`);
      // The settlement sub-form: rows added with 'додај насеље', a settlement and its registration number each.
      const inCluster = settlementList(dialog, 'Насеља у кластеру');
      const incidentalList = settlementList(dialog, 'Успутна насеља');
      await expect(inCluster.getByRole('combobox')).toHaveCount(0);
      await addSettlementRow(dialog, 'Насеља у кластеру', 'Насеље 1');
      // Typed in Cyrillic, the Latin name is found (issue 14).
      await chooseSettlement(page, dialog, 'Насеље 1', 'горње поље', first);
      // A settlement already chosen is not offered in another row.
      const secondRow = await addSettlementRow(dialog, 'Насеља у кластеру', 'Насеље 2');
      await secondRow.fill(stamp);
      await expect(page.getByRole('listbox').getByRole('option')).toHaveText([`${second.naziv} (${second.maticniBroj})`]);
      await chooseSettlement(page, dialog, 'Насеље 2', second.naziv, second);
      // Both are in the cluster now: none is offered as incidental.
      const incidental = await addSettlementRow(dialog, 'Успутна насеља', 'Успутно насеље 1');
      await incidental.fill(stamp);
      await expect(page.getByText('Нема пронађених података.', { exact: true })).toBeVisible();
      await expect(page.getByRole('listbox')).toHaveCount(0);
      await page.keyboard.press('Escape');
      // A row can be removed; its settlement is free again.
      await inCluster.getByRole('button', { name: `Уклони насеље: ${second.naziv} (${second.maticniBroj})`, exact: true }).click();
      await expect(inCluster.getByRole('combobox')).toHaveCount(1);
      await expect(inCluster.getByRole('combobox', { name: 'Насеље 1', exact: true })).toHaveValue(`${first.naziv} (${first.maticniBroj})`);
      // A settlement in the cluster is not offered as incidental.
      await incidental.fill(stamp);
      await expect(page.getByRole('listbox').getByRole('option')).toHaveText([`${second.naziv} (${second.maticniBroj})`]);
      await page.keyboard.press('Escape');
      await chooseSettlement(page, dialog, 'Успутно насеље 1', second.naziv, second);
      await expect(incidentalList.getByRole('combobox')).toHaveCount(1);
      await dialog.getByRole('button', { name: 'Сачувај' }).click();
      await expectNotice(page, 'Успешно сте направили нови кластер.');
      await expect(dialog).toHaveCount(0);

      // In the list: the responsible contractor and the status.
      await search(page, stamp);
      await expect(dataRows(page, 'Кластери')).toHaveCount(1);
      const row = rowWith(page, 'Кластери', cluster);
      await expect(row).toContainText(CONTRACTOR_GROUP);
      await expect(row).toContainText('Није започет');

      // The detail opens from the list: the personal card holds the settlements; the catalogue's activities, none started.
      await row.getByRole('cell', { name: cluster, exact: true }).click();
      await expect(page).toHaveURL(/\/app\/klaster\/[0-9a-f-]{36}$/);
      await expect(page.getByRole('heading', { name: cluster })).toBeVisible();
      const activities = page.getByRole('table', { name: 'Активности', exact: true }).locator('tbody tr');
      await expect(activities.first()).toContainText('A1');
      await expect(activities.first()).toContainText('Није започета');
      await page.getByRole('switch', { name: 'Лична карта кластера' }).check();
      const info = page.getByRole('table', { name: 'Подаци о кластеру' });
      await expect(info).toContainText(`${CONTRACTOR_GROUP} (Извођач)`);
      await expect(info).toContainText('12,5');
      await expect(info).toContainText('1.500.000,75 RSD');
      await expect(page.getByRole('table', { name: 'Насеља у кластеру' })).toContainText(first.naziv);
      await expect(page.getByRole('table', { name: 'Успутна насеља' })).toContainText(second.naziv);
      // Typed into a new tab (a shared link), the address opens the same cluster and its card (issue 13).
      const typed = await page.context().newPage();
      await typed.goto(page.url());
      await expect(typed).toHaveURL(page.url());
      await expect(typed.getByRole('heading', { name: cluster })).toBeVisible();
      await expect(typed.getByRole('table', { name: 'Подаци о кластеру' })).toContainText('12,5');
      // An id no one has is the not-found page.
      await typed.goto('/app/klaster/00000000-0000-4000-8000-000000000000');
      await expect(typed.getByRole('heading', { name: 'Страница коју тражите не постоји' })).toBeVisible();
      await typed.close();
      await page.getByRole('link', { name: 'Назад' }).click();
      await expect(page).toHaveURL(/\/app\/klasteri$/);

      // Edit: the same form in the dialog 'Измена кластера'.
      await search(page, stamp);
      await rowWith(page, 'Кластери', cluster)
        .getByRole('button', { name: `Измени: ${cluster}` })
        .click();
      dialog = page.getByRole('dialog', { name: 'Измена кластера' });
      await expect(dialog.locator('input[name="naziv"]')).toHaveValue(cluster);
      await expect(dialog.locator('input[name="indikativnaDuzinaKlastera"]')).toHaveValue('12.5');
      // The settlements load into rows.
      await expect(dialog.getByRole('combobox', { name: 'Насеље 1', exact: true })).toHaveValue(`${first.naziv} (${first.maticniBroj})`);
      await expect(dialog.getByRole('textbox', { name: 'Матични број (Насеље 1)', exact: true })).toHaveValue(first.maticniBroj);
      await expect(dialog.getByRole('combobox', { name: 'Успутно насеље 1', exact: true })).toHaveValue(
        `${second.naziv} (${second.maticniBroj})`,
      );
      await expect(settlementList(dialog, 'Насеља у кластеру').getByRole('combobox')).toHaveCount(1);
      await dialog.locator('input[name="naziv"]').fill(renamed);
      await dialog.getByRole('button', { name: 'Сачувај измене' }).click();
      await expectNotice(page, 'Успешно сте изменили кластер.');
      await expect(rowWith(page, 'Кластери', renamed)).toHaveCount(1);

      // A settlement in a cluster can't be deleted.
      await openInApp(page, '/app/sifrarnici');
      await page.getByRole('tab', { name: 'Насеља' }).click();
      await search(page, stamp);
      await rowWith(page, 'Насеља', first.naziv)
        .getByRole('button', { name: `Обриши: ${first.naziv}` })
        .click();
      await page.getByRole('dialog', { name: 'Да ли сте сигурни?' }).getByRole('button', { name: 'Да' }).click();
      await expectNotice(page, 'Насеље је у кластеру и не може се обрисати.');
      await expect(dataRows(page, 'Насеља')).toHaveCount(2);
    });

    test("the contractor's people see the cluster, another group does not", async ({ page }) => {
      // The contractor's employee sees the cluster among their own and opens it.
      await openMyClusters(page, CONTRACTOR_EMPLOYEE, DEMO_PASSWORD);
      // The search finds it by its incidental settlement's name, typed in Cyrillic (issue 14).
      await search(page, `доње поље ${stamp}`);
      await expect(dataRows(page, 'Кластери')).toHaveCount(1);
      await expect(page.getByRole('button', { name: `Измени: ${renamed}` })).toHaveCount(0);
      await rowWith(page, 'Кластери', renamed).getByRole('cell', { name: renamed, exact: true }).click();
      await expect(page.getByRole('heading', { name: renamed })).toBeVisible();
      await expect(page.getByRole('table', { name: 'Насеља у кластеру' })).toContainText(first.naziv);
      // /app/klasteri-user/{id} opened directly (a reload) shows the cluster too.
      await page.reload();
      await expect(page.getByRole('heading', { name: renamed })).toBeVisible();
      await expect(page.getByRole('table', { name: 'Активности', exact: true }).locator('tbody tr').first()).toContainText('Није започета');

      // Their manager edits it; the contract is the Admin's to choose.
      await signOut(page);
      await signInWithToken(page, CONTRACTOR_MANAGER, DEMO_PASSWORD, '/app/klasteri');
      await search(page, stamp);
      await rowWith(page, 'Кластери', renamed)
        .getByRole('button', { name: `Измени: ${renamed}` })
        .click();
      const dialog = page.getByRole('dialog', { name: 'Измена кластера' });
      await expect(dialog.getByRole('combobox', { name: /^Уговор/ })).toHaveAttribute('aria-disabled', 'true');
      await dialog.locator('input[name="ugovorenaVrednostKlastera"]').fill('1600000');
      await dialog.getByRole('button', { name: 'Сачувај измене' }).click();
      await expectNotice(page, 'Успешно сте изменили кластер.');
      await expect(page.getByRole('button', { name: `Обриши: ${renamed}` })).toHaveCount(0);
      await expect(page.getByRole('button', { name: 'Креирај нови кластер' })).toHaveCount(0);

      // An employee of another group does not see it.
      await signOut(page);
      await signInWithToken(page, OTHER_EMPLOYEE, DEMO_PASSWORD, '/app/klasteri-user');
      await search(page, stamp);
      await expect(page.getByRole('table', { name: 'Кластери' })).toContainText('Нема пронађених података.');
    });
  });

test('an Admin links a cluster to a contract, then deletes the cluster', async ({ page, request }) => {
  const stamp = Date.now().toString(36);
  const cluster = `Klaster Veza ${stamp}`;
  const open = `Ugovor Veza ${stamp}`;
  const finished = `Ugovor Završen ${stamp}`;
  const admin = await adminApi(request);
  await admin.post('/api/location', { naziv: cluster, odgovoran: [], naselja: [], usputnaNaselja: [] });
  await admin.post('/api/contract', { naziv: open, broj: `UV-${stamp}`, datumPocetka: today(-30), rokTrajanja: 365 });
  const { document: finishedId } = await admin.post<{ document: string }>('/api/contract', {
    naziv: finished,
    broj: `UZ-${stamp}`,
    datumPocetka: today(-400),
    rokTrajanja: 100,
  });
  await admin.multipart(`/api/contract/contract/${finishedId}`, {
    naziv: finished,
    datumPocetka: today(-400),
    rokTrajanja: '100',
    status: 'Završen',
    datumZavrsetka: today(-250),
  });

  await signInWithToken(page, ADMIN.email, ADMIN.password, '/app/klasteri');
  // Every cluster on one page is a choice of its own.
  await choose(page, page, 'Редова по страници', 'Све');
  await search(page, stamp);
  await rowWith(page, 'Кластери', cluster)
    .getByRole('button', { name: `Повежи са уговором: ${cluster}` })
    .click();
  await expect(page).toHaveURL(/\/app\/klaster\/povezivanje-sa-ugovorom\/[0-9a-f-]{36}$/);
  await expect(page.getByRole('heading', { name: cluster })).toBeVisible();
  await search(page, stamp);
  await expect(dataRows(page, 'Општи уговори')).toHaveCount(2);
  // A finished contract can't be chosen.
  await expect(page.getByRole('checkbox', { name: `Изабери уговор: ${finished}` })).toBeDisabled();
  await rowWith(page, 'Општи уговори', finished).getByRole('cell', { name: finished, exact: true }).click();
  await expectNotice(page, 'Није могуће повезати кластере са завршеним уговором');
  await expect(page.getByRole('button', { name: 'Повежи', exact: true })).toBeDisabled();
  await page.getByRole('checkbox', { name: `Изабери уговор: ${open}` }).check();
  await expect(page.getByText(`Општи уговор: ${open} (UV-${stamp})`)).toBeVisible();
  await page.getByRole('button', { name: 'Повежи', exact: true }).click();
  await expectNotice(page, 'Успешно додата локација на уговор');
  await expect(page).toHaveURL(/\/app\/klasteri$/);
  await search(page, stamp);
  await expect(rowWith(page, 'Кластери', cluster)).toContainText(open);

  // A cluster with open topics is not deleted: the notice says what holds it (issue 14).
  await search(page, DEMO_CLUSTER_WITH_TOPICS);
  await rowWith(page, 'Кластери', DEMO_CLUSTER_WITH_TOPICS)
    .getByRole('button', { name: `Обриши: ${DEMO_CLUSTER_WITH_TOPICS}` })
    .click();
  await page.getByRole('dialog', { name: 'Да ли сте сигурни?' }).getByRole('button', { name: 'Да' }).click();
  await expect(page.getByRole('alert').filter({ hasText: /^Кластер се не може обрисати: има отворене теме \(\d+\)/ })).toBeVisible();
  await expect(rowWith(page, 'Кластери', DEMO_CLUSTER_WITH_TOPICS)).toHaveCount(1);

  // Deleting asks first.
  await search(page, stamp);
  await rowWith(page, 'Кластери', cluster)
    .getByRole('button', { name: `Обриши: ${cluster}` })
    .click();
  const confirm = page.getByRole('dialog', { name: 'Да ли сте сигурни?' });
  await expect(confirm).toContainText('Брисање кластера је трајно');
  await confirm.getByRole('button', { name: 'Да' }).click();
  await expectNotice(page, 'Успешно сте обрисали кластер.');
  await expect(page.getByRole('table', { name: 'Кластери' })).toContainText('Нема пронађених података.');
});
