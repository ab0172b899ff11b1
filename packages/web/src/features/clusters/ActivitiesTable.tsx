import { appPath, formatDate } from '@trasa/domain';
import type { MRT_ColumnDef } from 'material-react-table';
import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import type { ActivityBrief, LocationDto } from '../../api/clusters';
import { DataTable } from '../../components/DataTable';
import { UI } from '../../texts';
import { statusLabel } from './format';
import { CLUSTERS_KEY } from './queries';

/** The cluster activities table shows 50 rows without paging (spec 2 §9). */
const ACTIVITY_ROWS = 50;

const COLUMNS: MRT_ColumnDef<ActivityBrief>[] = [
  { id: 'naziv', header: UI.activityName, size: 240, accessorFn: (a) => a.naziv ?? UI.empty },
  { id: 'status', header: UI.status, size: 110, accessorFn: (a) => statusLabel(a.status) },
  { id: 'rok', header: UI.deadline, size: 110, accessorFn: (a) => formatDate(a.rok) || UI.empty },
  { id: 'odgovoran', header: UI.responsibleGroup, size: 180, accessorFn: (a) => a.odgovoran?.naziv ?? UI.empty },
  { id: 'poslednjiKomentar', header: UI.lastComment, size: 240, accessorFn: (a) => a.poslednjiKomentar ?? UI.empty },
];

/** The activities of a cluster (they come with the next issue; until then 'Нема пронађених података.'). */
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
      onRowClick={(activity) => navigate(appPath('activity', { id: activity._id }))}
    />
  );
}
