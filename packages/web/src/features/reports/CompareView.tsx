import {
  Alert,
  Button,
  MenuItem,
  Paper,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TablePagination,
  TableRow,
  TextField,
  Typography,
} from '@mui/material';
import { useMutation, useQuery } from '@tanstack/react-query';
import { appPath, type CompareResponse, formatDate, formatRsd, type SnapshotType } from '@trasa/domain';
import { useMemo, useState } from 'react';
import { useNavigate } from 'react-router';
import { messageOf } from '../../api/errors';
import { DateField, todayValue } from '../../components/dates';
import { useSnackbar } from '../../components/SnackbarProvider';
import { REPORTS } from '../../messages';
import { compareReports, listSnapshots, REPORTS_KEY } from './api';
import { compareTable, exportCompareXlsx } from './compare';
import { ExportButtons } from './ExportButtons';
import { REPORT_LABELS as L } from './labels';

/** The compare view of the reports (the hub's 'uporedjivanje' tab): two saved days of one report side by side. */

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
              {table.valueHeaders.map((h, i) => {
                const align = table.valueFormats[i] ? 'right' : undefined;
                return [
                  <TableCell key={`${h}a`} align={align}>
                    {formatDate(dateA)}
                  </TableCell>,
                  <TableCell key={`${h}b`} align={align}>
                    {formatDate(dateB)}
                  </TableCell>,
                ];
              })}
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
                  // Counts and money right-aligned (the columns the xlsx writes as numbers).
                  const align = table.valueFormats[i] ? 'right' : undefined;
                  return [
                    <TableCell key={`${h}a`} align={align} sx={sx} data-diff={line.diff[i] || undefined}>
                      {line.a?.[i] ?? '—'}
                    </TableCell>,
                    <TableCell key={`${h}b`} align={align} sx={sx} data-diff={line.diff[i] || undefined}>
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
