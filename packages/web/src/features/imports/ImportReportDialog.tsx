import {
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TablePagination,
  TableRow,
  ToggleButton,
  ToggleButtonGroup,
  Typography,
} from '@mui/material';
import type { ImportDocument, ImportModel } from '@trasa/domain';
import { useId, useMemo, useState } from 'react';
import { TABLE_TEXTS } from '../../components/tableTexts';
import { COMMON, IMPORTS } from '../../messages';
import { UI } from '../../texts';
import { exportReportCsv, exportReportXlsx } from './reportExport';

export type ReportFilter = 'all' | 'errors' | 'warnings';

const PAGE_SIZES = [25, 50, 100];

/** Lines of a cell: each message on its own line. */
function Lines({ items, color }: { items: string[]; color: string }) {
  return (
    <>
      {items.map((text, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the messages of one row are fixed and may repeat
        <Typography key={i} variant="body2" color={color} sx={{ whiteSpace: 'pre-wrap' }}>
          {text}
        </Typography>
      ))}
    </>
  );
}

/**
 * 'Резултат увоза' (spec 2 §2 "Import UI"): the rows of an import with their outcome, filtered to all,
 * errors only or warnings only, exported as import-report.csv or .xlsx, paged (a report can have
 * tens of thousands of rows).
 */
export function ImportReportDialog({
  model,
  report,
  onClose,
  errorsHeading,
}: {
  model: ImportModel;
  report: ImportDocument | null;
  onClose: () => void;
  /** The heading above failed rows when the import is not one of spec 2's (the inventory's). */
  errorsHeading?: string;
}) {
  const titleId = useId();
  const [filter, setFilter] = useState<ReportFilter>('all');
  const [page, setPage] = useState(0);
  const [pageSize, setPageSize] = useState(PAGE_SIZES[0] ?? 25);
  const rows = useMemo(() => {
    const all = report?.importReport ?? [];
    if (filter === 'errors') return all.filter((r) => r.errors.length > 0);
    if (filter === 'warnings') return all.filter((r) => r.warnings.length > 0);
    return all;
  }, [report, filter]);
  const shown = rows.slice(page * pageSize, (page + 1) * pageSize);

  const choose = (value: ReportFilter | null) => {
    if (!value) return;
    setFilter(value);
    setPage(0);
  };

  return (
    <Dialog open={!!report} onClose={onClose} aria-labelledby={titleId} maxWidth="lg" fullWidth>
      <DialogTitle id={titleId}>{IMPORTS.reportTitle}</DialogTitle>
      <DialogContent dividers>
        {report && (
          <Stack spacing={2}>
            {report.importReport.some((r) => r.errors.length > 0) && (
              <Typography color="error" sx={{ fontWeight: 500 }}>
                {errorsHeading ?? IMPORTS.errorsHeadingOf(model)}
              </Typography>
            )}
            <Typography>{IMPORTS.summary(report.uvezeno, report.preskoceno, report.neuspesno)}</Typography>
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ justifyContent: 'space-between' }}>
              <ToggleButtonGroup size="small" exclusive value={filter} onChange={(_, v: ReportFilter | null) => choose(v)}>
                <ToggleButton value="all">{IMPORTS.filterAll}</ToggleButton>
                <ToggleButton value="errors">{IMPORTS.filterErrors}</ToggleButton>
                <ToggleButton value="warnings">{IMPORTS.filterWarnings}</ToggleButton>
              </ToggleButtonGroup>
              <Stack direction="row" spacing={1}>
                <Button variant="outlined" size="small" onClick={() => exportReportCsv(rows)}>
                  {IMPORTS.exportCsv}
                </Button>
                <Button variant="outlined" size="small" onClick={() => void exportReportXlsx(rows)}>
                  {IMPORTS.exportXlsx}
                </Button>
              </Stack>
            </Stack>
            <TableContainer sx={{ maxHeight: '55vh' }}>
              <Table size="small" stickyHeader aria-label={IMPORTS.reportTitle}>
                <TableHead>
                  <TableRow>
                    <TableCell sx={{ width: 60 }}>{IMPORTS.columnRow}</TableCell>
                    <TableCell>{IMPORTS.columnName}</TableCell>
                    <TableCell sx={{ width: 90 }}>{IMPORTS.columnSuccess}</TableCell>
                    <TableCell>{IMPORTS.columnWarnings}</TableCell>
                    <TableCell>{IMPORTS.columnErrors}</TableCell>
                  </TableRow>
                </TableHead>
                <TableBody>
                  {shown.map((r) => (
                    <TableRow key={r.red} hover>
                      <TableCell>{r.red}</TableCell>
                      <TableCell>{r.naziv}</TableCell>
                      <TableCell sx={{ color: r.success ? 'success.main' : 'text.secondary' }}>{r.success ? UI.yes : UI.no}</TableCell>
                      <TableCell>
                        <Lines items={r.warnings} color="warning.dark" />
                      </TableCell>
                      <TableCell>
                        <Lines items={r.errors} color="error.main" />
                      </TableCell>
                    </TableRow>
                  ))}
                  {shown.length === 0 && (
                    <TableRow>
                      <TableCell colSpan={5}>{COMMON.emptyTable}</TableCell>
                    </TableRow>
                  )}
                </TableBody>
              </Table>
            </TableContainer>
            <TablePagination
              component="div"
              count={rows.length}
              page={page}
              rowsPerPage={pageSize}
              rowsPerPageOptions={PAGE_SIZES}
              onPageChange={(_, p) => setPage(p)}
              onRowsPerPageChange={(e) => {
                setPageSize(Number(e.target.value));
                setPage(0);
              }}
              labelRowsPerPage={TABLE_TEXTS.rowsPerPage}
              labelDisplayedRows={({ from, to, count }) => `${from}–${to} ${TABLE_TEXTS.of} ${count}`}
            />
          </Stack>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{IMPORTS.close}</Button>
      </DialogActions>
    </Dialog>
  );
}
