import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import {
  Alert,
  Box,
  Button,
  Checkbox,
  FormControlLabel,
  MenuItem,
  Paper,
  Stack,
  Tab,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TablePagination,
  TableRow,
  Tabs,
  TextField,
  Typography,
} from '@mui/material';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  appPath,
  BACKFILL_DEFAULT_DAYS,
  backfillDays,
  type CompareResponse,
  canOpen,
  formatDate,
  formatRsd,
  type RouteLengthCode,
  roleIn,
  type SnapshotType,
} from '@trasa/domain';
import { lazy, type ReactNode, Suspense, useMemo, useState } from 'react';
import { Link as RouterLink, useNavigate, useParams, useSearchParams } from 'react-router';
import { messageOf } from '../../api/errors';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { DateField, todayValue } from '../../components/dates';
import { NotFoundPage } from '../../components/NotFoundPage';
import { useSnackbar } from '../../components/SnackbarProvider';
import { REPORTS } from '../../messages';
import { useCurrentUser } from '../../shell/session';
import { backfillSnapshots, clearSnapshots, compareReports, listSnapshots, REPORTS_KEY } from './api';
import { compareTable, exportCompareXlsx } from './compare';
import { ExportButtons } from './ExportButtons';
import { REPORT_LABELS as L } from './labels';
import { ProgressSkeleton } from './ProgressSkeleton';
import { ActivityReportView, FinishedReportView, IjoReportView, RouteLengthView, SummaryReportView } from './views';

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

/** The compare selector's options (spec 3 §2.7): 1, 2 and 4 compare snapshots, 3 opens the per-activity report. */
const COMPARE_OPTIONS: { n: number; label: string; type: SnapshotType | null }[] = [
  { n: 1, label: L.finished, type: 'finishedReport' },
  { n: 2, label: L.summary, type: 'summaryReport' },
  { n: 3, label: L.files, type: null },
  { n: 4, label: L.ijo, type: 'ijoTaxesReport' },
];

const DIFF_BG = '#fff3b0';
/** The saved snapshot dates named under the compare view; the rest are counted ('и још N'). */
const SAVED_DATES_SHOWN = 14;

