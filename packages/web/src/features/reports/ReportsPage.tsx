import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import { Box, Button, Checkbox, FormControlLabel, Paper, Stack, Tab, Tabs, TextField, Typography } from '@mui/material';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { appPath, BACKFILL_DEFAULT_DAYS, backfillDays, canOpen, formatDate, type RouteLengthCode, roleIn } from '@trasa/domain';
import { lazy, type ReactNode, Suspense, useState } from 'react';
import { Link as RouterLink, useParams, useSearchParams } from 'react-router';
import { messageOf } from '../../api/errors';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { NotFoundPage } from '../../components/NotFoundPage';
import { useSnackbar } from '../../components/SnackbarProvider';
import { REPORTS } from '../../messages';
import { useCurrentUser } from '../../shell/session';
import { backfillSnapshots, clearSnapshots, listSnapshots, REPORTS_KEY } from './api';
import { CompareView } from './CompareView';
import { REPORT_LABELS as L } from './labels';
import { CHARTS_PENDING, ProgressSkeleton } from './ProgressSkeleton';
import { ActivityReportView, FinishedReportView, IjoReportView, RouteLengthView, SummaryReportView } from './views';

export { CompareView } from './CompareView';

/** The hub's charts: their module (and @mui/x-charts) is a chunk of its own, loaded when the hub shows them. */
const ProgressCharts = lazy(() => import('./ProgressCharts'));

/** The reports by name (/app/izvestaji/:naziv and the hub's tabs). */
type ReportDef = { naziv: string; title: string; render: () => ReactNode };
export const REPORT_DEFS: ReportDef[] = [
  { naziv: 'zavrsene-aktivnosti', title: L.finished, render: () => <FinishedReportView /> },
  { naziv: 'sumarni', title: L.summary, render: () => <SummaryReportView /> },
  { naziv: 'dokumenta', title: L.files, render: () => <ActivityReportView /> },
  { naziv: 'ijo-takse', title: L.ijo, render: () => <IjoReportView /> },
  ...(['A1', 'A9', 'A12'] as RouteLengthCode[]).map((code) => ({
    naziv: `duzine-${code.toLowerCase()}`,
    title: L.lengths(code),
    render: () => <RouteLengthView code={code} />,
  })),
  { naziv: 'uporedjivanje', title: L.compare, render: () => <CompareView /> },
];

/**
 * The test panel (Admin or a sees-all group): backfill N days (1–60, default 10) with randomize, and clear
 * (after a confirmation: it deletes every snapshot).
 */
function TestPanel() {
  const snackbar = useSnackbar();
  const queryClient = useQueryClient();
  const [days, setDays] = useState(String(BACKFILL_DEFAULT_DAYS));
  const [randomize, setRandomize] = useState(false);
  const [status, setStatus] = useState('');
  const [confirmClear, setConfirmClear] = useState(false);
  const refresh = () => queryClient.invalidateQueries({ queryKey: [...REPORTS_KEY, 'snapshots'] });
  const backfill = useMutation({
    mutationFn: () => backfillSnapshots(backfillDays(days), randomize),
    onSuccess: async (data) => {
      setDays(String(data.results.length));
      setStatus(
        `${L.backfillDone(data.results.length)} ${data.results.map((r) => `${formatDate(r.date)}: ${L.snapshotStatus[r.status] ?? r.status}`).join(', ')}`,
      );
      await refresh();
    },
    onError: (err) => {
      setStatus(REPORTS.backfillFailed);
      snackbar.error(messageOf(err, REPORTS.backfillFailed));
    },
  });
  const clear = useMutation({
    mutationFn: clearSnapshots,
    onSettled: () => setConfirmClear(false),
    onSuccess: async (data) => {
      setStatus(L.clearDone(data.deleted));
      await refresh();
    },
    onError: (err) => {
      setStatus(REPORTS.clearFailed);
      snackbar.error(messageOf(err, REPORTS.clearFailed));
    },
  });
  return (
    <Paper variant="outlined" sx={{ p: 2 }}>
      <Typography variant="h2" sx={{ fontSize: 18, mb: 1 }}>
        {L.testPanel}
      </Typography>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} alignItems={{ sm: 'center' }}>
        <TextField
          size="small"
          label={L.days}
          value={days}
          onChange={(e) => setDays(e.target.value)}
          onBlur={() => setDays(String(backfillDays(days)))}
          inputProps={{ inputMode: 'numeric' }}
          sx={{ width: 140 }}
        />
        <FormControlLabel control={<Checkbox checked={randomize} onChange={(e) => setRandomize(e.target.checked)} />} label={L.randomize} />
        <Button variant="contained" onClick={() => backfill.mutate()} disabled={backfill.isPending || clear.isPending}>
          {L.backfill}
        </Button>
        <Button variant="outlined" color="error" onClick={() => setConfirmClear(true)} disabled={backfill.isPending || clear.isPending}>
          {L.clear}
        </Button>
      </Stack>
      <ConfirmDialog
        open={confirmClear}
        title={L.clearConfirm}
        text={L.clearConfirmText}
        busy={clear.isPending}
        onConfirm={() => clear.mutate()}
        onClose={() => setConfirmClear(false)}
      />
      <Typography role="status" variant="body2" sx={{ mt: 1, minHeight: 20 }}>
        {status}
      </Typography>
    </Paper>
  );
}

