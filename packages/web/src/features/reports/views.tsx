import DownloadIcon from '@mui/icons-material/Download';
import ScheduleIcon from '@mui/icons-material/Schedule';
import {
  Box,
  Button,
  MenuItem,
  Paper,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  TextField,
  Typography,
} from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import {
  ACTIVITY_CATALOGUE,
  type ActivityReportRow,
  type FinishedRow,
  formatDate,
  formatMetres,
  formatRsd,
  type IjoTaxReport,
  type IjoTaxRow,
  LIST_SORTS,
  PAYERS,
  type RouteLengthCode,
  type RouteLengthReport,
  type RouteLengthRow,
} from '@trasa/domain';
import { useMemo, useState } from 'react';
import { saveBlob } from '../../api/client';
import { messageOf } from '../../api/errors';
import { DataTable, type TableQuery } from '../../components/DataTable';
import { useSnackbar } from '../../components/SnackbarProvider';
import type { ColumnDef } from '../../components/tableTypes';
import { REPORTS } from '../../messages';
import { inScript } from '../../script';
import { catalogueText, dataItemName } from '../../shipped';
import { UI } from '../../texts';
import {
  downloadActivityZip,
  getActivityReport,
  getFinished,
  getIjoTaxes,
  getRouteLengths,
  getSummary,
  listReportContracts,
  REPORTS_KEY,
} from './api';
import { ExportButtons } from './ExportButtons';
import { REPORT_LABELS as L } from './labels';

const dash = (v: string | null | undefined) => (v ? v : UI.empty);

/** The contract filter: the general contracts of the visible clusters, or all. */
function ContractSelect({ value, onChange }: { value: string; onChange: (v: string) => void }) {
  const contracts = useQuery({ queryKey: [...REPORTS_KEY, 'contracts'], queryFn: ({ signal }) => listReportContracts(signal) });
  return (
    <TextField select size="small" label={L.contract} value={value} onChange={(e) => onChange(e.target.value)} sx={{ minWidth: 220 }}>
      <MenuItem value="">{L.allContracts}</MenuItem>
      {(contracts.data?.contracts ?? []).map((c) => (
        <MenuItem key={c._id} value={c._id}>
          {c.naziv} ({c.broj})
        </MenuItem>
      ))}
    </TextField>
  );
}

