import type { ActivityRowDto } from '../../api/notifications';
import { deadlineRowColor } from '../../components/ColourLegend';
import type { ColumnDef } from '../../components/tableTypes';
import { inScript } from '../../script';
import { catalogueText } from '../../shipped';
import { UI } from '../../texts';
import { ACTIVITY_UI, dateLabel, responsibleLabel, rokLabel } from '../catalogue/labels';

/** The columns of the notifications and of the activities in progress (spec 3 §2.2, §2.4). */
export const ACTIVITY_ROW_COLUMNS: ColumnDef<ActivityRowDto>[] = [
  { accessorKey: 'kratakNaziv', header: ACTIVITY_UI.kratakNaziv },
  // On a phone the activity and its cluster (two 'A3' rows of different clusters otherwise look alike);
  // the deadline and the days left show under the activity, in words as well as in the row's colour.
  { id: 'naziv', header: ACTIVITY_UI.naziv, accessorFn: (a) => catalogueText(a.naziv), phone: true },
  { id: 'lokacija', header: ACTIVITY_UI.cluster, accessorFn: (a) => a.lokacija.naziv, phone: true },
  { id: 'odgovoran', header: ACTIVITY_UI.responsible, accessorFn: (a) => responsibleLabel(a.odgovoran) || UI.empty },
  { id: 'datumPocetka', header: ACTIVITY_UI.start, accessorFn: (a) => dateLabel(a.datumPocetka) },
  {
    id: 'rokZavrsetka',
    header: ACTIVITY_UI.deadline,
    accessorFn: (a) => (a.rokZavrsetka ? dateLabel(a.rokZavrsetka) : inScript(rokLabel(a.rok))),
    phoneDetail: true,
  },
  {
    id: 'brojDanaDoRoka',
    header: ACTIVITY_UI.daysLeft,
    accessorFn: (a) => (a.brojDanaDoRoka === null ? UI.empty : String(a.brojDanaDoRoka)),
    numeric: true,
    phoneDetail: true,
  },
];

/** The contract column, for the Admin's list (the notifications name the cluster only). */
export const CONTRACT_COLUMN: ColumnDef<ActivityRowDto> = {
  id: 'ugovor',
  header: ACTIVITY_UI.contract,
  accessorFn: (a) => a.ugovor?.naziv ?? UI.empty,
};

export function activityRowColor(row: ActivityRowDto): string | undefined {
  return deadlineRowColor(row.boja);
}

/** The notifications page opens an activity with this state (spec 3 §2.2): its back goes to the notices. */
export const FROM_NOTICES = { from: 'NOTIFIKACIJE' } as const;

export const NOTICES_KEY = ['notifications'] as const;
export const IN_PROGRESS_KEY = ['activities-in-progress'] as const;
