import { formatDate, LIST_SORTS } from '@trasa/domain';
import { INVENTORY_KEY, listSchoolNotifications, type SchoolNotificationDto } from '../../api/inventory';
import { DataTable, type TableQuery } from '../../components/DataTable';
import type { ColumnDef } from '../../components/tableTypes';
import { UI } from '../../texts';
import { INV_LABELS } from './labels';
import { INVENTORY_SEARCH_DEBOUNCE_MS } from './texts';

/** Green like the other confirmed rows (theme success #006442, lightened). */
export const CONFIRMED_ROW = 'rgba(0, 100, 66, 0.14)';

const COLUMNS: ColumnDef<SchoolNotificationDto>[] = [
  { id: 'lokacija', header: INV_LABELS.location, accessorFn: (n) => n.lokacija.naziv },
  { accessorKey: 'email', header: INV_LABELS.schoolEmail },
  { id: 'mailPoslat', header: INV_LABELS.mailPoslat, accessorFn: (n) => (n.mailPoslat ? UI.yes : UI.no) },
  { id: 'datumSlanja', header: INV_LABELS.datumSlanja, accessorFn: (n) => formatDate(n.datumSlanja) || UI.empty },
  { id: 'potvrdaSkole', header: INV_LABELS.potvrdaSkole, accessorFn: (n) => (n.potvrdaSkole ? UI.yes : UI.no) },
  { id: 'mailPotvrdjen', header: INV_LABELS.datumPotvrde, accessorFn: (n) => formatDate(n.mailPotvrdjen) || UI.empty },
  { id: 'istice', header: INV_LABELS.istice, accessorFn: (n) => formatDate(n.istice) || UI.empty },
];

async function fetchNotifications({ page, limit, search, signal, sort, order }: TableQuery) {
  const data = await listSchoolNotifications({ page, limit, sort, order, ...(search ?? {}) }, signal);
  return { rows: data.notifications, total: data.totalResults };
}

/** Tab 4 of /app/inventar: the schools a stocktaking list was mailed to, with their confirmation and its date. */
export function SchoolNotificationsTab() {
  return (
    <DataTable
      tableName="inventar-obavestene-skole"
      label={INV_LABELS.schoolsTable}
      columns={COLUMNS}
      queryKey={[...INVENTORY_KEY, 'school-notifications']}
      fetchPage={fetchNotifications}
      searchable
      sortable={LIST_SORTS.schoolNotifications}
      searchDebounceMs={INVENTORY_SEARCH_DEBOUNCE_MS}
      exportAs={{ list: 'school-notifications' }}
      hiddenColumns={['istice']}
      rowColor={(n) => (n.potvrdaSkole ? CONFIRMED_ROW : undefined)}
    />
  );
}