/** Summary: per catalogue activity, the visible clusters that finished it; filtered by contract. */
export function SummaryReportView() {
  const [contract, setContract] = useState('');
  const summary = useQuery({ queryKey: [...REPORTS_KEY, 'summary', contract], queryFn: ({ signal }) => getSummary(contract, signal) });
  return (
    <Stack spacing={2}>
      <Stack direction="row" spacing={2} alignItems="center" flexWrap="wrap" useFlexGap>
        <ContractSelect value={contract} onChange={setContract} />
        {summary.data && <Typography>{L.totalClusters(summary.data.totalClusters)}</Typography>}
        <ExportButtons target={{ list: 'report-summary', params: { contract } }} fallback={() => summary.data?.summary ?? []} />
      </Stack>
      {summary.isError && <Typography color="error">{messageOf(summary.error, REPORTS.empty)}</Typography>}
      <TableContainer component={Paper}>
        <Table size="small" aria-label={L.summary}>
          <TableHead>
            <TableRow>
              <TableCell>{L.kratakNaziv}</TableCell>
              <TableCell>{L.naziv}</TableCell>
              <TableCell align="right">{L.count}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {(summary.data?.summary ?? []).map((r) => (
              <TableRow key={r.kratakNaziv}>
                <TableCell>{r.kratakNaziv}</TableCell>
                <TableCell>{catalogueText(r.naziv)}</TableCell>
                <TableCell align="right">{r.count}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </TableContainer>
    </Stack>
  );
}

const FINISHED_COLUMNS: ColumnDef<FinishedRow>[] = [
  { accessorKey: 'klaster', header: L.klaster },
  { id: 'ugovor', header: L.ugovor, accessorFn: (r) => dash(r.ugovor?.naziv) },
  {
    id: 'zavrsene',
    header: L.zavrsene,
    accessorFn: (r) => r.zavrsene.map((a) => a.kratakNaziv).join(', '),
    Cell: ({ row }) => (
      <Box component="span" sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.5 }}>
        {row.zavrsene.map((a) => (
          <Box
            key={a.kratakNaziv}
            component="span"
            title={`${catalogueText(a.naziv)} — ${formatDate(a.datumZavrsetka)}${a.rokZavrsetka ? ` (${L.rok} ${formatDate(a.rokZavrsetka)})` : ''}`}
            sx={{
              display: 'inline-flex',
              alignItems: 'center',
              gap: 0.25,
              px: 0.75,
              borderRadius: 1,
              bgcolor: a.uRoku ? '#c8e6c9' : '#ffcdd2',
              color: 'common.black',
              fontSize: 13,
              whiteSpace: 'nowrap',
            }}
          >
            {a.kratakNaziv} {formatDate(a.datumZavrsetka)}
            {/* Late not only in red (WCAG 1.4.1): a clock, named for screen readers. */}
            {!a.uRoku && <ScheduleIcon titleAccess={L.finishedLate} sx={{ fontSize: 14 }} />}
          </Box>
        ))}
      </Box>
    ),
  },
  { accessorKey: 'uRoku', header: L.uRoku, numeric: true },
  { accessorKey: 'kasni', header: L.kasni, numeric: true },
];

/** Finished activities: visible clusters with their finished activities (green on time, red late), paged. */
export function FinishedReportView() {
  const fetchPage = useMemo(
    () =>
      async ({ page, limit, signal, sort, order }: TableQuery) => {
        const data = await getFinished({ page, limit, sort, order }, signal);
        return { rows: data.clusters, total: data.totalResults };
      },
    [],
  );
  return (
    <Stack spacing={1}>
      <Typography variant="body2">{L.finishedLegend}</Typography>
      <DataTable
        tableName="izvestaj-zavrsene"
        label={L.finished}
        columns={FINISHED_COLUMNS}
        queryKey={[...REPORTS_KEY, 'finished']}
        fetchPage={fetchPage}
        sortable={LIST_SORTS.finishedReport}
        emptyText={REPORTS.empty}
      />
    </Stack>
  );
}

/** The columns of one activity's report: its data items are named by the activity's code. */
const activityColumns = (code: string): ColumnDef<ActivityReportRow>[] => [
  { id: 'klaster', header: L.klaster, accessorFn: (r) => r.klaster.naziv },
  { id: 'ugovor', header: L.ugovor, accessorFn: (r) => dash(r.ugovor?.naziv) },
  { id: 'status', header: L.status, accessorFn: (r) => inScript(r.status) },
  { id: 'datumPocetka', header: L.datumPocetka, accessorFn: (r) => dash(formatDate(r.datumPocetka)) },
  { id: 'datumZavrsetka', header: L.datumZavrsetka, accessorFn: (r) => dash(formatDate(r.datumZavrsetka)) },
  { id: 'rok', header: L.rok, accessorFn: (r) => dash(formatDate(r.rokZavrsetka)) },
  {
    id: 'podaci',
    header: L.podaci,
    accessorFn: (r) => r.podaci.map((p) => `${dataItemName(code, p)}: ${p.vrednost}`).join('; '),
  },
  {
    id: 'fajlovi',
    header: L.fajlovi,
    accessorFn: (r) => r.fajlovi.map((f) => f.originalnoIme).join(', ') || UI.empty,
  },
];

/** Per activity: an activity selector, search, every visible cluster's record, and the zip of its documents. */
export function ActivityReportView({ initialCode = 'A1' }: { initialCode?: string }) {
  const [code, setCode] = useState(initialCode);
  const [search, setSearch] = useState<{ eng: string; srb: string } | null>(null);
  const [zipping, setZipping] = useState(false);
  const snackbar = useSnackbar();
  const fetchPage = useMemo(
    () =>
      async ({ page, limit, search: s, signal, sort, order }: TableQuery) => {
        setSearch(s);
        const data = await getActivityReport(code, { page, limit, sort, order, ...(s ?? {}) }, signal);
        return { rows: data.rows, total: data.totalResults };
      },
    [code],
  );
  const columns = useMemo(() => activityColumns(code), [code]);
  const zip = async () => {
    setZipping(true);
    try {
      const { blob, fileName } = await downloadActivityZip(code, search ?? {});
      saveBlob(blob, fileName ?? `${code} - dokumenta.zip`);
    } catch (err) {
      snackbar.error(messageOf(err, REPORTS.empty));
    } finally {
      setZipping(false);
    }
  };
  return (
    <DataTable
      key={code}
      tableName="izvestaj-aktivnost"
      exportAs={{ list: 'report-activity', params: { activity: code } }}
      label={L.files}
      columns={columns}
      queryKey={[...REPORTS_KEY, 'activity', code]}
      fetchPage={fetchPage}
      searchable
      sortable={LIST_SORTS.activityReport}
      emptyText={REPORTS.empty}
      toolbar={
        <Stack direction="row" spacing={1} alignItems="center" flexWrap="wrap" useFlexGap>
          <TextField select size="small" label={L.activity} value={code} onChange={(e) => setCode(e.target.value)} sx={{ minWidth: 200 }}>
            {ACTIVITY_CATALOGUE.map((a) => (
              <MenuItem key={a.code} value={a.code}>
                {a.code} — {catalogueText(a.naziv)}
              </MenuItem>
            ))}
          </TextField>
          <Button variant="outlined" startIcon={<DownloadIcon />} onClick={zip} disabled={zipping}>
            {L.zip}
          </Button>
        </Stack>
      }
    />
  );
}

type IjoLine = IjoTaxRow & { _id: string };
const IJO_COLUMNS: ColumnDef<IjoLine>[] = [
  { accessorKey: 'ugovor', header: L.ugovor },
  { accessorKey: 'klaster', header: L.klaster },
  { accessorKey: 'imaoc', header: L.imaoc },
  { id: 'status', header: L.done, accessorFn: (r) => (r.status ? L.yes : L.no) },
  { id: 'taksa', header: L.taksa, accessorFn: (r) => dash(formatRsd(r.taksa)), numeric: true },
  { id: 'zaduzen', header: L.payer, accessorFn: (r) => inScript(r.zaduzen) },
  { id: 'izvodjac', header: L.izvodjac, accessorFn: (r) => dash(r.izvodjacNaziv) },
];

function IjoTotals({ report }: { report: IjoTaxReport }) {
  return (
    <Paper variant="outlined" sx={{ p: 2 }}>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={3} flexWrap="wrap" useFlexGap>
        <Typography>
          {L.narucilacTotal}: <b>{formatRsd(report.narucilacTotal)}</b>
        </Typography>
        <Typography>
          {L.izvodjaciTotal}: <b>{formatRsd(report.izvodjaciTotal)}</b>
        </Typography>
        <Typography>
          {L.totalTax}: <b>{formatRsd(report.totalTax)}</b>
        </Typography>
      </Stack>
      {report.byContractor.length > 0 && (
        <Box sx={{ mt: 1 }}>
          <Typography variant="subtitle2" component="p">
            {L.byContractor}
          </Typography>
          {report.byContractor.map((c) => (
            <Typography key={c.naziv} variant="body2">
              {c.naziv}: {formatRsd(c.sum)}
            </Typography>
          ))}
        </Box>
      )}
    </Paper>
  );
}

/** IJO status and taxes: filtered by contract and payer, with the totals over every filtered row. */
export function IjoReportView() {
  const [contract, setContract] = useState('');
  const [payer, setPayer] = useState('');
  const [totals, setTotals] = useState<IjoTaxReport | null>(null);
  const fetchPage = useMemo(
    () =>
      async ({ page, limit, signal, sort, order }: TableQuery) => {
        const data = await getIjoTaxes({ page, limit, sort, order, contract, payer }, signal);
        setTotals(data);
        return { rows: data.rows.map((r) => ({ ...r, _id: `${r.klasterId}|${r.imaocId}` })), total: data.totalResults };
      },
    [contract, payer],
  );
  return (
    <Stack spacing={2}>
      <Stack direction="row" spacing={2} flexWrap="wrap" useFlexGap>
        <ContractSelect value={contract} onChange={setContract} />
        <TextField select size="small" label={L.payer} value={payer} onChange={(e) => setPayer(e.target.value)} sx={{ minWidth: 160 }}>
          <MenuItem value="">{L.allPayers}</MenuItem>
          {PAYERS.map((p) => (
            <MenuItem key={p} value={p}>
              {inScript(p)}
            </MenuItem>
          ))}
        </TextField>
      </Stack>
      {totals && <IjoTotals report={totals} />}
      <DataTable
        key={`${contract}|${payer}`}
        tableName="izvestaj-ijo"
        exportAs={{ list: 'report-ijo', params: { contract, payer } }}
        label={L.ijo}
        columns={IJO_COLUMNS}
        queryKey={[...REPORTS_KEY, 'ijo', contract, payer]}
        fetchPage={fetchPage}
        sortable={LIST_SORTS.ijoReport}
        emptyText={REPORTS.empty}
      />
    </Stack>
  );
}

const lengthColumns = (perSettlement: boolean): ColumnDef<RouteLengthRow>[] => [
  { id: 'klaster', header: L.klaster, accessorFn: (r) => r.klaster.naziv },
  ...(perSettlement ? [{ id: 'naselje', header: L.naselje, accessorFn: (r: RouteLengthRow) => dash(r.naselje?.naziv) }] : []),
  { id: 'ugovor', header: L.ugovor, accessorFn: (r) => dash(r.ugovor?.naziv) },
  { id: 'status', header: L.status, accessorFn: (r) => inScript(r.status) },
  { id: 'datumZavrsetka', header: L.datumZavrsetka, accessorFn: (r) => dash(formatDate(r.datumZavrsetka)) },
  { id: 'duzina', header: L.duzina, accessorFn: (r) => dash(inScript(formatMetres(r.duzina))), numeric: true },
];

/** Route lengths of A1 (per cluster and settlement), A9 (PZI) and A12 (PIO), in metres, with the sum. */
export function RouteLengthView({ code }: { code: RouteLengthCode }) {
  const [report, setReport] = useState<RouteLengthReport | null>(null);
  const columns = useMemo(() => lengthColumns(code === 'A1'), [code]);
  const fetchPage = useMemo(
    () =>
      async ({ page, limit, search, signal, sort, order }: TableQuery) => {
        const data = await getRouteLengths(code, { page, limit, sort, order, ...(search ?? {}) }, signal);
        setReport(data);
        return { rows: data.rows, total: data.totalResults };
      },
    [code],
  );
  return (
    <Stack spacing={1}>
      {report && (
        <Typography>
          {report.kratakNaziv} — {catalogueText(report.naziv)}. {L.ukupno}: <b>{inScript(formatMetres(report.ukupno))}</b>
        </Typography>
      )}
      <DataTable
        key={code}
        tableName={`izvestaj-duzine-${code}`}
        exportAs={{ list: 'report-lengths', params: { code } }}
        label={L.lengths(code)}
        columns={columns}
        queryKey={[...REPORTS_KEY, 'lengths', code]}
        fetchPage={fetchPage}
        searchable
        sortable={LIST_SORTS.routeLengthReport}
        emptyText={REPORTS.empty}
      />
    </Stack>
  );
}
