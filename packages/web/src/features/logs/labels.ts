/** Labels of the logs and comments lists the spec does not word (its texts are LOGS, COMMENT_LIST). */
import { scripted } from '../../scripted';
export const LOG_LABELS = scripted({
  table: 'Логови',
  createdAt: 'Време',
  user: 'Корисник',
  message: 'Порука',
  group: 'Група',
  ip: 'IP адреса',
  url: 'Адреса захтева',
  groupTitle: (naziv: string) => `Логови групе ${naziv}`,
  allLogs: 'Сви логови',
  groupLink: (group: string) => `Логови групе ${group}`,
  choosePage: 'Изабери све на страни',
  chooseRow: 'Изабери лог',
  deleteChosen: (n: number) => `Обриши изабране (${n})`,
  approximately: 'приближно',
} as const);

export const COMMENT_LABELS = scripted({
  table: 'Коментари',
  name: 'Име',
  comment: 'Коментар',
  email: 'Имејл',
  cluster: 'Кластер',
  activity: 'Активност',
  createdAt: 'Време',
  choosePage: 'Изабери све на страни',
  chooseRow: 'Изабери коментар',
} as const);
