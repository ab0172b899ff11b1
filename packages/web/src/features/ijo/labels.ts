/** Labels of the holders screen the spec does not word (its own texts are IJO in @trasa/domain). */
export const IJO_LABELS = {
  naziv: 'Назив',
  odgovoran: 'Одговоран за таксу',
  add: 'Додај ИЈО',
  newTitle: 'Нови ИЈО',
  editTitle: 'Измена ИЈО',
  table: 'Имаоци јавних овлашћења',
} as const;
