import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import { Button, Link, Stack, Typography } from '@mui/material';
import { appPath, formatLogTime, LIST_SORTS, type LogDto, nameSegment, roleIn } from '@trasa/domain';
import { useMemo } from 'react';
import { Link as RouterLink, useParams } from 'react-router';
import { DataTable, type TableQuery } from '../../components/DataTable';
import type { ColumnDef } from '../../components/tableTypes';
import { LOGS } from '../../messages';
import { SCREEN_TITLES } from '../../shell/screenTitles';
import { useCurrentUser } from '../../shell/session';
import { UI } from '../../texts';
import { deleteLogs, LOGS_KEY, listLogs, searchLogs } from './api';
import { LOG_LABELS } from './labels';
import { SelectionProvider, selectionColumn, useChosenDelete, useSelectionState } from './selection';

/** Notices on the logs screen stay 3.5 s (spec 3 §9). */
export const LOGS_NOTICE_MS = 3500;

function GroupCell({ group }: { group: string }) {
  if (!group) return UI.empty;
  return (
    <Link
      component={RouterLink}
      to={appPath('logsOfGroup', { naziv: nameSegment(group) })}
      aria-label={LOG_LABELS.groupLink(group)}
      onClick={(e) => e.stopPropagation()}
    >
      {group}
    </Link>
  );
}

const logRowLabel = (l: LogDto) => `${LOG_LABELS.chooseRow}: ${l.message}`;

const COLUMNS: ColumnDef<LogDto>[] = [
  { id: 'createdAt', header: LOG_LABELS.createdAt, accessorFn: (l) => formatLogTime(l.createdAt), phone: true },
  { accessorKey: 'user', header: LOG_LABELS.user },
  // On a phone the time and the action (which names the object); the user is a column away.
  { accessorKey: 'message', header: LOG_LABELS.message, phone: true },
  {
    id: 'group',
    header: LOG_LABELS.group,
    accessorFn: (l) => l.group,
    Cell: ({ row }) => <GroupCell group={row.group} />,
  },
  { accessorKey: 'ip', header: LOG_LABELS.ip },
  { accessorKey: 'url', header: LOG_LABELS.url },
];

/**
 * /app/logovi and /app/logovi/{naziv} (spec 3 §2.5): the audit trail of the caller's scope (Admin all,
 * a manager their subtree, an employee their group), newest first, paged, searchable (1 s debounce);
 * {naziv} narrows it to one group (the group column links there). The Admin chooses rows and deletes them.
 */
export function LogsPage() {
  const { naziv } = useParams();
  const me = useCurrentUser();
  const isAdmin = roleIn(me.rola, ['Admin']);
  const selection = useSelectionState();

  const columns = useMemo(() => (isAdmin ? [selectionColumn<LogDto>(LOG_LABELS.choosePage), ...COLUMNS] : COLUMNS), [isAdmin]);
  const fetchPage = useMemo(
    () =>
      async ({ page, limit, search, signal, sort, order }: TableQuery) => {
        const group = naziv || undefined;
        const data = search
          ? await searchLogs({ page, limit, group, sort, order, ...search }, signal)
          : await listLogs({ page, limit, group, sort, order }, signal);
        return { rows: data.logs, total: data.totalLogs };
      },
    [naziv],
  );

  const remove = useChosenDelete({
    selection,
    remove: deleteLogs,
    queryKey: LOGS_KEY,
    texts: { deleted: LOGS.deleted, failed: LOGS.deleteFailed, title: LOGS.deleteTitle, text: LOGS.deleteText },
    noticeMs: LOGS_NOTICE_MS,
  });

  return (
    <Stack spacing={2}>
      <Stack direction="row" alignItems="center" spacing={2} flexWrap="wrap" useFlexGap>
        {naziv && (
          <Button component={RouterLink} to={appPath('logs')} startIcon={<ArrowBackIcon />}>
            {LOG_LABELS.allLogs}
          </Button>
        )}
        <Typography variant="h1">{naziv ? LOG_LABELS.groupTitle(naziv) : SCREEN_TITLES.logs}</Typography>
      </Stack>
      <SelectionProvider value={selection} pageLabel={LOG_LABELS.choosePage} rowLabel={logRowLabel}>
        <DataTable
          key={naziv ?? ''}
          tableName="logovi"
          exportAs={{ list: 'logs', params: { group: naziv } }}
          label={LOG_LABELS.table}
          columns={columns}
          queryKey={[...LOGS_KEY, naziv ?? '']}
          fetchPage={fetchPage}
          searchable
          sortable={LIST_SORTS.logs}
          hiddenColumns={['url']}
          emptyText={LOGS.empty}
          toolbar={isAdmin && remove.button}
        />
      </SelectionProvider>
      {remove.dialog}
    </Stack>
  );
}
