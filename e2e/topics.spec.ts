import { expect, type Locator, type Page, test } from '@playwright/test';
import { bodyRows, choose, dataRows, expectNotice, pick, pickTyped, rowWith, search } from './support/admin';
import { apiToken, DEMO_PASSWORD } from './support/api';
import { fillDate, signIn, signOut } from './support/ui';

/**
 * Open issues (spec 2 §2 "Open issues (topics)"). Demo accounts (packages/server/src/seed/demo.ts): the
 * cluster 'Čajetina 1 - Sirogojno' (seed/demoClusters.ts) has Optika Gradnja (contractor) and Nadzor
 * Inženjering (supervision) responsible, so employees of both see its topics.
 */
const CLUSTER = 'Čajetina 1 - Sirogojno';
const CONTRACTOR = 'Optika Gradnja d.o.o.';
const SUPERVISION = 'Nadzor Inženjering d.o.o.';
const CONTRACTOR_EMPLOYEE = 'stefan.markovic@optikagradnja.rs';
const SUPERVISION_EMPLOYEE = 'vladimir.ciric@nadzor-inzenjering.rs';
const TABLE = 'Отворена питања';
const MISSING_ID = '00000000-0000-4000-8000-000000000000';

const CLOSED_TOOLTIP = 'Затворена тема се не може мењати ни брисати.';
const COMMENTED_TOOLTIP = 'Тема са коментарима се не може мењати ни брисати.';

async function openTopics(page: Page): Promise<void> {
  await page.getByRole('navigation', { name: 'Главни мени' }).getByRole('link', { name: 'Отворена питања' }).click();
  await expect(page.getByRole('heading', { name: 'Отворена питања' })).toBeVisible();
}

/** Opens the one topic the search finds from the list. */
async function openFromList(page: Page, text: string): Promise<void> {
  await openTopics(page);
  await search(page, text);
  await expect(dataRows(page, TABLE)).toHaveCount(1);
  await rowWith(page, TABLE, text).getByRole('cell').first().click();
  await expect(page.getByRole('heading', { name: 'Отворено питање' })).toBeVisible();
}

function detailRow(page: Page, name: string): Locator {
  return page
    .getByRole('table', { name: 'Подаци о теми' })
    .getByRole('row')
    .filter({ has: page.getByRole('rowheader', { name }) });
}

/** A disabled button's tooltip shows on hovering its wrapper. */
async function expectLockedWithTooltip(page: Page, button: Locator, tooltip: string): Promise<void> {
  await expect(button).toBeDisabled();
  await button.locator('..').hover();
  await expect(page.getByRole('tooltip', { name: tooltip })).toBeVisible();
  await page.mouse.move(0, 0);
  await expect(page.getByRole('tooltip')).toHaveCount(0);
}

