import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import { expectNotice } from './support/admin';
import { ADMIN, apiToken, DEMO_PASSWORD } from './support/api';
import { pdfFile } from './support/files';
import { fillDate, signIn, signOut, typedDate } from './support/ui';

/** Demo accounts (packages/server/src/seed/demo.ts): the client's, a contractor's and a supervision employee. */
const CLIENT = 'nenad.stojanovic@mit.gov.rs';
const CONTRACTOR = 'stefan.markovic@optikagradnja.rs';
const SUPERVISION = 'vladimir.ciric@nadzor-inzenjering.rs';

type Brief = { _id: string; kratakNaziv: string; status: string };
type Activity = Brief & { version: number; kontrolna: boolean; lokacija: { _id: string; naselja: { _id: string; naziv: string }[] } };

function yesterday(): string {
  const d = new Date(Date.now() - 86_400_000);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

async function as(request: APIRequestContext, email: string, password = DEMO_PASSWORD) {
  const headers = { authorization: `Bearer ${await apiToken(request, email, password)}` };
  const ok = async (res: Awaited<ReturnType<APIRequestContext['get']>>, what: string): Promise<unknown> => {
    expect(res.ok(), `${what}: ${res.status()} ${await res.text()}`).toBeTruthy();
    return res.json();
  };
  return {
    get: async <T>(path: string): Promise<T> => (await ok(await request.get(path, { headers }), path)) as T,
    post: async <T>(path: string, data: unknown): Promise<T> => (await ok(await request.post(path, { headers, data }), path)) as T,
    patch: async <T>(path: string, data: unknown): Promise<T> => (await ok(await request.patch(path, { headers, data }), path)) as T,
    /** The multipart upload of one required document (PATCH /api/activity/{code}/{location}/{id}/{control}/{version}/true). */
    upload: async (a: Activity, name: string) =>
      ok(
        await request.patch(`/api/activity/${a.kratakNaziv}/${a.lokacija._id}/${a._id}/${a.kontrolna}/${a.version}/true`, {
          headers,
          multipart: { isRequiredFile: 'true', fajl1: pdfFile(name) },
        }),
        `upload ${name}`,
      ),
  };
}

async function activitiesOf(request: APIRequestContext, email: string, clusterId: string): Promise<Map<string, Brief>> {
  const api = await as(request, email);
  const { location } = await api.get<{ location: { aktivnosti: Brief[] } }>(`/api/location/${clusterId}`);
  return new Map(location.aktivnosti.map((a) => [a.kratakNaziv, a]));
}

async function openActivity(page: Page, id: string, heading: RegExp): Promise<void> {
  await page.goto(`/app/aktivnost/${id}`);
  await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
}

test.describe
  .serial('activity detail', () => {
    let clusterId = '';

    test.beforeAll(async ({ request }) => {
      // A cluster of its own for each attempt (a retry starts again on a new one): made by the Admin like a
      // demo cluster under a contract that the contractor and the supervision both see (the same groups,
      // two of its settlements, the same contract), so its workflow is not started.
      const contractor = await as(request, CONTRACTOR);
      const supervision = await as(request, SUPERVISION);
      const admin = await as(request, ADMIN.email, ADMIN.password);
      type Listed = { _id: string; ugovor: { _id: string } | null };
      const { locations } = await contractor.get<{ locations: Listed[] }>('/api/location?page=1&limit=100');
      const seen = new Set(
        (await supervision.get<{ locations: { _id: string }[] }>('/api/location?page=1&limit=100')).locations.map((l) => l._id),
      );
      const model = locations.find((l) => l.ugovor && seen.has(l._id));
      expect(model, 'a demo cluster under a contract that the contractor and the supervision see').toBeDefined();
      const { location } = await admin.get<{ location: { odgovoran: { _id: string }[]; naselja: { _id: string }[] } }>(
        `/api/location/${model?._id}`,
      );
      const created = await admin.post<{ location: { _id: string } }>('/api/location', {
        naziv: `Klaster Aktivnost ${Date.now().toString(36)}`,
        odgovoran: location.odgovoran.map((g) => g._id),
        naselja: location.naselja.slice(0, 2).map((n) => n._id),
        usputnaNaselja: [],
      });
      clusterId = created.location._id;
      await admin.patch(`/api/link/location-to-contract/${model?.ugovor?._id}`, { lokacije: [clusterId] });
      expect((await activitiesOf(request, CLIENT, clusterId)).get('A1')?.status).toBe('Nije započeta');
    });

    test('the client employee starts A1, uploads one file per settlement and finishes it', async ({ page, request }) => {
      const a1 = (await activitiesOf(request, CLIENT, clusterId)).get('A1') as Brief;
      await signIn(page, CLIENT, DEMO_PASSWORD);
      // An id that names no activity (spec 3 §2.1): 'Непостојећи корак', not the generic not-found page.
      await page.goto('/app/aktivnost/00000000-0000-4000-8000-000000000000');
      await expect(page.getByRole('heading', { level: 1, name: 'Непостојећи корак' })).toBeVisible();
      await openActivity(page, a1._id, /^A1 - /);
      await expect(page.getByText('Активност није започета')).toBeVisible();
      await page.getByRole('button', { name: 'Покрени активност' }).click();
      await expectNotice(page, 'Успешно покренута активност.');
      await expect(page.getByText('Активност није завршена')).toBeVisible();

      const { activity } = await (await as(request, CLIENT)).get<{ activity: Activity }>(`/api/activity/${a1._id}`);
      const finish = page.getByRole('button', { name: 'Заврши активност' });
      await expect(finish).toBeDisabled();
      await expect(page.getByText(`Број фајлова неопходан за увоз: ${activity.lokacija.naselja.length}`)).toBeVisible();
      const picker = page.locator('input[type="file"][aria-label="Фајл насеља"]');
      // The file picker waits for the settlement.
      await expect(picker).toBeDisabled();
      for (const n of activity.lokacija.naselja) {
        await page.getByRole('combobox', { name: 'Насеље' }).click();
        await page.getByRole('option', { name: n.naziv, exact: true }).click();
        await picker.setInputFiles(pdfFile(`Idejna trasa ${n.naziv}.pdf`));
        await expectNotice(page, 'Успешно додат документ.');
        await expect(page.getByRole('list', { name: 'Документа', exact: true }).getByText(`Idejna trasa ${n.naziv}.pdf`)).toBeVisible();
      }
      await expect(page.getByText('Увезли сте довољан број фајлова.')).toBeVisible();
      await finish.click();
      await page.getByRole('dialog').getByRole('button', { name: 'Да' }).click();
      await expectNotice(page, 'Успешно промењен статус активности.');
      await expect(page.getByRole('region', { name: 'Подаци о активности' }).getByText('Завршена')).toBeVisible();
    });

    test('the contractor fills A2: each change is saved by itself and is there after a reload', async ({ page, request }) => {
      const a2 = (await activitiesOf(request, CONTRACTOR, clusterId)).get('A2') as Brief;
      expect(a2.status).toBe('U toku');
      await signIn(page, CONTRACTOR, DEMO_PASSWORD);
      await openActivity(page, a2._id, /^A2 - /);
      // The documents of A1 are shown as those of the connected activity.
      await expect(
        page
          .getByRole('region', { name: 'Документа повезаних активности' })
          .getByText(/^Idejna trasa /)
          .first(),
      ).toBeVisible();

      const date = yesterday();
      await fillDate(page.locator('input[name="Datum"]'), date);
      await expect(page.getByText('Датум је сачуван.')).toBeVisible();
      const length = page.getByLabel('Ревидирана дужина кластера');
      // Letters are refused, not stripped ('12,5 km' in a field of metres is no 12,5 m): the text stays.
      await length.fill('12,5 km');
      await expect(length).toHaveValue('');
      await expect(page.getByText('Дозвољене су само цифре и један децимални сепаратор.')).toBeVisible();
      await length.fill('12,5');
      await expect(length).toHaveValue('12.5');
      await expect(page.getByText('= 12,5 м')).toBeVisible();
      await expect(page.getByText('Податак је сачуван.')).toBeVisible();
      // The note goes after 3 s.
      await expect(page.getByText('Податак је сачуван.')).toBeHidden({ timeout: 6000 });
      await expect(page.getByRole('button', { name: 'Заврши активност' })).toBeEnabled();

      await page.reload();
      await expect(page.locator('input[name="Datum"]')).toHaveValue(typedDate(date));
      await expect(page.getByLabel('Ревидирана дужина кластера')).toHaveValue('12.5');
    });

    test('supervision rejects A4.1 with a remark file; the contractor works on A4 in revision 1', async ({ page, request }) => {
      // Fast-forward through the API: A2 finished, A4's document uploaded and A4 finished, so A4.1 starts.
      const contractor = await as(request, CONTRACTOR);
      let steps = await activitiesOf(request, CONTRACTOR, clusterId);
      await contractor.post('/api/activity/activity-status', { status: 'Završena', activityId: steps.get('A2')?._id });
      const a4id = (await activitiesOf(request, CONTRACTOR, clusterId)).get('A4')?._id as string;
      const { activity: a4 } = await contractor.get<{ activity: Activity }>(`/api/activity/${a4id}`);
      await contractor.upload(a4, 'Idejno resenje.pdf');
      await contractor.post('/api/activity/activity-status', { status: 'Završena', activityId: a4id });
      steps = await activitiesOf(request, SUPERVISION, clusterId);
      const a41 = steps.get('A4.1') as Brief;
      expect(a41.status).toBe('U toku');

      await signIn(page, SUPERVISION, DEMO_PASSWORD);
      await openActivity(page, a41._id, /^A4\.1 - /);
      await expect(page.getByRole('button', { name: 'Без примедби' })).toBeEnabled();
      await page.locator('input[type="file"][aria-label="Обавезна документа"]').setInputFiles(pdfFile('Primedbe na IDR.pdf'));
      await page.getByRole('button', { name: 'Пошаљи документа' }).click();
      await expectNotice(page, 'Успешно додат документ.');
      await page.getByRole('button', { name: 'Са примедбама' }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Да' }).click();
      await expectNotice(page, 'Успешно промењен статус активности.');
      await expect(page.getByText('Контрола је завршена са примедбама.')).toBeVisible();

      await signOut(page);
      await signIn(page, CONTRACTOR, DEMO_PASSWORD);
      await openActivity(page, a4id, /^A4 - /);
      await expect(page.getByText('Ревизија 1: активност је враћена на дораду.')).toBeVisible();
      // The first revision's document is listed apart and can't be deleted.
      const old = page.getByRole('list', { name: 'Документа ранијих ревизија' });
      await expect(old.getByText('Idejno resenje.pdf')).toBeVisible();
      await expect(old.getByRole('button', { name: /^Обриши документ/ })).toHaveCount(0);
      await expect(page.getByRole('button', { name: 'Заврши активност' })).toBeDisabled();

      await page.locator('input[type="file"][aria-label="Обавезна документа"]').setInputFiles(pdfFile('Idejno resenje.pdf'));
      await page.getByRole('button', { name: 'Пошаљи документа' }).click();
      await expectNotice(page, 'Успешно додат документ.');
      const current = page.getByRole('list', { name: 'Документа', exact: true });
      await expect(current.getByText('Idejno resenje_revizija=1.pdf')).toBeVisible();
      await expect(current.getByRole('button', { name: 'Обриши документ: Idejno resenje_revizija=1.pdf' })).toBeVisible();
      await expect(page.getByRole('button', { name: 'Заврши активност' })).toBeEnabled();
    });
  });
