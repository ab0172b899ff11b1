/** Labels of the list of changes kept on the device (the top bar's dialog, an activity's page): loaded with the list. */
import { scripted } from '../scripted';
import { mb } from './texts';

export const QUEUE_LIST_TEXTS = scripted({
  title: 'Измене на чекању',
  intro: 'Измене направљене без мреже чувају се на овом уређају и шаљу се редом чим мрежа буде доступна.',
  empty: 'Нема измена на чекању.',
  sendNow: 'Пошаљи сада',
  sending: (done: number, total: number) => `Слање ${done + 1} од ${total}…`,
  pausedOffline: 'Нема мреже: слање ће се наставити чим се мрежа врати.',
  pausedSignedOut: 'Пријавите се поново: измене чекају и шаљу се после пријаве.',
  pausedServer: 'Сервер тренутно не одговара: слање ће бити поновљено.',
  used: (bytes: number, max: number) => `На уређају: ${mb(bytes)} од ${mb(max)}`,

  kindData: 'Подаци',
  kindComment: 'Коментар',
  kindUpload: 'Документа',
  madeAt: 'Направљено',
  waiting: 'Чека на слање',
  beingSent: 'Шаље се…',
  refusedWhy: (message: string) => `Није примењено: ${message}`,
  copyText: 'Копирај текст',
  copied: 'Текст је копиран.',
  copyFailed: 'Текст није копиран: означите га и копирајте.',
  downloadFile: 'Преузми фајл',
  dismiss: 'Уклони са списка',
  dismissConfirm: 'Уклонити измену са уређаја?',
  dismissNote: 'Измена ће бити обрисана са овог уређаја и неће бити послата.',
});
