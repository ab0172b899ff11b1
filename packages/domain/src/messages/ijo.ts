/**
 * Texts of the public-authority holders screen (spec 3 §2.9, §5, §8). The spec words 'Brisanje IJO',
 * 'Грешка при чувању.' and the empty table; the rest is ours (docs/decisions.md "IJO holders").
 */

/** Who pays a holder's fee (spec 3 §3 "Holder (IJO)"): the stored values, as the spec writes them. */
export const IJO_ODGOVORAN = ['Izvođač', 'Naručilac'] as const;
export type IjoOdgovoran = (typeof IJO_ODGOVORAN)[number];

/** "на N кластера/кластеру": 1, 21, 31 … take кластеру, every other number кластера. */
function clustersLocative(n: number): string {
  const mod10 = n % 10;
  const mod100 = n % 100;
  if (mod10 === 1 && mod100 !== 11) return `${n} кластеру`;
  return `${n} кластера`;
}

export const IJO = {
  deleteTitle: 'Brisanje IJO',
  /** The confirmation names the holder. */
  deleteText: (naziv: string) => `Да ли желите да обришете ИЈО „${naziv}“?`,
  saveFailed: 'Грешка при чувању.',
  deleteFailed: 'Брисање није успело.',

  created: 'ИЈО је успешно додат.',
  edited: 'ИЈО је успешно измењен.',
  deleted: 'ИЈО је успешно обрисан.',
  nameRequired: 'Унесите назив ИЈО.',
  nameTooLong: 'Назив може имати највише 200 карактера.',
  nameTaken: 'ИЈО са овим називом већ постоји.',
  odgovoranInvalid: 'Одговоран може бити Izvođač или Naručilac.',
  /** Only the Admin and an employee of a 'ПИУ ТА' group change the holders (403). */
  notAllowed: 'ИЈО мењају само администратор и запослени групе ПИУ ТА.',
  /** A holder chosen on an activity (A6.1/A7) stays: 'ИЈО „X“ се користи на 3 кластера …'. */
  inUse: (naziv: string, clusters: number) => `ИЈО „${naziv}“ се користи на ${clustersLocative(clusters)} и не може се обрисати.`,

  odgovoranLabels: { Izvođač: 'Извођач', Naručilac: 'Наручилац' } as Record<IjoOdgovoran, string>,
} as const;
