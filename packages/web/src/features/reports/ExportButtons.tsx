import GridOnIcon from '@mui/icons-material/GridOn';
import PictureAsPdfIcon from '@mui/icons-material/PictureAsPdf';
import { Button, Stack } from '@mui/material';
import { useState } from 'react';
import { messageOf } from '../../api/errors';
import { downloadExport, type ExportFormat, type ExportTarget, saveRowsAsJson } from '../../api/exports';
import { useSnackbar } from '../../components/SnackbarProvider';
import { scripted } from '../../scripted';

const LABELS = scripted({ xlsx: 'Извоз у Excel', pdf: 'Извоз у PDF', failed: 'Greška.' } satisfies Record<ExportFormat | 'failed', string>);

/**
 * 'Извоз у Excel' / 'Извоз у PDF' for a report that is not a DataTable (the summary, a comparison): the
 * server's file of the report with its filters (docs/api/exports.md); when that fails, `fallback`'s rows
 * (the report as the screen holds it) are saved as JSON (spec 3 §8 "Export failure").
 */
export function ExportButtons({ target, fallback }: { target: ExportTarget; fallback?: () => unknown[] }) {
  const snackbar = useSnackbar();
  const [busy, setBusy] = useState(false);
  const run = async (format: ExportFormat) => {
    setBusy(true);
    try {
      await downloadExport(target, format, null);
    } catch (error) {
      if (fallback) saveRowsAsJson(target.list, fallback());
      else snackbar.error(messageOf(error, LABELS.failed));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Stack direction="row" spacing={1}>
      {(['xlsx', 'pdf'] as const).map((format) => (
        <Button
          key={format}
          size="small"
          variant="outlined"
          disabled={busy}
          startIcon={format === 'xlsx' ? <GridOnIcon /> : <PictureAsPdfIcon />}
          onClick={() => void run(format)}
        >
          {LABELS[format]}
        </Button>
      ))}
    </Stack>
  );
}