test.describe
  .serial('an open issue from a contractor to supervision and back', () => {
    const stamp = Date.now().toString(36);
    const opis = `Prekid trase kod Rožanstva ${stamp}`;
    const edited = `${opis} - kabl presečen`;

    test('an employee of the contractor opens a topic naming the supervision group and edits it', async ({ page }) => {
      await signIn(page, CONTRACTOR_EMPLOYEE, DEMO_PASSWORD);
      await openTopics(page);
      await page.getByRole('link', { name: 'Нова тема' }).click();
      await expect(page).toHaveURL(/\/app\/teme\/nova$/);
      await expect(page.getByRole('heading', { name: 'Ново отворено питање' })).toBeVisible();
      // Priority srednji by default; cluster and responsible group required.
      await expect(page.getByRole('combobox', { name: /^Приоритет/ })).toHaveText('Средњи');
      await page.getByRole('button', { name: 'Сачувај' }).click();
      await expect(page.getByText('Поље је обавезно')).toHaveCount(2);

      // The cluster picker finds the Latin name typed in Cyrillic (issue 14).
      await pickTyped(page, page, 'Кластер', 'чајетина 1', CLUSTER);
      await pick(page, page, 'Одговорна група', `${SUPERVISION} (Надзор)`);
      await choose(page, page, 'Приоритет', 'Висок');
      await fillDate(page.getByLabel('Рок'), '2030-05-20T10:30');
      await page.getByLabel('Опис').fill(opis);
      await page.getByRole('button', { name: 'Сачувај' }).click();
      await expectNotice(page, 'Тема је отворена.');
      await expect(page).toHaveURL(/\/app\/teme\/[0-9a-f-]{36}$/);

      await expect(detailRow(page, 'Кластер')).toContainText(CLUSTER);
      await expect(detailRow(page, 'Опис')).toContainText(opis);
      await expect(detailRow(page, 'Приоритет')).toContainText('Висок');
      await expect(detailRow(page, 'Статус')).toContainText('Отворена');
      await expect(detailRow(page, 'Рок')).toContainText('20.05.2030 10:30');
      await expect(detailRow(page, 'Одговорна група')).toContainText(SUPERVISION);
      await expect(page.getByText('Тема још нема коментара.')).toBeVisible();
      // Not of the responsible group: no comment box, the group named instead.
      await expect(page.getByText(`Само одговорна група може да коментарише. Тренутно одговорна група: ${SUPERVISION}`)).toBeVisible();
      await expect(page.getByRole('textbox', { name: 'Коментар' })).toHaveCount(0);

      // Without comments the topic can still change.
      await page.getByRole('button', { name: 'Измени' }).click();
      await expect(page).toHaveURL(/\/app\/teme\/izmeni\/[0-9a-f-]{36}$/);
      await expect(page.getByLabel('Опис')).toHaveValue(opis);
      await expect(page.getByLabel('Рок')).toHaveValue('20.05.2030 10:30');
      await expect(page.getByRole('combobox', { name: 'Кластер', exact: true })).toBeDisabled();
      await page.getByLabel('Опис').fill(edited);
      await page.getByRole('button', { name: 'Сачувај' }).click();
      await expectNotice(page, 'Тема је измењена.');
      await expect(detailRow(page, 'Опис')).toContainText(edited);
      await signOut(page);
    });

    test('a member of the supervision group answers and hands it over to the contractor', async ({ page }) => {
      await signIn(page, SUPERVISION_EMPLOYEE, DEMO_PASSWORD);
      await openFromList(page, stamp);
      const comment = page.getByRole('form', { name: 'Нови коментар' });
      await comment.getByRole('button', { name: 'Пошаљи коментар' }).click();
      await expect(comment.getByText('Не можете послати празну поруку.')).toBeVisible();
      await comment.getByRole('textbox', { name: 'Коментар' }).fill('Saglasni smo sa sanacijom; izvođač neka dostavi snimak.');
      await pick(comment, page, 'Предај групи', `${CONTRACTOR} (Извођач)`);
      await comment.getByRole('button', { name: 'Пошаљи коментар' }).click();

      const comments = page.getByRole('list', { name: 'Коментари' }).getByRole('listitem');
      await expect(comments).toHaveCount(1);
      await expect(comments.first()).toContainText('Vladimir Ćirić');
      await expect(comments.first()).toContainText('Saglasni smo sa sanacijom');
      await expect(comments.first()).toContainText(`Група одговорна за одговор: ${CONTRACTOR}`);
      await expect(comments.first()).toContainText(/\d{2}\.\d{2}\.\d{4} \d{2}:\d{2}/);
      await expect(detailRow(page, 'Одговорна група')).toContainText(CONTRACTOR);
      // Handed over: this group can no longer comment.
      await expect(page.getByRole('form', { name: 'Нови коментар' })).toHaveCount(0);
      await expect(page.getByText(`Само одговорна група може да коментарише. Тренутно одговорна група: ${CONTRACTOR}`)).toBeVisible();
      // Not of the author's group: no edit, delete or close (issue 12; the server refuses them too).
      await expect(page.getByRole('button', { name: 'Измени' })).toHaveCount(0);
      await expect(page.getByRole('button', { name: 'Обриши' })).toHaveCount(0);
      await expect(page.getByRole('button', { name: 'Затвори тему' })).toHaveCount(0);
      await signOut(page);
    });

    test('the contractor answers and closes it; the closed topic is locked and found by the filters', async ({ page }) => {
      await signIn(page, CONTRACTOR_EMPLOYEE, DEMO_PASSWORD);
      await openFromList(page, stamp);
      const comment = page.getByRole('form', { name: 'Нови коментар' });
      await comment.getByRole('textbox', { name: 'Коментар' }).fill('Snimak je poslat, kabl je nastavljen.');
      await comment.getByRole('button', { name: 'Пошаљи коментар' }).click();
      const comments = page.getByRole('list', { name: 'Коментари' }).getByRole('listitem');
      await expect(comments).toHaveCount(2);
      await expect(comments.nth(1)).toContainText('Stefan Marković');
      await expect(comments.nth(1)).toContainText(`Група одговорна за одговор: ${CONTRACTOR}`);
      // The author's group: commented, so edit and delete are shown locked.
      await expectLockedWithTooltip(page, page.getByRole('button', { name: 'Измени' }), COMMENTED_TOOLTIP);
      await expectLockedWithTooltip(page, page.getByRole('button', { name: 'Обриши' }), COMMENTED_TOOLTIP);

      await page.getByRole('button', { name: 'Затвори тему' }).click();
      await page.getByRole('dialog', { name: 'Затворити тему?' }).getByRole('button', { name: 'Да' }).click();
      await expectNotice(page, 'Тема је затворена.');
      await expect(page.getByText('Тема је затворена', { exact: true })).toBeVisible();
      await expect(detailRow(page, 'Статус')).toContainText('Затворена');
      await expect(page.getByRole('form', { name: 'Нови коментар' })).toHaveCount(0);
      await expect(page.getByRole('button', { name: 'Затвори тему' })).toHaveCount(0);
      await expectLockedWithTooltip(page, page.getByRole('button', { name: 'Измени' }), CLOSED_TOOLTIP);
      await expectLockedWithTooltip(page, page.getByRole('button', { name: 'Обриши' }), CLOSED_TOOLTIP);

      // The edit form of a closed topic says why nothing can change.
      const url = page.url();
      await page.goto(url.replace('/app/teme/', '/app/teme/izmeni/'));
      await expect(page.getByText(CLOSED_TOOLTIP)).toBeVisible();
      await expect(page.getByLabel('Опис')).toBeDisabled();
      await expect(page.getByRole('button', { name: 'Сачувај' })).toBeDisabled();

      // The list: locked row buttons; status and priority filters; a Cyrillic search finds the Latin text.
      await openTopics(page);
      await search(page, stamp);
      const row = rowWith(page, TABLE, stamp);
      await expect(row).toHaveCount(1);
      await expect(row).toContainText(CLUSTER);
      await expect(row).toContainText('Висок');
      await expect(row).toContainText('Затворена');
      await expect(row).toContainText('20.05.2030 10:30');
      await expectLockedWithTooltip(page, row.getByRole('button', { name: `Измени: ${CLUSTER}` }), CLOSED_TOOLTIP);
      await choose(page, page, 'Статус', 'Отворене');
      await expect(bodyRows(page, TABLE)).toHaveText(['Нема пронађених података.']);
      await choose(page, page, 'Статус', 'Затворене');
      await expect(rowWith(page, TABLE, stamp)).toHaveCount(1);
      await choose(page, page, 'Приоритет', 'Низак');
      await expect(bodyRows(page, TABLE)).toHaveText(['Нема пронађених података.']);
      await choose(page, page, 'Приоритет', 'Висок');
      await expect(rowWith(page, TABLE, stamp)).toHaveCount(1);
      await choose(page, page, 'Статус', 'Све');
      await choose(page, page, 'Приоритет', 'Све');
      await search(page, 'ПРЕКИД ТРАСЕ КОД РОЖАНСТВА');
      await expect(rowWith(page, TABLE, stamp)).toHaveCount(1);
      await signOut(page);
    });

    test('a topic without comments is deleted from the list; a missing one is not found', async ({ page, request }) => {
      const token = await apiToken(request, CONTRACTOR_EMPLOYEE, DEMO_PASSWORD);
      const headers = { authorization: `Bearer ${token}` };
      const locations = (await (await request.get('/api/location?page=1&limit=1000', { headers })).json()) as {
        locations: { _id: string; naziv: string; odgovoran: { _id: string; naziv: string }[] }[];
      };
      const cluster = locations.locations.find((l) => l.naziv === CLUSTER);
      const group = cluster?.odgovoran.find((g) => g.naziv === CONTRACTOR);
      const doomed = `Tema za brisanje ${stamp}`;
      const res = await request.post('/api/topic', { headers, data: { locationId: cluster?._id, odgovoran: group?._id, opis: doomed } });
      expect(res.status(), await res.text()).toBe(201);

      await signIn(page, CONTRACTOR_EMPLOYEE, DEMO_PASSWORD);
      await openTopics(page);
      await search(page, doomed);
      const row = rowWith(page, TABLE, doomed);
      await expect(row).toContainText('Средњи');
      await expect(row).toContainText('Отворена');
      await row.getByRole('button', { name: `Обриши: ${CLUSTER}` }).click();
      const dialog = page.getByRole('dialog', { name: 'Обриши тему?' });
      await dialog.getByRole('button', { name: 'Да' }).click();
      await expectNotice(page, 'Тема је обрисана.');
      await expect(bodyRows(page, TABLE)).toHaveText(['Нема пронађених података.']);

      await page.goto(`/app/teme/${MISSING_ID}`);
      await expect(page.getByRole('heading', { name: 'Није пронађено' })).toBeVisible();
      await page.goto(`/app/teme/izmeni/${MISSING_ID}`);
      await expect(page.getByRole('heading', { name: 'Није пронађено' })).toBeVisible();
    });
  });
