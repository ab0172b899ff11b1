/** Labels of the holders screen the spec does not word (its own texts are IJO in @trasa/domain). */
import { scripted } from '../../scripted';
export const IJO_LABELS = scripted({
  naziv: 'Назив',
  odgovoran: 'Одговоран за таксу',
  add: 'Додај ИЈО',
  newTitle: 'Нови ИЈО',
  editTitle: 'Измена ИЈО',
  table: 'Имаоци јавних овлашћења',
} as const);
