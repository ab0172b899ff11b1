import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import DeleteIcon from '@mui/icons-material/Delete';
import SendIcon from '@mui/icons-material/Send';
import { Alert, Box, Button, Paper, Stack, TextField, Typography } from '@mui/material';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { appPath, smtpEditFormSchema } from '@trasa/domain';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link as RouterLink, useNavigate, useParams } from 'react-router';
import type { z } from 'zod';
import { ApiError } from '../../api/client';
import { messageOf } from '../../api/errors';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { PageLoader } from '../../components/PageLoader';
import { useSnackbar } from '../../components/SnackbarProvider';
import { zodResolver } from '../../components/validation';
import { SMTP } from '../../messages';
import { SCREEN_TITLES } from '../../shell/screenTitles';
import { UI } from '../../texts';
import { deleteSmtp, editSmtp, getSmtp, SMTP_KEY, type SmtpDto, testSmtp } from './api';
import { SMTP_LABELS } from './labels';
import { SmtpFields } from './SmtpDialog';

type Form = z.input<typeof smtpEditFormSchema>;
type Values = z.output<typeof smtpEditFormSchema>;

const valuesOf = (s: SmtpDto): Form => ({ host: s.host, port: String(s.port), email: s.email, password: '', inUse: s.inUse });

/**
 * /app/emailconfig/{id} (spec 3 §2.8, §5 "SMTP edit"): the edit form (host, port and e-mail required,
 * an empty password keeps the stored one), a back link, delete with confirmation, and a test mail
 * through this server.
 */
export function SmtpDetailPage() {
  const { id = '' } = useParams();
  const query = useQuery({ queryKey: [...SMTP_KEY, 'single', id], queryFn: ({ signal }) => getSmtp(id, signal), retry: false });
  const back = (
    <Button component={RouterLink} to={appPath('smtpList')} startIcon={<ArrowBackIcon />}>
      {UI.back}
    </Button>
  );
  if (query.isPending) return <PageLoader />;
  if (query.isError) {
    return (
      <Stack spacing={2} alignItems="flex-start">
        {back}
        <Alert severity="error">{messageOf(query.error, SMTP_LABELS.loadFailed)}</Alert>
      </Stack>
    );
  }
  return <SmtpDetail smtp={query.data} back={back} />;
}

function SmtpDetail({ smtp, back }: { smtp: SmtpDto; back: React.ReactNode }) {
  const snackbar = useSnackbar();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const [testTo, setTestTo] = useState('');
  const { control, handleSubmit, setError, reset } = useForm<Form, unknown, Values>({
    resolver: zodResolver(smtpEditFormSchema),
    defaultValues: valuesOf(smtp),
  });
  useEffect(() => reset(valuesOf(smtp)), [smtp, reset]);

  const save = useMutation({
    // An empty password is left out: the stored one stays (spec 3 §5 "SMTP edit").
    mutationFn: ({ password, ...rest }: Values) => editSmtp(smtp._id, password ? { ...rest, password } : rest),
    onSuccess: async (data) => {
      snackbar.success(data.message);
      await queryClient.invalidateQueries({ queryKey: SMTP_KEY });
    },
    onError: (error) => {
      if (error instanceof ApiError) {
        for (const [field, message] of Object.entries(error.errors ?? {})) {
          if (['host', 'port', 'email', 'password'].includes(field)) setError(field as keyof Form, { message });
        }
      }
      snackbar.error(SMTP.editFailed);
    },
  });
  const remove = useMutation({
    mutationFn: () => deleteSmtp(smtp._id),
    onSuccess: async (data) => {
      setConfirming(false);
      snackbar.success(data.message);
      await queryClient.invalidateQueries({ queryKey: SMTP_KEY });
      navigate(appPath('smtpList'));
    },
    onError: (error) => {
      setConfirming(false);
      snackbar.error(messageOf(error, SMTP.deleteFailed), 4000);
    },
  });
  const test = useMutation({
    mutationFn: () => testSmtp(smtp._id, testTo.trim() || undefined),
    onSuccess: (data) => snackbar.success(data.message, 5000),
  });

  return (
    <Stack spacing={3} sx={{ maxWidth: 800 }}>
      <Stack direction="row" alignItems="center" spacing={2} flexWrap="wrap" useFlexGap>
        {back}
        <Typography variant="h1">{SCREEN_TITLES.smtpDetail}</Typography>
      </Stack>
      <Paper sx={{ p: 2 }}>
        <Box component="form" noValidate onSubmit={handleSubmit((v) => save.mutate(v))} aria-label={SMTP_LABELS.editTitle}>
          <Stack spacing={2}>
            <Typography variant="h3" component="h2">
              {smtp.host}:{smtp.port}
            </Typography>
            {save.isError && <Alert severity="error">{SMTP.editFailed}</Alert>}
            <SmtpFields control={control} passwordRequired={false} />
            <Stack direction="row" spacing={1} justifyContent="space-between" flexWrap="wrap" useFlexGap>
              <Button color="error" variant="outlined" startIcon={<DeleteIcon />} onClick={() => setConfirming(true)}>
                {SMTP_LABELS.delete}
              </Button>
              <Button type="submit" variant="contained" disabled={save.isPending}>
                {SMTP_LABELS.save}
              </Button>
            </Stack>
          </Stack>
        </Box>
      </Paper>
      <Paper sx={{ p: 2 }}>
        <Stack spacing={2}>
          <Typography variant="h3" component="h2">
            {SMTP_LABELS.testTitle}
          </Typography>
          <Typography variant="body2">{SMTP_LABELS.testNote}</Typography>
          {test.isError && <Alert severity="error">{messageOf(test.error, SMTP.testFailed)}</Alert>}
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1}>
            <TextField
              size="small"
              type="email"
              label={SMTP_LABELS.testTo}
              value={testTo}
              onChange={(e) => setTestTo(e.target.value)}
              sx={{ flex: 1 }}
            />
            <Button variant="outlined" startIcon={<SendIcon />} disabled={test.isPending} onClick={() => test.mutate()}>
              {SMTP_LABELS.testSend}
            </Button>
          </Stack>
        </Stack>
      </Paper>
      <ConfirmDialog
        open={confirming}
        title={SMTP.deleteTitle}
        text={`${SMTP.deleteText(smtp.host)}${smtp.inUse ? ` ${SMTP.deleteInUseNote}` : ''}`}
        busy={remove.isPending}
        onConfirm={() => remove.mutate()}
        onClose={() => setConfirming(false)}
      />
    </Stack>
  );
}
