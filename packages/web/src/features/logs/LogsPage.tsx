import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import DeleteIcon from '@mui/icons-material/Delete';
import { Button, Link, Stack, Typography } from '@mui/material';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { appPath, formatLogTime, type LogDto, nameSegment, roleIn } from '@trasa/domain';
import { useMemo, useState } from 'react';
import { Link as RouterLink, useParams } from 'react-router';
import { messageOf } from '../../api/errors';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { DataTable, type TableQuery } from '../../components/DataTable';
import { useSnackbar } from '../../components/SnackbarProvider';
import type { ColumnDef } from '../../components/tableTypes';
import { LOGS } from '../../messages';
import { SCREEN_TITLES } from '../../shell/screenTitles';
import { useCurrentUser } from '../../shell/session';
import { UI } from '../../texts';
import { deleteLogs, LOGS_KEY, listLogs, searchLogs } from './api';
import { LOG_LABELS } from './labels';
import { SelectionProvider, selectionColumn, useSelectionState } from './selection';

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
  { id: 'createdAt', header: LOG_LABELS.createdAt, accessorFn: (l) => formatLogTime(l.createdAt) },
  { accessorKey: 'user', header: LOG_LABELS.user },
  { accessorKey: 'message', header: LOG_LABELS.message },
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
  const snackbar = useSnackbar();
  const queryClient = useQueryClient();
  const selection = useSelectionState();
  const [confirming, setConfirming] = useState(false);

  const columns = useMemo(() => (isAdmin ? [selectionColumn<LogDto>(LOG_LABELS.choosePage), ...COLUMNS] : COLUMNS), [isAdmin]);
  const fetchPage = useMemo(
    () =>
      async ({ page, limit, search, signal }: TableQuery) => {
        const group = naziv || undefined;
        const data = search ? await searchLogs({ page, limit, group, ...search }, signal) : await listLogs({ page, limit, group }, signal);
        return { rows: data.logs, total: data.totalLogs };
      },
    [naziv],
  );

  const remove = useMutation({
    mutationFn: () => deleteLogs([...selection.chosen]),
    onSuccess: async (data) => {
      setConfirming(false);
      selection.clear();
      snackbar.success(data.message || LOGS.deleted, LOGS_NOTICE_MS);
      await queryClient.invalidateQueries({ queryKey: LOGS_KEY });
    },
    onError: (error) => {
      setConfirming(false);
      snackbar.error(messageOf(error, LOGS.deleteFailed), LOGS_NOTICE_MS);
    },
  });

  const chosen = selection.chosen.size;
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
          hiddenColumns={['url']}
          emptyText={LOGS.empty}
          toolbar={
            isAdmin && (
              <Button
                variant="contained"
                color="error"
                startIcon={<DeleteIcon />}
                disabled={chosen === 0}
                onClick={() => setConfirming(true)}
              >
                {LOG_LABELS.deleteChosen(chosen)}
              </Button>
            )
          }
        />
      </SelectionProvider>
      <ConfirmDialog
        open={confirming}
        title={LOGS.deleteTitle}
        text={LOGS.deleteText(chosen)}
        busy={remove.isPending}
        onConfirm={() => remove.mutate()}
        onClose={() => setConfirming(false)}
      />
    </Stack>
  );
}
