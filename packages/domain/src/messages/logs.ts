/**
 * Texts of the logs (spec 3 §2.5, §8) and the comments list (§2.6, §8). The spec words the empty
 * table, 'Uspešno obrisani logovi' and the deleted author; the rest is ours.
 */
export const LOGS = {
  empty: 'Nema pronađenih podataka.',
  deleted: 'Uspešno obrisani logovi',
  deleteFailed: 'Brisanje logova nije uspelo.',
  deleteTitle: 'Brisanje logova',
  deleteText: (n: number) => (n === 1 ? 'Да ли желите да обришете изабрани лог?' : `Да ли желите да обришете изабране логове (${n})?`),
  noneChosen: 'Niste izabrali nijedan log.',
} as const;

export const COMMENT_LIST = {
  deleted: 'Uspešno obrisani komentari',
  deleteFailed: 'Brisanje komentara nije uspelo.',
  deleteTitle: 'Brisanje komentara',
  deleteText: (n: number) =>
    n === 1 ? 'Да ли желите да обришете изабрани коментар?' : `Да ли желите да обришете изабране коментаре (${n})?`,
  noneChosen: 'Niste izabrali nijedan komentar.',
} as const;
