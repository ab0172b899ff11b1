import { DATA_KEYS, dataValue, parseAmount, type UserDto } from '@trasa/domain';
import { afterEach, beforeAll, beforeEach, expect, inject, test } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import { type ActivityDto, getActivity } from '../../api/activities';
import { RSD } from '../../components/units';
import { ACTIVITIES } from '../../messages';
import { renderInApp, signIn, watchApiCalls } from '../../testing/app';
import { formatMoney } from '../clusters/format';
import { ACTIVITY_LABELS } from './labels';
import { useActivityQuery } from './queries';
import { EditSection } from './sections/EditSection';

/**
 * The activity's edit section (the demo's A2 under way in 'Užice 1 - Kremna': date, revised length in
 * metres, revised value in RSD, additional fees), as the contractor responsible for it, against the real
 * server: what its fields take, show and autosave.
 * The tests run in order on one activity, each on a field of its own.
 */

const id = inject('activityA2Id');
let contractor: UserDto;
beforeAll(async () => {
  contractor = await signIn('contractor');
});

let api: ReturnType<typeof watchApiCalls>;
beforeEach(() => {
  api = watchApiCalls();
});
afterEach(() => api.stop());

async function serverActivity(): Promise<ActivityDto> {
  return (await getActivity(id)).activity;
}

async function serverValue(key: string): Promise<string | undefined> {
  return dataValue((await serverActivity()).podaci, key);
}

/** The section as the activity page shows it: of the activity as loaded (and as each save answers it). */
function LoadedEditSection() {
  const { data } = useActivityQuery(id);
  return data ? <EditSection activity={data.activity} /> : null;
}

async function renderSection() {
  const activity = await serverActivity();
  expect(activity.kratakNaziv).toBe('A2');
  api.reset();
  await renderInApp(<LoadedEditSection />, contractor);
  await expect.element(page.getByRole('region', { name: ACTIVITY_LABELS.edit })).toBeVisible();
  return activity;
}

/** The saves sent (PATCH /api/activity/{id}). */
const saves = () => api.calls(`/api/activity/${id}`, 'PATCH').length;
const field = (label: string) => page.getByRole('textbox', { name: label });

test('a typed number is saved once, after the pause, and the server has it', async () => {
  await renderSection();
  const length = field(ACTIVITY_LABELS.revisedLength);
  await expect.element(length).toHaveValue('');
  // Typed as one change (the keys of a typist come faster than the 800 ms pause, which a busy test
  // machine cannot promise between simulated keystrokes; keystroke by keystroke: the money field's test).
  await length.fill('1234,5');
  // The comma is the decimal point: the field shows what is saved.
  await expect.element(length).toHaveValue('1234.5');
  await expect.element(page.getByText(ACTIVITIES.itemSaved)).toBeVisible();
  expect(await serverValue(DATA_KEYS.revisedLength)).toBe('1234.5');
  // One save, of the whole value.
  expect(saves()).toBe(1);
});

test('the money field takes an amount in RSD and refuses what is not one, never saving it', async () => {
  const activity = await renderSection();
  const value = field(ACTIVITY_LABELS.revisedValue);
  // The unit stands in the field; under it the cluster's contracted value, as money.
  const box = value.element().closest('.MuiInputBase-root');
  expect(box?.textContent).toContain(RSD);
  const contracted = activity.lokacija.ugovorenaVrednostKlastera;
  if (contracted !== null) await expect.element(page.getByText(ACTIVITY_LABELS.contracted(formatMoney(contracted)))).toBeVisible();

  // Digits and one separator (a comma becomes a dot): a second separator, a third decimal and letters are
  // refused at the keystroke, never folded into the number, and the amount as understood shows at once.
  await userEvent.type(value, '12 500,00,5 din');
  await expect.element(value).toHaveValue('12500.00');
  await expect.element(page.getByText(ACTIVITIES.digitsOnly)).toBeVisible();
  // A separator meant as thousands is seen for what it is before it is saved: '2,5' is 2,50 RSD.
  await userEvent.clear(value);
  await userEvent.type(value, '2,5');
  await expect.element(page.getByText(/= 2,50 RSD/)).toBeVisible();

  await userEvent.clear(value);
  await userEvent.type(value, '1250000,75');
  await expect.element(value).toHaveValue('1250000.75');
  await expect.element(page.getByText(ACTIVITIES.validNumber)).not.toBeInTheDocument();
  await expect.element(page.getByText(ACTIVITIES.itemSaved)).toBeVisible();
  expect(await serverValue(DATA_KEYS.revisedValue)).toBe('1250000.75');
  // What was saved: the amount last, and never the value that is not a number.
  const sent = api.bodies(`/api/activity/${id}`, 'PATCH').map((b) => JSON.stringify(b));
  expect(sent.at(-1)).toContain('"vrednost":"1250000.75"');
  expect(sent.filter((b) => b.includes('12500.00.5'))).toEqual([]);
});

test('an additional fee in RSD is listed as money once the server has it', async () => {
  await renderSection();
  const form = page.getByRole('form', { name: ACTIVITY_LABELS.addFee });
  await form.getByRole('textbox', { name: ACTIVITY_LABELS.feeName }).fill('Taksa za prekop');
  const amount = form.getByRole('textbox', { name: ACTIVITY_LABELS.feeValue });
  await amount.fill('nema');
  await form.getByRole('button', { name: ACTIVITY_LABELS.addFee }).click();
  await expect.element(form.getByText(ACTIVITIES.mustBeNumber)).toBeVisible();
  expect(saves()).toBe(0);

  await amount.fill('1500,5');
  await form.getByRole('button', { name: ACTIVITY_LABELS.addFee }).click();
  const fees = page.getByRole('list', { name: ACTIVITY_LABELS.extraFees });
  await expect
    .element(fees.getByRole('listitem').filter({ hasText: 'Taksa za prekop' }))
    .toHaveTextContent(`Taksa za prekop: ${formatMoney(1500.5)}`);
  const fee = (await serverActivity()).podaci.find((p) => p.key === DATA_KEYS.extraFee && p.naziv === 'Taksa za prekop');
  expect(parseAmount(fee?.vrednost ?? '')).toBe(1500.5);
});

test('the date is typed and shown DD.MM.YYYY, saved as YYYY-MM-DD; a future date is refused and not saved', async () => {
  const before = await serverValue(DATA_KEYS.date);
  await renderSection();
  const date = field(ACTIVITY_LABELS.date);
  // The stored date, as the field shows it.
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(before ?? '');
  await expect.element(date).toHaveValue(m ? `${m[3]}.${m[2]}.${m[1]}` : '');

  await date.fill('01.01.2099');
  await expect.element(page.getByText(ACTIVITIES.futureDate)).toBeVisible();
  await date.fill('05.11.2025');
  await expect.element(page.getByText(ACTIVITIES.futureDate)).not.toBeInTheDocument();
  await expect.element(date).toHaveValue('05.11.2025');
  await expect.element(page.getByText(ACTIVITIES.dateSaved)).toBeVisible();
  expect(await serverValue(DATA_KEYS.date)).toBe('2025-11-05');
  expect(saves()).toBe(1);
});
