import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import { choose, dataRows, expectNotice, pickMany, rowWith, search } from './support/admin';
import { ADMIN, apiToken, DEMO_PASSWORD } from './support/api';
import { pdfFile } from './support/files';
import { cancelDialog, fillDate, openInApp, signInWithToken, signOut, typedDate } from './support/ui';

/** Demo data (packages/server/src/seed/demo.ts, demoContracts.ts, demoClusters.ts). */
const CONTRACTOR_GROUP = 'Optika Gradnja d.o.o.';
const CONTRACTOR_EMPLOYEE = 'stefan.markovic@optikagradnja.rs';
const OWN_DEMO_CONTRACT = 'Izvođenje radova - Zapadna Srbija';
const OTHER_DEMO_CONTRACT = 'Izvođenje radova - Južna i Istočna Srbija';
/** A demo cluster without a contractor contract: linking and unlinking it leaves the demo as it was. */
const DEMO_CLUSTER = 'Ivanjica - Kušići';
const LIST = 'Уговори извођача';

function day(offsetDays = 0): string {
  return new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);
}

function shown(iso: string): string {
  const [y, m, d] = iso.split('-');
  return `${d}.${m}.${y}`;
}

async function adminApi(request: APIRequestContext) {
  const token = await apiToken(request, ADMIN.email, ADMIN.password);
  const headers = { authorization: `Bearer ${token}` };
  return {
    async get<T>(path: string): Promise<T> {
      const res = await request.get(path, { headers });
      expect(res.ok(), `${path}: ${await res.text()}`).toBeTruthy();
      return (await res.json()) as T;
    },
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

/** The back button of the detail and linking screens; the list is shown before its search box is used. */
async function backToList(page: Page): Promise<void> {
  await page.getByRole('link', { name: 'Назад' }).click();
  await expect(page).toHaveURL(/\/app\/ugovori-izvodjaci$/);
  await expect(page.getByRole('heading', { name: LIST })).toBeVisible();
}

test.describe
  .serial('contracts', () => {
    const stamp = Date.now().toString(36);
    const naziv = `Ugovor E2E ${stamp}/A`;
    const renamed = `Ugovor E2E ${stamp} izmenjen`;
    const broj = `E2E-${stamp}`;
    const start = day(-10);
    const finishedName = `Ugovor Završen E2E ${stamp}`;

    test('an Admin creates a contractor contract with a document, links and unlinks a cluster, edits and deletes it', async ({ page }) => {
      await signInWithToken(page, ADMIN.email, ADMIN.password, '/app/ugovori-izvodjaci');
      await expect(page.getByRole('heading', { name: LIST })).toBeVisible();
      await expect(page.getByRole('region', { name: 'Легенда боја' })).toBeVisible();
      // The Admin moves between the four lists.
      await expect(page.getByRole('tab', { name: 'Општи уговори' })).toBeVisible();

      // Create: the form's own rules first.
      await page.getByRole('button', { name: 'Креирај уговор' }).click();
      let dialog = page.getByRole('dialog', { name: 'Нови уговор' });
      await dialog.locator('input[name="rokTrajanja"]').fill('mnogo');
      await dialog.getByRole('button', { name: 'Сачувај' }).click();
      await expect(dialog.getByText('Поље је обавезно').first()).toBeVisible();
      await expect(dialog.getByText('Морате унети број')).toBeVisible();
      // Only contractor groups are offered.
      const groups = dialog.getByRole('combobox', { name: 'Групе извођача', exact: true });
      await groups.click();
      await groups.fill('Meridijan');
      await expect(page.locator('.MuiAutocomplete-popper')).toContainText('Нема пронађених података.');
      await page.keyboard.press('Escape');
      await dialog.locator('input[name="naziv"]').fill(naziv);
      await dialog.locator('input[name="broj"]').fill(broj);
      await fillDate(dialog.locator('input[name="datumPocetka"]'), start);
      await dialog.locator('input[name="rokTrajanja"]').fill('365');
      await pickMany(page.getByRole('dialog'), page, 'Групе извођача', 'Optika Gradnja d', `${CONTRACTOR_GROUP} (Извођач)`);
      await dialog.locator('input[type="file"]').setInputFiles([pdfFile('Ugovor E2E.pdf')]);
      await expect(dialog.getByRole('list', { name: 'Нова документа' })).toContainText('Ugovor E2E.pdf');
      await dialog.getByRole('button', { name: 'Сачувај' }).click();
      await expectNotice(page, 'Успешно креиран уговор.');
      await expect(dialog).toHaveCount(0);

      // In the list: its data, coloured blue (in progress, most of the time left).
      await search(page, stamp);
      await expect(dataRows(page, LIST)).toHaveCount(1);
      const row = rowWith(page, LIST, naziv);
      await expect(row).toContainText(broj);
      await expect(row).toContainText(shown(start));
      await expect(row).toContainText('365');
      await expect(row).toContainText(shown(day(355)));
      await expect(row).toContainText('У току');
      await expect(row).toContainText(CONTRACTOR_GROUP);
      await expect(row.locator('td').first()).toHaveCSS('background-color', 'rgb(207, 224, 243)');

      // The detail: data, the document (downloaded with its name), no clusters yet.
      await row.getByRole('cell', { name: naziv, exact: true }).click();
      await expect(page).toHaveURL(/\/app\/ugovor\/[0-9a-f-]{36}$/);
      await expect(page.getByRole('heading', { name: naziv })).toBeVisible();
      await expect(page.getByRole('table', { name: 'Подаци о уговору' })).toContainText('Уговор извођача');
      const download = page.waitForEvent('download');
      await page.getByRole('button', { name: 'Преузми: Ugovor E2E.pdf' }).click();
      expect((await download).suggestedFilename()).toBe('Ugovor E2E.pdf');
      await expect(page.getByText('Уговор није повезан ни са једним кластером.')).toBeVisible();
      await backToList(page);

      // Link a demo cluster from the two-tab screen; the name's slash becomes a dash in the address.
      await search(page, stamp);
      await rowWith(page, LIST, naziv)
        .getByRole('button', { name: `Повежи кластере: ${naziv}` })
        .click();
      await expect(page).toHaveURL(new RegExp(`/app/ugovor/povezivanje-sa-klasterima/Ugovor%20E2E%20${stamp}-A/[0-9a-f-]{36}$`));
      await expect(page.getByRole('heading', { name: `${naziv} (${broj})` })).toBeVisible();
      await expect(page.getByRole('table', { name: 'Повезани кластери' })).toContainText('Нема пронађених података.');
      await page.getByRole('tab', { name: 'Повежи кластер' }).click();
      // A cluster under another contractor contract names it (its list row carries the contract's id only).
      await search(page, 'Sirogojno');
      await expect(rowWith(page, 'Повежи кластер', 'Čajetina 1 - Sirogojno')).toContainText(`${OWN_DEMO_CONTRACT} (IZV-12/2025)`);
      await search(page, 'Kušići');
      await expect(dataRows(page, 'Повежи кластер')).toHaveCount(1);
      await page.getByRole('checkbox', { name: `Изабери кластер: ${DEMO_CLUSTER}` }).check();
      await expect(page.getByText('Изабрано кластера: 1')).toBeVisible();
      await page.getByRole('button', { name: 'Повежи изабране' }).click();
      await expectNotice(page, 'Успешно додата локација на уговор');
      await expect(page.getByRole('tab', { name: 'Повезани кластери (1)' })).toHaveAttribute('aria-selected', 'true');
      await expect(rowWith(page, 'Повезани кластери', DEMO_CLUSTER)).toHaveCount(1);

      // The detail lists it now, and opens the cluster.
      await backToList(page);
      await search(page, stamp);
      await rowWith(page, LIST, naziv).getByRole('cell', { name: naziv, exact: true }).click();
      const linked = page.getByRole('table', { name: 'Повезани кластери' });
      await expect(linked).toContainText(DEMO_CLUSTER);
      await linked.getByRole('cell', { name: DEMO_CLUSTER, exact: true }).click();
      await expect(page).toHaveURL(/\/app\/klaster\/[0-9a-f-]{36}$/);
      await expect(page.getByRole('heading', { name: DEMO_CLUSTER })).toBeVisible();

      // Unlink it again.
      await openInApp(page, '/app/ugovori-izvodjaci');
      await search(page, stamp);
      await rowWith(page, LIST, naziv)
        .getByRole('button', { name: `Повежи кластере: ${naziv}` })
        .click();
      // Unlinking asks first; cancelled, the cluster stays.
      const unlink = rowWith(page, 'Повезани кластери', DEMO_CLUSTER).getByRole('button', { name: `Уклони са уговора: ${DEMO_CLUSTER}` });
      await unlink.click();
      let ask = page.getByRole('dialog', { name: 'Да ли сте сигурни?' });
      await expect(ask).toContainText(`Кластер „${DEMO_CLUSTER}“ биће уклоњен са уговора „${naziv}“.`);
      await ask.getByRole('button', { name: 'Не' }).click();
      await expect(ask).toHaveCount(0);
      await expect(rowWith(page, 'Повезани кластери', DEMO_CLUSTER)).toHaveCount(1);
      await unlink.click();
      ask = page.getByRole('dialog', { name: 'Да ли сте сигурни?' });
      await ask.getByRole('button', { name: 'Уклони са уговора' }).click();
      await expectNotice(page, 'Успешно обрисана локација са уговора');
      await expect(page.getByRole('table', { name: 'Повезани кластери' })).toContainText('Нема пронађених података.');
      await backToList(page);

      // Edit: rename, a longer term; the document is replaced by another.
      await search(page, stamp);
      await rowWith(page, LIST, naziv)
        .getByRole('button', { name: `Измени: ${naziv}` })
        .click();
      dialog = page.getByRole('dialog', { name: 'Измена уговора' });
      await expect(dialog.locator('input[name="naziv"]')).toHaveValue(naziv);
      await expect(dialog.locator('input[name="datumPocetka"]')).toHaveValue(typedDate(start));
      await expect(dialog.getByText(`${CONTRACTOR_GROUP} (Извођач)`)).toBeVisible();
      await dialog.getByRole('button', { name: 'Обриши документ: Ugovor E2E.pdf' }).click();
      await page.getByRole('dialog', { name: 'Обрисати документ?' }).getByRole('button', { name: 'Да' }).click();
      await expectNotice(page, 'Документ је обрисан.');
      await expect(dialog.getByText('Нема докумената.')).toBeVisible();
      await dialog.locator('input[name="naziv"]').fill(renamed);
      await dialog.locator('input[name="rokTrajanja"]').fill('400');
      await dialog.locator('input[type="file"]').setInputFiles([pdfFile('Aneks 1.pdf')]);
      await dialog.getByRole('button', { name: 'Сачувај измене' }).click();
      await expectNotice(page, 'Успешно измењен уговор.');
      await expect(dialog).toHaveCount(0);
      const edited = rowWith(page, LIST, renamed);
      await expect(edited).toContainText('400');
      await expect(edited).toContainText(shown(day(390)));

      // Delete asks first; the dialog closes shortly after the answer.
      await edited.getByRole('button', { name: `Обриши: ${renamed}` }).click();
      const confirm = page.getByRole('dialog', { name: 'Да ли сте сигурни?' });
      await confirm.getByRole('button', { name: 'Да' }).click();
      await expectNotice(page, 'Успешно обрисан уговор.');
      await expect(confirm).toHaveCount(0);
      await expect(page.getByRole('table', { name: LIST })).toContainText('Нема пронађених података.');
    });

    test('a finished contract cannot be edited or linked', async ({ page, request }) => {
      const admin = await adminApi(request);
      const { groups } = await admin.get<{ groups: { _id: string; naziv: string }[] }>('/api/group?page=1&limit=1000');
      const group = groups.find((g) => g.naziv === CONTRACTOR_GROUP);
      expect(group).toBeTruthy();
      const { document: id } = await admin.post<{ document: string }>('/api/contractIzv', {
        naziv: finishedName,
        broj: `${broj}-Z`,
        datumPocetka: day(-400),
        rokTrajanja: 100,
        grupe: [group?._id],
      });
      await admin.multipart(`/api/contractIzv/contractIzv/${id}`, {
        naziv: finishedName,
        datumPocetka: day(-400),
        rokTrajanja: '100',
        status: 'Završen',
        datumZavrsetka: day(-250),
      });

      await signInWithToken(page, ADMIN.email, ADMIN.password, '/app/ugovori-izvodjaci');
      await search(page, finishedName);
      const row = rowWith(page, LIST, finishedName);
      await expect(row).toContainText('Завршен');
      // Finished late: green-red stripes.
      await expect(row.locator('td').first()).toHaveCSS('background-image', /linear-gradient/);

      await row.getByRole('button', { name: `Измени: ${finishedName}` }).click();
      const dialog = page.getByRole('dialog', { name: 'Измена уговора' });
      await expect(dialog.getByText('Завршен уговор се не може мењати.')).toBeVisible();
      await expect(dialog.locator('input[name="naziv"]')).toBeDisabled();
      await expect(dialog.locator('input[name="datumPocetka"]')).toBeDisabled();
      await expect(dialog.locator('input[name="rokTrajanja"]')).toBeDisabled();
      await expect(dialog.getByRole('combobox', { name: 'Групе извођача', exact: true })).toBeDisabled();
      await expect(dialog.locator('input[type="file"]')).toBeDisabled();
      await expect(dialog.getByRole('button', { name: 'Сачувај измене' })).toBeDisabled();
      await cancelDialog(page, dialog);
      await expect(dialog).toHaveCount(0);

      await row.getByRole('button', { name: `Повежи кластере: ${finishedName}` }).click();
      await expectNotice(page, 'Није могуће повезати кластере са завршеним уговором');
      await expect(page).toHaveURL(/\/app\/ugovori-izvodjaci$/);

      // Typed into the address bar (no navigation state), the screens still find the contractor contract.
      await page.goto(`/app/ugovor/povezivanje-sa-klasterima/x/${id}`);
      await expect(page.getByRole('alert').filter({ hasText: 'Није могуће повезати кластере са завршеним уговором' })).toBeVisible();
      await expect(page.getByRole('tab', { name: 'Повежи кластер' })).toHaveCount(0);
      await page.goto(`/app/ugovor/${id}`);
      await expect(page.getByRole('heading', { name: finishedName })).toBeVisible();
      await expect(page.getByRole('table', { name: 'Подаци о уговору' })).toContainText(shown(day(-250)));
      await expect(page.getByRole('button', { name: 'Повежи кластере' })).toHaveCount(0);

      // Linking a cluster, the coloured list says the colour in words too (WCAG 1.4.1): finished late.
      const { locations } = await admin.get<{ locations: { _id: string; naziv: string }[] }>('/api/location?page=1&limit=50');
      const cluster = locations.find((l) => l.naziv === DEMO_CLUSTER);
      expect(cluster).toBeTruthy();
      await page.goto(`/app/klaster/povezivanje-sa-ugovorom/${cluster?._id}`);
      await page.getByRole('tab', { name: LIST }).click();
      await search(page, finishedName);
      const offered = rowWith(page, LIST, finishedName);
      await expect(offered).toContainText('Завршен, после рока');
      await expect(offered.locator('td').first()).toHaveCSS('background-image', /linear-gradient/);
    });

    test('a general contract: the good document is kept, a refused one is named with its reason', async ({ page }) => {
      const general = `Opšti ugovor E2E ${stamp}`;
      await signInWithToken(page, ADMIN.email, ADMIN.password, '/app/ugovori');
      await page.getByRole('button', { name: 'Креирај уговор' }).click();
      const dialog = page.getByRole('dialog', { name: 'Нови уговор' });
      // The general contract has no groups.
      await expect(dialog.getByRole('combobox')).toHaveCount(0);
      await dialog.locator('input[name="naziv"]').fill(general);
      await dialog.locator('input[name="broj"]').fill(`${broj}-O`);
      await fillDate(dialog.locator('input[name="datumPocetka"]'), start);
      await dialog.locator('input[name="rokTrajanja"]').fill('30');
      // A PDF, and one named .pdf that is not a PDF: the server refuses that one by its content, keeps the other.
      await dialog
        .locator('input[type="file"]')
        .setInputFiles([pdfFile('Pravi.pdf'), { name: 'lazni.pdf', mimeType: 'application/pdf', buffer: Buffer.from('not a pdf at all') }]);
      await dialog.getByRole('button', { name: 'Сачувај' }).click();
      await expectNotice(page, 'Успешно креиран уговор. Ови документи нису сачувани: lazni.pdf — Погрешан тип фајла');
      await expect(dialog).toHaveCount(0);
      await search(page, general);
      await rowWith(page, 'Уговори', general).getByRole('cell', { name: general, exact: true }).click();
      await expect(page.getByRole('heading', { name: general })).toBeVisible();
      await expect(page.getByRole('table', { name: 'Подаци о уговору' })).toContainText('Општи уговор');
      await expect(page.getByRole('button', { name: 'Преузми: Pravi.pdf' })).toBeVisible();
      await expect(page.getByRole('button', { name: 'Преузми: lazni.pdf' })).toHaveCount(0);
    });

    test('a contractor contract may have no groups; its number is unique within the kind', async ({ page }) => {
      const noGroups = `Bez grupa E2E ${stamp}`;
      await signInWithToken(page, ADMIN.email, ADMIN.password, '/app/ugovori-izvodjaci');
      await page.getByRole('button', { name: 'Креирај уговор' }).click();
      let dialog = page.getByRole('dialog', { name: 'Нови уговор' });
      await dialog.locator('input[name="naziv"]').fill(noGroups);
      await dialog.locator('input[name="broj"]').fill(`${broj}-BG`);
      await fillDate(dialog.locator('input[name="datumPocetka"]'), start);
      await dialog.locator('input[name="rokTrajanja"]').fill('30');
      await dialog.getByRole('button', { name: 'Сачувај' }).click();
      await expectNotice(page, 'Успешно креиран уговор.');
      await expect(dialog).toHaveCount(0);
      await search(page, noGroups);
      await expect(dataRows(page, LIST)).toHaveCount(1);
      // The same number again, in other case and spacing, is taken: said on the field.
      await page.getByRole('button', { name: 'Креирај уговор' }).click();
      dialog = page.getByRole('dialog', { name: 'Нови уговор' });
      await dialog.locator('input[name="naziv"]').fill(`${noGroups} 2`);
      await dialog.locator('input[name="broj"]').fill(` ${broj.toLowerCase()} -bg`);
      await fillDate(dialog.locator('input[name="datumPocetka"]'), start);
      await dialog.locator('input[name="rokTrajanja"]').fill('30');
      await dialog.getByRole('button', { name: 'Сачувај' }).click();
      await expect(dialog.getByText('Уговор са тим бројем већ постоји.')).toBeVisible();
      await cancelDialog(page, dialog);
      await search(page, noGroups);
      await expect(dataRows(page, LIST)).toHaveCount(1);

      // 'Završen' needs an end date, not before the start (spec 2 §4).
      await rowWith(page, LIST, noGroups)
        .getByRole('button', { name: `Измени: ${noGroups}` })
        .click();
      dialog = page.getByRole('dialog', { name: 'Измена уговора' });
      await choose(dialog, page, 'Статус уговора', 'Завршен');
      await fillDate(dialog.locator('input[name="datumZavrsetka"]'), day(-20));
      await dialog.getByRole('button', { name: 'Сачувај измене' }).click();
      await expect(dialog.getByText('Датум завршетка не може бити пре датума почетка.')).toBeVisible();
      await fillDate(dialog.locator('input[name="datumZavrsetka"]'), '');
      await dialog.getByRole('button', { name: 'Сачувај измене' }).click();
      await expect(dialog.getByText('Унесите датум завршетка.')).toBeVisible();
      await cancelDialog(page, dialog);
      await expect(rowWith(page, LIST, noGroups)).toContainText('У току');
    });

    test("the contractor's employee sees their contracts read-only", async ({ page }) => {
      await signInWithToken(page, CONTRACTOR_EMPLOYEE, DEMO_PASSWORD, '/app/ugovori-izvodjaci');
      await expect(page.getByRole('heading', { name: LIST })).toBeVisible();
      await expect(rowWith(page, LIST, OWN_DEMO_CONTRACT)).toHaveCount(1);
      await expect(rowWith(page, LIST, finishedName)).toHaveCount(1);
      await expect(rowWith(page, LIST, OTHER_DEMO_CONTRACT)).toHaveCount(0);
      await expect(page.getByRole('button', { name: 'Креирај уговор' })).toHaveCount(0);
      await expect(page.getByRole('button', { name: /^(Измени|Обриши|Повежи кластере): / })).toHaveCount(0);
      // No general list for an employee, and the detail is the Admin's: a row opens nothing.
      await expect(page.getByRole('tab', { name: 'Општи уговори' })).toHaveCount(0);
      await rowWith(page, LIST, OWN_DEMO_CONTRACT).getByRole('cell', { name: OWN_DEMO_CONTRACT, exact: true }).click();
      await expect(page).toHaveURL(/\/app\/ugovori-izvodjaci$/);
      // Another group's kind: a designer contract is not theirs.
      await openInApp(page, '/app/ugovori-projektanti');
      await expect(page.getByRole('table', { name: 'Уговори пројектаната' })).toContainText('Нема пронађених података.');
      await signOut(page);
    });
  });

test('a call that never reaches the server says so (spec 2 §8 "Network failure")', async ({ page }) => {
  await signInWithToken(page, ADMIN.email, ADMIN.password, '/app/ugovori');
  await page.getByRole('button', { name: 'Креирај уговор' }).click();
  const dialog = page.getByRole('dialog', { name: 'Нови уговор' });
  await dialog.locator('input[name="naziv"]').fill('Bez mreže');
  await dialog.locator('input[name="broj"]').fill('BM-1');
  await fillDate(dialog.locator('input[name="datumPocetka"]'), day());
  await dialog.locator('input[name="rokTrajanja"]').fill('30');
  await page.route('**/api/contract', (route) => route.abort('connectionrefused'));
  await dialog.getByRole('button', { name: 'Сачувај' }).click();
  await expectNotice(page, 'Грешка мреже: сервер није доступан или је захтев блокиран');
  await page.unroute('**/api/contract');
  // Nothing was created.
  await page.goto('/app/ugovori');
  await search(page, 'Bez mreže');
  await expect(page.getByRole('table', { name: 'Уговори' })).toContainText('Нема пронађених података.');
});