function CompareResult({
  type,
  data,
  dateA,
  dateB,
  name,
}: {
  type: SnapshotType;
  data: CompareResponse;
  dateA: string;
  dateB: string;
  name: string;
}) {
  const table = useMemo(() => compareTable(type, data.reportA, data.reportB), [type, data]);
  const [page, setPage] = useState(0);
  const [perPage, setPerPage] = useState(25);
  const missing = !data.reportA || !data.reportB;
  const shown = table.lines.slice(page * perPage, page * perPage + perPage);
  return (
    <Stack spacing={1}>
      {missing && <Alert severity="info">{REPORTS.noSnapshot}</Alert>}
      {type === 'ijoTaxesReport' && data.reportA?.type === 'ijoTaxesReport' && data.reportB?.type === 'ijoTaxesReport' && (
        <Typography variant="body2">
          {L.totalTax}: {formatDate(dateA)} — {formatRsd(data.reportA.totalTax)}; {formatDate(dateB)} — {formatRsd(data.reportB.totalTax)}
        </Typography>
      )}
      <Stack direction="row" spacing={1} flexWrap="wrap" useFlexGap>
        <Button variant="outlined" onClick={() => void exportCompareXlsx(table, name, dateA, dateB)} disabled={table.lines.length === 0}>
          {L.exportXlsx}
        </Button>
        {table.lines.length > 0 && (
          <ExportButtons target={{ list: 'report-compare', params: { type, dateA, dateB } }} fallback={() => table.lines} />
        )}
      </Stack>
      <TableContainer component={Paper}>
        <Table size="small" aria-label={L.compare}>
          <TableHead>
            <TableRow>
              {table.labelHeaders.map((h) => (
                <TableCell key={h}>{h}</TableCell>
              ))}
              {table.valueHeaders.map((h) => (
                <TableCell key={h} colSpan={2} align="center">
                  {h}
                </TableCell>
              ))}
            </TableRow>
            <TableRow>
              {table.labelHeaders.map((h) => (
                <TableCell key={h} />
              ))}
              {table.valueHeaders.map((h) => [
                <TableCell key={`${h}a`}>{formatDate(dateA)}</TableCell>,
                <TableCell key={`${h}b`}>{formatDate(dateB)}</TableCell>,
              ])}
            </TableRow>
          </TableHead>
          <TableBody>
            {shown.map((line) => (
              <TableRow key={line.key}>
                {line.label.map((v, i) => (
                  <TableCell key={table.labelHeaders[i]}>{v}</TableCell>
                ))}
                {table.valueHeaders.map((h, i) => {
                  const sx = line.diff[i] ? { bgcolor: DIFF_BG, fontWeight: 600 } : undefined;
                  return [
                    <TableCell key={`${h}a`} sx={sx} data-diff={line.diff[i] || undefined}>
                      {line.a?.[i] ?? '—'}
                    </TableCell>,
                    <TableCell key={`${h}b`} sx={sx} data-diff={line.diff[i] || undefined}>
                      {line.b?.[i] ?? '—'}
                    </TableCell>,
                  ];
                })}
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </TableContainer>
      <TablePagination
        component="div"
        count={table.lines.length}
        page={page}
        onPageChange={(_, p) => setPage(p)}
        rowsPerPage={perPage}
        rowsPerPageOptions={[10, 25, 50, 100]}
        onRowsPerPageChange={(e) => {
          setPerPage(Number(e.target.value));
          setPage(0);
        }}
        labelRowsPerPage=""
      />
    </Stack>
  );
}

/** Compare: a report, Datum 1 and Datum 2 (DD.MM.YYYY, no future dates), compare, reset, export. */
export function CompareView() {
  const navigate = useNavigate();
  const snackbar = useSnackbar();
  const [option, setOption] = useState(1);
  const [dateA, setDateA] = useState('');
  const [dateB, setDateB] = useState('');
  const [result, setResult] = useState<{ type: SnapshotType; data: CompareResponse; dateA: string; dateB: string } | null>(null);
  const snapshots = useQuery({ queryKey: [...REPORTS_KEY, 'snapshots'], queryFn: ({ signal }) => listSnapshots(signal) });
  const chosen = COMPARE_OPTIONS.find((o) => o.n === option);
  const today = todayValue();
  const future = (d: string) => !!d && d > today;
  const compare = useMutation({
    mutationFn: () => compareReports(chosen?.type as SnapshotType, dateA, dateB),
    onSuccess: (data) => setResult({ type: chosen?.type as SnapshotType, data, dateA, dateB }),
    onError: (err) => snackbar.error(messageOf(err, REPORTS.compareFailed)),
  });
  const choose = (n: number) => {
    setOption(n);
    setResult(null);
    if (n === 3) navigate(`${appPath('reports')}?izvestaj=dokumenta`);
  };
  const saved = snapshots.data?.snimci ?? [];
  return (
    <Stack spacing={2}>
      <Stack direction={{ xs: 'column', md: 'row' }} spacing={2} alignItems={{ md: 'flex-start' }}>
        <TextField
          select
          size="small"
          label={L.compareReport}
          value={option}
          onChange={(e) => choose(Number(e.target.value))}
          sx={{ minWidth: 240 }}
        >
          {COMPARE_OPTIONS.map((o) => (
            <MenuItem key={o.n} value={o.n}>
              {o.n}. {o.label}
            </MenuItem>
          ))}
        </TextField>
        {[[L.dateA, dateA, setDateA] as const, [L.dateB, dateB, setDateB] as const].map(([label, value, set]) => (
          <DateField
            key={label}
            label={label}
            value={value}
            onChange={(v) => set(v)}
            disableFuture
            size="small"
            fullWidth={false}
            error={future(value)}
            helperText={future(value) ? L.futureDate : undefined}
          />
        ))}
        <Button
          variant="contained"
          disabled={!chosen?.type || !dateA || !dateB || future(dateA) || future(dateB) || compare.isPending}
          onClick={() => compare.mutate()}
        >
          {L.compareButton}
        </Button>
        <Button
          onClick={() => {
            setDateA('');
            setDateB('');
            setResult(null);
          }}
        >
          {L.reset}
        </Button>
      </Stack>
      <Typography variant="body2" color="text.secondary">
        {saved.length
          ? L.savedDates(
              saved
                .slice(0, SAVED_DATES_SHOWN)
                .map((s) => formatDate(s.date))
                .join(', '),
              saved.length - SAVED_DATES_SHOWN,
            )
          : L.noSavedDates}
      </Typography>
      {result && chosen?.type && (
        <CompareResult type={result.type} data={result.data} dateA={result.dateA} dateB={result.dateB} name={chosen.label} />
      )}
    </Stack>
  );
}

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
  return (
    <Stack spacing={2}>
      <Typography variant="h1">{L.hubTitle}</Typography>
      {/* The Admin's test panel is drawn at once (the list of snapshots only confirms it), so the page does
          not move down when that answer comes; a sees-all group's appears with it. */}
      {(snapshots.data?.mozeUpravljati ?? roleIn(me.rola, ['Admin'])) && <TestPanel />}
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
