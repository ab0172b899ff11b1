import { formatDate } from '@trasa/domain';
import type { TopicDto } from '../../api/topics';
import { UI } from '../../texts';

const pad = (n: number) => String(n).padStart(2, '0');

/** A topic deadline or comment time as DD.MM.YYYY HH:mm in local time (spec 2 §9); '—' without one. */
export function formatDateTime(value: string | null | undefined): string {
  if (!value) return UI.empty;
  const d = new Date(value);
  if (Number.isNaN(d.getTime())) return UI.empty;
  return `${formatDate(d)} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** An ISO date-time as the value of a date-time field (YYYY-MM-DDTHH:mm, local time); '' for none. */
export function toLocalInput(value: string | null | undefined): string {
  if (!value) return '';
  const d = new Date(value);
  if (Number.isNaN(d.getTime())) return '';
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** A date-time field's value (local time) as an ISO date-time for the API; null when empty or incomplete. */
export function fromLocalInput(value: string): string | null {
  if (!value.trim()) return null;
  const d = new Date(value);
  return Number.isNaN(d.getTime()) ? null : d.toISOString();
}

export type TopicLock = 'closed' | 'commented';

/** Why a topic can't be edited or deleted (spec 2 §4: closed, or has comments), or null when it can. */
export function topicLock(topic: Pick<TopicDto, 'status' | 'brojKomentara'>): TopicLock | null {
  if (topic.status === 'zatvoren') return 'closed';
  if (topic.brojKomentara > 0) return 'commented';
  return null;
}