/**
 * /app/izvestaji (spec 3 §2.7): the report kinds as tabs (?izvestaj=<naziv>), the route-length reports
 * and the compare view, and for the Admin or a sees-all group the test panel. A Rukovodilac or Zaposleni
 * can open one report on its own at /app/izvestaji/:naziv.
 */
export function ReportsPage() {
  const [params, setParams] = useSearchParams();
  const current = REPORT_DEFS.find((r) => r.naziv === params.get('izvestaj')) ?? REPORT_DEFS[0];
  const snapshots = useQuery({ queryKey: [...REPORTS_KEY, 'snapshots'], queryFn: ({ signal }) => listSnapshots(signal) });
  const me = useCurrentUser();
  const ownPage = canOpen(me.rola, 'report');
  // The test panel is drawn at once for whom the server lets use it (the Admin, a sees-all group, a
  // Rukovodilac with one in the subtree: the profile's `vidiSve` says so), and the list of snapshots only
  // confirms it: the page does not move down when that answer comes (a Rukovodilac's hub on a phone moved
  // 310 px, CLS 0.30).
  const mayManage = snapshots.data?.mozeUpravljati ?? me.vidiSve ?? (roleIn(me.rola, ['Admin']) || me.grupa?.sveVideci === true);
  return (
    <Stack spacing={2} sx={{ [`& > .${CHARTS_PENDING} ~ *`]: { visibility: 'hidden' } }}>
      <Typography variant="h1">{L.hubTitle}</Typography>
      {mayManage && <TestPanel />}
      <Suspense fallback={<ProgressSkeleton />}>
        <ProgressCharts />
      </Suspense>
      <Tabs
        value={current?.naziv}
        onChange={(_, v: string) => setParams({ izvestaj: v })}
        variant="scrollable"
        scrollButtons="auto"
        aria-label={L.kinds}
      >
        {REPORT_DEFS.map((r) => (
          <Tab key={r.naziv} value={r.naziv} label={r.title} />
        ))}
      </Tabs>
      {current && ownPage && (
        <Box>
          <Button size="small" component={RouterLink} to={appPath('report', { naziv: current.naziv })}>
            {current.title} ↗
          </Button>
        </Box>
      )}
      {current?.render()}
    </Stack>
  );
}

/** /app/izvestaji/:naziv (Rukovodilac, Zaposleni): one report by name. */
export function ReportPage() {
  const { naziv } = useParams();
  const report = REPORT_DEFS.find((r) => r.naziv === naziv);
  if (!report) return <NotFoundPage />;
  return (
    <Stack spacing={2}>
      <Stack direction="row" spacing={2} alignItems="center" flexWrap="wrap" useFlexGap>
        <Button component={RouterLink} to={`${appPath('reports')}?izvestaj=${report.naziv}`} startIcon={<ArrowBackIcon />}>
          {L.back}
        </Button>
        <Typography variant="h1">{report.title}</Typography>
      </Stack>
      {report.render()}
    </Stack>
  );
}
