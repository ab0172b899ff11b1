import {
  AUTOMATIC_CODES,
  DEFAULT_GROUP_TYPES,
  FINISH_HIDDEN_CODES,
  FINISHED,
  formatDate,
  IN_PROGRESS,
  isoDate,
  KLIZNO,
  NOT_STARTED,
  type RuleInput,
  ruleInputOf,
} from '@trasa/domain';
import type { ActivityDto, ActivityFileDto } from '../../api/activities';
import { inScript } from '../../script';
import { UI } from '../../texts';
import { ACTIVITY_LABELS } from './labels';

/** Responsible-party codes as the spec names them (group-type names; AUTOMATSKI is the system). */
const PARTY_LABELS: Record<string, string> = {
  ...Object.fromEntries(DEFAULT_GROUP_TYPES.map((t) => [t.code, t.naziv])),
  AUTOMATSKI: 'Automatski',
};

export function partyLabel(code: string): string {
  return inScript(PARTY_LABELS[code] ?? code);
}

export function partiesLabel(codes: readonly string[]): string {
  return codes.length > 0 ? codes.map(partyLabel).join(', ') : UI.empty;
}

const STATUS_LABELS: Record<string, string> = {
  [NOT_STARTED]: 'Није започета',
  [IN_PROGRESS]: 'У току',
  [FINISHED]: 'Завршена',
};

export function activityStatusLabel(status: string): string {
  return inScript(STATUS_LABELS[status] ?? status);
}

/** The deadline: the date, 'клизно' for a floating one, '—' while not started. */
export function deadlineLabel(activity: Pick<ActivityDto, 'rok' | 'rokZavrsetka'>): string {
  if (activity.rok === KLIZNO) return ACTIVITY_LABELS.floating;
  return formatDate(activity.rokZavrsetka) || UI.empty;
}

export function liveFiles(files: readonly ActivityFileDto[]): ActivityFileDto[] {
  return files.filter((f) => !f.deleted);
}

/** The input of the shared completion rules (finishProblems, decisionProblems), as the server builds it. */
export function ruleInput(activity: ActivityDto): RuleInput {
  return ruleInputOf(activity);
}

/** The current revision: its files count for the rules and may be deleted; older ones are listed apart. */
export function currentRevision(activity: Pick<ActivityDto, 'revizija' | 'returned'>): number {
  return activity.revizija ?? activity.returned;
}

export function isCurrentFile(activity: ActivityDto, file: ActivityFileDto): boolean {
  return file.revizija === currentRevision(activity);
}

/** Files of the current revision in a slot (A1 settlement, A7 holder, A20 test type). */
export function slotFiles(activity: ActivityDto, slot: string): ActivityFileDto[] {
  return liveFiles(activity.fajlovi).filter((f) => f.slot === slot && isCurrentFile(activity, f));
}

export function isAutomatic(activity: Pick<ActivityDto, 'kratakNaziv' | 'odgovoran'>): boolean {
  return activity.odgovoran.includes('AUTOMATSKI') || (AUTOMATIC_CODES as readonly string[]).includes(activity.kratakNaziv);
}

/** The finish button is hidden for the control codes and the automatic ones (spec 3 §4). */
export function hasFinishButton(activity: Pick<ActivityDto, 'kratakNaziv' | 'odgovoran'>): boolean {
  return !(FINISH_HIDDEN_CODES as readonly string[]).includes(activity.kratakNaziv) && !isAutomatic(activity);
}

/** The edit section: only with the right to change and while the activity is in progress (spec 3 §2.1). */
export function canEdit(activity: ActivityDto): boolean {
  return activity.dozvole.menjanje && activity.status === IN_PROGRESS;
}

/** A file may be deleted while the activity is open, by who may change it, only in the current revision. */
export function canDeleteFile(activity: ActivityDto, file: ActivityFileDto): boolean {
  return activity.status !== FINISHED && activity.dozvole.menjanje && isCurrentFile(activity, file);
}

/** Today as YYYY-MM-DD in local time (the max of the date pickers: no future dates). */
export function today(): string {
  return isoDate(new Date());
}
