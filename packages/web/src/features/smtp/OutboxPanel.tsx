import SendIcon from '@mui/icons-material/Send';
import { Alert, Box, Button, MenuItem, Paper, Stack, TextField, Typography } from '@mui/material';
import { skipToken, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { formatLogTime, LIST_SORTS, MAIL_STATUSES, type MailStatusKey, type OutboxMailDto } from '@trasa/domain';
import { useState } from 'react';
import { messageOf } from '../../api/errors';
import { DataTable, type TableQuery } from '../../components/DataTable';
import { FormDialog } from '../../components/FormDialog';
import { useSnackbar } from '../../components/SnackbarProvider';
import type { ColumnDef } from '../../components/tableTypes';
import { SMTP } from '../../messages';
import { listOutbox, OUTBOX_KEY, releaseHeld } from './api';
import { SMTP_LABELS } from './labels';

const COLUMNS: ColumnDef<OutboxMailDto>[] = [
  { accessorKey: 'to', header: SMTP_LABELS.to },
  { accessorKey: 'subject', header: SMTP_LABELS.subject },
  { id: 'status', header: SMTP_LABELS.status, accessorFn: (m) => SMTP.statusLabels[m.status] ?? m.status },
  { accessorKey: 'attempts', header: SMTP_LABELS.attempts },
  { id: 'createdAt', header: SMTP_LABELS.time, accessorFn: (m) => formatLogTime(m.createdAt) },
  { id: 'error', header: SMTP_LABELS.error, accessorFn: (m) => m.error ?? '' },
];

/**
 * How many mails are held, as the list's last page answered it (OutboxPage.held, whatever the filter):
 * the note and the release button read it, and the panel asks the server once.
 */
const HELD_KEY = [...OUTBOX_KEY, 'held'] as const;

/**
 * The outbox (server-behaviour.md "Mail"; docs/decisions.md "Outbox"): the newest mail first with its
 * outcome, filtered by status; a row shows the mail's text (with no server in use the Admin reads
 * activation and reset links here). Mail an import sent past its daily cap is 'held' until released.
 */
export function OutboxPanel() {
  const snackbar = useSnackbar();
  const queryClient = useQueryClient();
  const [status, setStatus] = useState<MailStatusKey | ''>('');
  const [reading, setReading] = useState<OutboxMailDto | null>(null);
  // Filled by the table's call (fetchPage): this query never asks itself.
  const held = useQuery<number>({ queryKey: HELD_KEY, queryFn: skipToken });
  const heldCount = held.data ?? 0;
  const release = useMutation({
    mutationFn: releaseHeld,
    onSuccess: async (data) => {
      snackbar.success(data.message);
      await queryClient.invalidateQueries({ queryKey: OUTBOX_KEY });
    },
    onError: (error) => snackbar.error(messageOf(error, SMTP_LABELS.releaseFailed)),
  });

  const fetchPage = async ({ page, limit, signal, sort, order }: TableQuery) => {
    const data = await listOutbox({ page, limit, status, sort, order }, signal);
    queryClient.setQueryData(HELD_KEY, data.held);
    return { rows: data.outbox, total: data.totalResults };
  };

  return (
    <Paper sx={{ p: 2 }}>
      <Stack spacing={2}>
        <Typography variant="h3" component="h2">
          {SMTP_LABELS.outboxTitle}
        </Typography>
        {heldCount > 0 && <Alert severity="info">{SMTP_LABELS.heldNote(heldCount)}</Alert>}
        <DataTable
          tableName="smtpOutbox"
          label={SMTP_LABELS.outboxTable}
          columns={COLUMNS}
          queryKey={[...OUTBOX_KEY, 'list', status]}
          fetchPage={fetchPage}
          sortable={LIST_SORTS.outbox}
          hiddenColumns={['error']}
          onRowClick={setReading}
          toolbar={
            <Stack direction="row" spacing={1} flexWrap="wrap" useFlexGap>
              <TextField
                select
                size="small"
                label={SMTP_LABELS.statusFilter}
                value={status}
                onChange={(e) => setStatus(e.target.value as MailStatusKey | '')}
                slotProps={{ inputLabel: { shrink: true }, select: { displayEmpty: true } }}
                sx={{ minWidth: 180 }}
              >
                <MenuItem value="">{SMTP_LABELS.allStatuses}</MenuItem>
                {MAIL_STATUSES.map((s) => (
                  <MenuItem key={s} value={s}>
                    {SMTP.statusLabels[s]}
                  </MenuItem>
                ))}
              </TextField>
              <Button
                variant="outlined"
                startIcon={<SendIcon />}
                disabled={heldCount === 0 || release.isPending}
                onClick={() => release.mutate()}
              >
                {SMTP_LABELS.release(heldCount)}
              </Button>
            </Stack>
          }
        />
      </Stack>
      <FormDialog
        open={!!reading}
        title={reading?.subject ?? ''}
        onClose={() => setReading(null)}
        onSubmit={(e) => e.preventDefault()}
        readOnly
      >
        {reading && (
          <>
            <Typography variant="body2">
              {SMTP_LABELS.to}: {reading.to} · {SMTP.statusLabels[reading.status] ?? reading.status} · {formatLogTime(reading.createdAt)}
            </Typography>
            {reading.error && <Alert severity="error">{reading.error}</Alert>}
            <Box component="pre" sx={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word', fontFamily: 'inherit', m: 0 }}>
              {reading.text}
            </Box>
          </>
        )}
      </FormDialog>
    </Paper>
  );
}
