import type { StocktakingRow, UserDto } from '@trasa/domain';
import { afterEach, beforeAll, expect, test } from 'vitest';
import { page } from 'vitest/browser';
import { setScript } from '../../script';
import { renderInApp, signIn } from '../../testing/app';
import { StocktakingPart } from './StocktakingPart';

/** A stocktaking list's part: a planned row (handover after today) says so in words, in the user's script. */

let user: UserDto;
beforeAll(async () => {
  user = await signIn();
});
afterEach(() => setScript('cyr'));

const row = (planirano: boolean, kolicina: number, datumPrimopredaje: string): StocktakingRow => ({
  _id: 'ruter',
  redniBroj: 1,
  sifra: 'OP-09',
  naziv: 'Ruter',
  kratakNaziv: 'Ruter',
  jedinica: 'kom',
  kolicina,
  cenaRsd: 3000,
  ukupnoRsd: kolicina * 3000,
  trajanjeGarancije: null,
  datumPrimopredaje,
  planirano,
});

test('the handed-over row shows its date, the planned one of the same entry "Планирано за" its date', async () => {
  renderInApp(<StocktakingPart label="Опрема" rows={[row(false, 1, '2026-12-05'), row(true, 2, '2026-12-13')]} />, user);
  const rows = page.getByRole('table', { name: 'Опрема' }).getByRole('row');
  await expect.element(rows.nth(1)).toHaveTextContent('05.12.2026');
  await expect.element(rows.nth(1)).not.toHaveTextContent('Планирано');
  await expect.element(rows.nth(2)).toHaveTextContent('Планирано за 13.12.2026');
});

test('in Latin the planned row reads "Planirano za"', async () => {
  setScript('lat');
  renderInApp(<StocktakingPart label="Oprema" rows={[row(true, 2, '2026-12-13')]} latin />, user);
  await expect.element(page.getByRole('table', { name: 'Oprema' }).getByRole('row').nth(1)).toHaveTextContent('Planirano za 13.12.2026');
});
