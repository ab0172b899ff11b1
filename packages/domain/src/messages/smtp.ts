/**
 * Texts of the mail-server screen and of the mail the server sends about it (spec 3 §2.8, §5, §8;
 * docs/api/smtp.md). The spec words 'Obavezno polje', 'Neispravna e-pošta', 'Neuspešno podešavanje SMTP'
 * and 'Neuspešno promenjen SMTP' (kept verbatim, in Latin); the rest is ours.
 */

/** A mail's row in the outbox (server platform/mail.ts MailStatus). */
export const MAIL_STATUSES = ['queued', 'sent', 'failed', 'outbox', 'held', 'dropped'] as const;
export type MailStatusKey = (typeof MAIL_STATUSES)[number];

export const SMTP = {
  required: 'Obavezno polje',
  invalidEmail: 'Neispravna e-pošta',
  portInvalid: 'Port mora biti broj od 1 do 65535.',
  tooLong: 'Predugačak unos.',
  createFailed: 'Neuspešno podešavanje SMTP',
  editFailed: 'Neuspešno promenjen SMTP',
  deleteFailed: 'Brisanje SMTP servera nije uspelo.',

  created: 'SMTP сервер је сачуван.',
  edited: 'SMTP сервер је измењен.',
  deleted: 'SMTP сервер је обрисан.',
  deleteTitle: 'Брисање SMTP сервера',
  deleteText: (host: string) => `Да ли желите да обришете SMTP сервер ${host}?`,
  deleteInUseNote: 'Сервер је у употреби: док се не изабере други, поште се не шаљу већ чувају у одлазној пошти.',
  /** The list's warning (spec 3 §4 "SMTP server: the list warns when none is in use"). */
  noneInUse: 'Ниједан SMTP сервер није у употреби: поруке се не шаљу, већ се чувају у одлазној пошти испод.',

  /** The test mail (POST /api/smtp/{id}/test). */
  testSubject: 'Траса — пробна порука',
  testText: (host: string, port: number) =>
    `Ово је пробна порука апликације Траса, послата преко SMTP сервера ${host}:${port}.\n\nАко сте је примили, сервер је исправно подешен.`,
  testSent: (to: string) => `Пробна порука је послата на ${to}.`,
  /**
   * One answer for every failure: a closed, silent or foreign port and an unknown host read alike (the
   * test is no port scanner); a peer that answered as an SMTP server adds its reply code (replyCode).
   */
  testFailed: 'Пробна порука није послата: проверите адресу и порт сервера, имејл и лозинку.',
  replyCode: (code: number) => ` SMTP сервер је одговорио кодом ${code}.`,
  /** An outbox row's error when the SMTP server in use did not take the mail (with replyCode). */
  sendFailed: 'Слање није успело.',

  /** The outbox (GET /api/smtp/outbox). */
  statusLabels: {
    queued: 'На чекању',
    sent: 'Послата',
    failed: 'Неуспела',
    outbox: 'Нема сервера',
    held: 'Задржана',
    dropped: 'Одбачена',
  } as Record<MailStatusKey, string>,
  released: (n: number) => `Za slanje je pušteno poruka: ${n}.`,

  /** The daily deadline digest (server-behaviour.md "Notifications"). */
  digestSubject: (date: string) => `Траса — рокови активности ${date}`,
  digestIntro: (ime: string) =>
    `Поштовани/а ${ime},\n\nследећим активностима на кластерима које видите данас је рок при крају или је прошао:`,
  digestOrange: 'рок истиче',
  digestRed: 'рок је прошао',
  digestLine: (naziv: string, cluster: string, due: string, state: string, link: string) =>
    `- ${naziv} — ${cluster}: ${state} (рок ${due})\n  ${link}`,
  digestOutro: 'Списак свих активности у току је на почетној страни апликације.',
} as const;
