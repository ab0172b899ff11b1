import AddIcon from '@mui/icons-material/Add';
import { Alert, Button, Stack, Typography } from '@mui/material';
import { type QueryClient, skipToken, useQuery, useQueryClient } from '@tanstack/react-query';
import { appPath } from '@trasa/domain';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { DataTable, type TableQuery } from '../../components/DataTable';
import type { ColumnDef } from '../../components/tableTypes';
import { SMTP } from '../../messages';
import { SCREEN_TITLES } from '../../shell/screenTitles';
import { listSmtps, SMTP_KEY, type SmtpDto } from './api';
import { SMTP_LABELS } from './labels';
import { OutboxPanel } from './OutboxPanel';
import { SmtpDialog } from './SmtpDialog';

const COLUMNS: ColumnDef<SmtpDto>[] = [
  { accessorKey: 'host', header: SMTP_LABELS.host },
  { accessorKey: 'port', header: SMTP_LABELS.port },
  { accessorKey: 'email', header: SMTP_LABELS.email },
  { id: 'inUse', header: SMTP_LABELS.inUse, accessorFn: (s) => (s.inUse ? SMTP_LABELS.yes : SMTP_LABELS.no) },
];

/** The whole list as the table's last call answered it (the warning reads it; nothing else asks for it). */
const ALL_KEY = [...SMTP_KEY, 'all'] as const;

/**
 * The table's page, cut from the whole list (GET /api/smtp has no pages), which is kept for the warning
 * too: one request per visit and per change, not one for the table and one for the warning.
 */
function fetchSmtps(queryClient: QueryClient) {
  return async ({ page, limit, signal }: TableQuery) => {
    const smtps = await listSmtps(signal);
    queryClient.setQueryData(ALL_KEY, smtps);
    return { rows: smtps.slice((page - 1) * limit, page * limit), total: smtps.length };
  };
}

/**
 * /app/emailconfig (spec 3 §2.8): the servers with an add button and a warning while none is in use;
 * a row opens its detail. Below, the outbox: every mail with its outcome, and the release of held mail.
 */
export function SmtpListPage() {
  const navigate = useNavigate();
  const [adding, setAdding] = useState(false);
  const queryClient = useQueryClient();
  const [fetchPage] = useState(() => fetchSmtps(queryClient));
  // Filled by the table's call (fetchSmtps): this query never asks itself.
  const all = useQuery<SmtpDto[]>({ queryKey: ALL_KEY, queryFn: skipToken });
  const noneInUse = all.isSuccess && !all.data.some((s) => s.inUse);

  return (
    <Stack spacing={2}>
      <Typography variant="h1">{SCREEN_TITLES.smtpList}</Typography>
      {noneInUse && (
        <Alert severity="warning" data-testid="smtp-none-in-use">
          {SMTP.noneInUse}
        </Alert>
      )}
      <DataTable
        tableName="smtp"
        label={SMTP_LABELS.table}
        columns={COLUMNS}
        queryKey={[...SMTP_KEY, 'list']}
        fetchPage={fetchPage}
        onRowClick={(s) => navigate(appPath('smtpDetail', { id: s._id }))}
        toolbar={
          <Button variant="contained" startIcon={<AddIcon />} onClick={() => setAdding(true)}>
            {SMTP_LABELS.add}
          </Button>
        }
      />
      <OutboxPanel />
      <SmtpDialog open={adding} onClose={() => setAdding(false)} />
    </Stack>
  );
}
