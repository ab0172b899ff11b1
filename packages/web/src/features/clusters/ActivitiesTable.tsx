import { appPath } from '@trasa/domain';
import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import type { ActivityBrief, LocationDto } from '../../api/clusters';
import { deadlineRowColor, statusWithDeadline } from '../../components/ColourLegend';
import { DataTable } from '../../components/DataTable';
import type { ColumnDef } from '../../components/tableTypes';
import { catalogueText } from '../../shipped';
import { UI } from '../../texts';
import { ACTIVITY_STATUS_LABELS, ACTIVITY_UI, dateLabel, responsibleLabel } from '../catalogue/labels';
import { CLUSTERS_KEY } from './queries';

/** The cluster activities table shows 50 rows without paging (spec 2 §9); the catalogue has fewer. */
const ACTIVITY_ROWS = 50;

const COLUMNS: ColumnDef<ActivityBrief>[] = [
  { accessorKey: 'kratakNaziv', header: ACTIVITY_UI.kratakNaziv },
  { id: 'naziv', header: UI.activityName, accessorFn: (a) => catalogueText(a.naziv) },
  // The status says what the row's colour adds ('У току, рок је истекао'; WCAG 1.4.1), on a phone under the name.
  {
    id: 'status',
    header: UI.status,
    accessorFn: (a) =>
      statusWithDeadline(
        `${ACTIVITY_STATUS_LABELS[a.status] ?? a.status}${a.returned > 0 ? ` (${ACTIVITY_UI.revision(a.returned)})` : ''}`,
        a.boja,
      ),
    phoneDetail: true,
  },
  { id: 'odgovoran', header: ACTIVITY_UI.responsible, accessorFn: (a) => responsibleLabel(a.odgovoran) || UI.empty },
  { id: 'datumPocetka', header: ACTIVITY_UI.start, accessorFn: (a) => dateLabel(a.datumPocetka) },
  { id: 'rokZavrsetka', header: ACTIVITY_UI.deadline, accessorFn: (a) => dateLabel(a.rokZavrsetka), phoneDetail: true },
  { id: 'datumZavrsetka', header: ACTIVITY_UI.end, accessorFn: (a) => dateLabel(a.datumZavrsetka) },
  { id: 'poslednjiKomentar', header: UI.lastComment, accessorFn: (a) => a.poslednjiKomentar ?? UI.empty },
];

/** The activities of a cluster in catalogue order, coloured by deadline; a row opens the activity. */
export function ActivitiesTable({ location }: { location: LocationDto }) {
  const navigate = useNavigate();
  const activities = location.aktivnosti ?? [];
  const fetchPage = useCallback(
    async () => ({ rows: activities.slice(0, ACTIVITY_ROWS), total: Math.min(activities.length, ACTIVITY_ROWS) }),
    [activities],
  );
  return (
    <DataTable
      tableName="aktivnosti-klastera"
      label={UI.activities}
      columns={COLUMNS}
      queryKey={[...CLUSTERS_KEY, 'activities', location._id]}
      fetchPage={fetchPage}
      pageSizes={[ACTIVITY_ROWS]}
      paging={false}
      rowColor={(a) => deadlineRowColor(a.boja)}
      onRowClick={(activity) => navigate(appPath('activity', { id: activity._id }))}
    />
  );
}
