import { type ActivityStatus, formatDate, KLIZNO, type Rok } from '@trasa/domain';
import { scripted } from '../../scripted';

/**
 * Labels of the activity lists (catalogue, notifications, activities in progress, a cluster's
 * activities) that the spec does not word; the responsible parties by their group types' names.
 */
export const ACTIVITY_UI = scripted({
  kratakNaziv: 'Кратак назив',
  naziv: 'Назив',
  previous: 'Претходне активности',
  responsible: 'Одговорни',
  rokDays: 'Рок (дана)',
  documents: 'Документа',
  instructions: 'Упутство',
  editTitle: (code: string) => `Измена активности ${code}`,
  cluster: 'Кластер',
  contract: 'Уговор',
  status: 'Статус',
  start: 'Почетак',
  deadline: 'Рок',
  end: 'Завршетак',
  daysLeft: 'Дана до рока',
  lastComment: 'Последњи коментар',
  colour: 'Боја',
  filters: 'Филтери',
  catalogue: 'Каталог активности',
  all: 'Све',
  revision: (n: number) => `ревизија ${n}`,
} as const);

/** The responsible parties (activity-catalogue.md), named like their group types. */
export const RESPONSIBLE_LABELS: Record<string, string> = scripted({
  NARUCILAC: 'Naručilac',
  IZVODJAC: 'Izvođač',
  NADZOR: 'Nadzor',
  PIU_TA: 'ПИУ ТА',
  AUTOMATSKI: 'Automatski',
});

export function responsibleLabel(codes: readonly string[]): string {
  return codes.map((c) => RESPONSIBLE_LABELS[c] ?? c).join(', ');
}

export const ACTIVITY_STATUS_LABELS: Record<ActivityStatus, string> = scripted({
  'Nije započeta': 'Није започета',
  'U toku': 'У току',
  Završena: 'Завршена',
});

/** A deadline in days, or 'klizno'. */
export function rokLabel(rok: Rok | null): string {
  return rok === null || rok === KLIZNO ? KLIZNO : String(rok);
}

/** DD.MM.YYYY, or a dash. */
export function dateLabel(value: string | null | undefined): string {
  return formatDate(value) || '—';
}
