/** What the web says about working without a network, in the user's script (scripted). */
import { formatQuantity } from '@trasa/domain';
import { scripted } from '../scripted';

export const OFFLINE = scripted({
  /** A screen shown from the device's copy: the time is when the network last answered it. */
  since: (time: string) => `Ван мреже — подаци од ${time}`,
  /** Without a network, and no copy on the device. */
  notKept: 'Није доступно ван мреже',
  notKeptActivity: 'Ова активност није отварана на овом уређају у последњих 7 дана, па није сачувана за рад без мреже.',
  notKeptList: 'Ова листа није сачувана на овом уређају. Отворите је поново када мрежа буде доступна.',
  notKeptProfile: 'Ваш налог није сачуван на овом уређају. Отворите апликацију поново када мрежа буде доступна.',
  /** A document's content is never kept (only the list of documents): its download needs the network. */
  documentOffline: 'Документ није доступан ван мреже.',
  /** A new version of the application is installed and waits for the user. */
  updateReady: 'Нова верзија је спремна',
  updateReload: 'Освежи',
});

/** 'DD.MM.YYYY HH:mm' of a moment, as the app writes dates (docs/decisions.md "Dates and units"). */
export function keptTime(ms: number): string {
  const d = new Date(ms);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${two(d.getDate())}.${two(d.getMonth() + 1)}.${d.getFullYear()} ${two(d.getHours())}:${two(d.getMinutes())}`;
}

/**
 * Labels of the work kept on the device without signal (the queue). The issue words the top bar's
 * 'На чекању'; the rest are the product's (docs/decisions.md "Offline"). Shown in the user's script.
 */

/** Bytes as the lists show them: '0,3 MB', '200 MB'. */
export const mb = (bytes: number) => formatQuantity(Math.max(0.1, bytes / 1024 / 1024), 'MB', 1);

export const QUEUE_TEXTS = scripted({
  /** The top bar: 'На чекању: 3'. */
  pendingCount: (n: number) => `На чекању: ${n}`,
  refusedCount: (n: number) => `Није примењено: ${n}`,
  forActivity: 'Измене ове активности на чекању',

  /** The autosave's note beside a field kept on the device. */
  savedOnDevice: 'Сачувано на уређају, на чекању',
  commentQueued: 'Коментар је сачуван на уређају и биће послат када мрежа буде доступна.',
  filesQueued: 'Документа су сачувана на уређају и биће послата када мрежа буде доступна.',
  refusedNotice: (message: string) => `Измена на чекању није примењена: ${message}`,
  /** A change that does not fit in what the device may keep. */
  full: (max: number) => `Нема места на уређају (највише ${mb(max)} за измене на чекању): измена није сачувана.`,
  fileFull: (name: string, max: number) =>
    `Фајл „${name}” не може да се сачува на уређају (највише ${mb(max)} за измене на чекању). Пошаљите га када мрежа буде доступна.`,

  signOutTitle: 'Одјавити се?',
  signOutNote: (n: number) => {
    // Serbian number agreement: 1, 21 … one; 2–4, 22–24 … a few (not 12–14); else many.
    const one = n % 10 === 1 && n % 100 !== 11;
    const few = n % 10 >= 2 && n % 10 <= 4 && (n % 100 < 12 || n % 100 > 14);
    const waiting = one ? `чека ${n} непослата измена` : few ? `чекају ${n} непослате измене` : `чека ${n} непослатих измена`;
    return `На овом уређају ${waiting}. Одјава ${one ? 'је брише' : 'их брише'} са уређаја.`;
  },
  signOut: 'Одјави се и обриши',

  takePhoto: 'Фотографиши',
  photoFailed: 'Фотографија није обрађена.',
});
