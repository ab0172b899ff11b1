import { expect, test } from '@playwright/test';
import { apiToken, DEMO_PASSWORD } from './support/api';
import { signIn } from './support/ui';

/**
 * Money typed as the app shows it (spec 3 §5, domain amounts.ts): in the demo's 'Ivanjica - Kušići' A7
 * the PIU TA employee types '2.500,50' into the fee of the holder still without one — the second
 * separator and the third decimal are refused at the keystroke and the field says it is 2,50 RSD — then
 * types '2500,50', which the IJO fees report shows as 2.500,50.
 */
const PIU_TA = 'milica.pavlovic@piuta.rs';
const CLUSTER = 'Ivanjica - Kušići';
const HOLDER = /Srbijašume|Србијашуме/;

test('a fee typed in A7 is refused beyond one separator and two decimals, shown as understood, and reported', async ({ page, request }) => {
  const headers = { authorization: `Bearer ${await apiToken(request, PIU_TA, DEMO_PASSWORD)}` };
  const list = (await (await request.get('/api/location?page=1&limit=1000', { headers })).json()) as {
    locations: { _id: string; naziv: string }[];
  };
  const cluster = list.locations.find((l) => l.naziv === CLUSTER);
  expect(cluster, CLUSTER).toBeDefined();
  const { location } = (await (await request.get(`/api/location/${cluster?._id}`, { headers })).json()) as {
    location: { aktivnosti: { _id: string; kratakNaziv: string }[] };
  };
  const a7 = location.aktivnosti.find((a) => a.kratakNaziv === 'A7');

  await signIn(page, PIU_TA, DEMO_PASSWORD);
  await page.goto(`/app/aktivnost/${a7?._id}`);
  const fee = page.getByRole('textbox', { name: new RegExp(`^Такса \\(RSD\\): .*${HOLDER.source}`) });
  await expect(fee).toBeVisible();
  await fee.fill('');
  await fee.pressSequentially('2.500,50');
  await expect(fee).toHaveValue('2.50');
  const helper = page.locator(`#${await fee.getAttribute('id')}-helper-text`);
  await expect(helper).toHaveText('Дозвољене су највише 2 децимале.');
  // The amount as understood is shown as soon as the field holds it.
  await fee.press('Backspace');
  await expect(fee).toHaveValue('2.5');
  await expect(helper).toHaveText('= 2,50 RSD');

  await fee.fill('2500,50');
  await expect(fee).toHaveValue('2500.50');
  await expect(helper).toHaveText('= 2.500,50 RSD');
  await expect
    .poll(async () => {
      const res = await request.get(`/api/activity/${a7?._id}`, { headers });
      const { activity } = (await res.json()) as { activity: { podaci: { key: string; vrednost: string }[] } };
      return activity.podaci.filter((p) => p.key === 'A7Taksa').map((p) => p.vrednost);
    })
    .toContain('2500.5');

  await page.goto('/app/izvestaji');
  await page.getByRole('tab', { name: 'Статус и таксе ИЈО' }).click();
  const table = page.getByRole('table', { name: 'Статус и таксе ИЈО' });
  await expect(table.locator('tbody tr')).not.toHaveCount(0);
  // Every row on one page (the largest page size offered).
  await page.getByRole('combobox', { name: 'Редова по страници' }).click();
  await page.getByRole('option').last().click();
  const row = table
    .locator('tbody tr')
    .filter({ hasText: /Kušići|Кушићи/ })
    .filter({ hasText: HOLDER });
  await expect(row).toContainText('2.500,50');
});
