/** What the web says about working without a network, in the user's script (scripted). */
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
