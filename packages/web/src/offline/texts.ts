/**
 * Labels of the work kept on the device without signal (the queue). The issue words the top bar's
 * 'На чекању'; the rest are the product's (docs/decisions.md "Offline"). Shown in the user's script.
 */
import { formatQuantity } from '@trasa/domain';
import { scripted } from '../scripted';

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
  signOutNote: (n: number) => `На овом уређају чека ${n} непослатих измена. Одјава их брише са уређаја.`,
  signOut: 'Одјави се и обриши',

  takePhoto: 'Фотографиши',
  photoFailed: 'Фотографија није обрађена.',
});
