import { Alert, Paper, Stack, Typography } from '@mui/material';
import { appPath, LIST_SORTS, roleIn } from '@trasa/domain';
import { useNavigate } from 'react-router';
import { listNotifications, searchNotifications } from '../../api/notifications';
import { ColourLegend } from '../../components/ColourLegend';
import { DataTable, type TableQuery } from '../../components/DataTable';
import { OfflineNote } from '../../components/OfflineNote';
import { ACCOUNT, ACTIVITIES } from '../../messages';
import { NOTICES_PATH } from '../../offline/kept';
import { SCREEN_TITLES } from '../../shell/screenTitles';
import { useCurrentUser } from '../../shell/session';
import { ACTIVITY_ROW_COLUMNS, activityRowColor, FROM_NOTICES, NOTICES_KEY } from './columns';

async function fetchNotices({ page, limit, search, signal, sort, order }: TableQuery) {
  const data = search
    ? await searchNotifications({ page, limit, sort, order, ...search }, signal)
    : await listNotifications({ page, limit, sort, order }, signal);
  return { rows: data.activities, total: data.totalResults };
}

/**
 * /app (spec 3 §2.2): the activities in progress the user's group answers for, nearest deadline first,
 * coloured by deadline; a row opens the activity. A guest waits for a role (spec 1 §2.3).
 */
export function NoticesPage() {
  const user = useCurrentUser();
  const navigate = useNavigate();
  if (roleIn(user.rola, ['Gost'])) {
    return (
      <Paper sx={{ p: 3 }}>
        <Typography variant="h1" gutterBottom>
          {SCREEN_TITLES.notices}
        </Typography>
        <Alert severity="info" role="status">
          {ACCOUNT.guestWaiting}
        </Alert>
      </Paper>
    );
  }
  return (
    <Stack spacing={2}>
      <Typography variant="h1">{SCREEN_TITLES.notices}</Typography>
      <OfflineNote path={NOTICES_PATH} />
      <DataTable
        tableName="obavestenja"
        label={SCREEN_TITLES.notices}
        columns={ACTIVITY_ROW_COLUMNS}
        queryKey={[...NOTICES_KEY, user._id]}
        fetchPage={fetchNotices}
        searchable
        sortable={LIST_SORTS.activities}
        emptyText={ACTIVITIES.noNotifications}
        rowColor={activityRowColor}
        onRowClick={(activity) => navigate(appPath('activity', { id: activity._id }), { state: FROM_NOTICES })}
      />
      <ColourLegend />
    </Stack>
  );
}
