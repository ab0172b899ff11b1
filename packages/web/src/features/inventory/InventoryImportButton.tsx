import DownloadIcon from '@mui/icons-material/Download';
import UploadFileIcon from '@mui/icons-material/UploadFile';
import { Button, CircularProgress, IconButton, Tooltip } from '@mui/material';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type ImportDocument, INVENTORY_IMPORT_MAX_BYTES } from '@trasa/domain';
import { useId, useRef, useState } from 'react';
import { messageOf } from '../../api/errors';
import { downloadInventoryTemplate, INVENTORY_KEY, importInventory } from '../../api/inventory';
import { RowAction } from '../../components/RowAction';
import { useSnackbar } from '../../components/SnackbarProvider';
import { IMPORTS, INVENTORY } from '../../messages';
import { ImportReportDialog } from '../imports/ImportReportDialog';
import { INV_LABELS } from './labels';
import { LOCATION_INVENTORY_NOTICE_MS } from './texts';

/** The types the inventory import takes (spec 3 §5): csv, xlsx, xls. */
const ACCEPT = '.csv,.xlsx,.xls,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet,application/vnd.ms-excel';

type Props = {
  locationId: string;
  locationName: string;
  /** Shows only an icon (a table row's action) instead of the labelled button and the template download. */
  compact?: boolean;
};

/**
 * Import a location's inventory from csv/xlsx/xls up to 10 MB (spec 3 §5, §9) and download the template:
 * a larger file is refused here with the spec's text; the server's per-row report opens when rows carry
 * errors or warnings, as in the other imports.
 */
export function InventoryImportButton({ locationId, locationName, compact = false }: Props) {
  const snackbar = useSnackbar();
  const queryClient = useQueryClient();
  const input = useRef<HTMLInputElement>(null);
  const inputId = useId();
  const [report, setReport] = useState<ImportDocument | null>(null);

  const upload = useMutation({
    mutationFn: (file: File) => importInventory(locationId, file),
    onSuccess: async (data) => {
      const doc = data.document;
      snackbar.success(data.message || IMPORTS.success, LOCATION_INVENTORY_NOTICE_MS);
      if (doc.importReport.some((r) => r.errors.length > 0 || r.warnings.length > 0)) setReport(doc);
      await queryClient.invalidateQueries({ queryKey: INVENTORY_KEY });
    },
    onError: (error) => snackbar.error(messageOf(error, IMPORTS.failed), LOCATION_INVENTORY_NOTICE_MS),
  });

  const template = useMutation({
    mutationFn: () => downloadInventoryTemplate(INVENTORY.importTemplateName),
    onError: (error) => snackbar.error(messageOf(error, IMPORTS.failed), LOCATION_INVENTORY_NOTICE_MS),
  });

  const chosen = (file: File | undefined) => {
    if (input.current) input.current.value = '';
    if (!file) return;
    if (file.size > INVENTORY_IMPORT_MAX_BYTES) {
      snackbar.notify(INVENTORY.importTooLarge, 'warning', LOCATION_INVENTORY_NOTICE_MS);
      return;
    }
    upload.mutate(file);
  };

  const label = `${INV_LABELS.importInventory}: ${locationName}`;
  return (
    <>
      {compact ? (
        <RowAction
          label={INV_LABELS.importInventory}
          name={label}
          icon={UploadFileIcon}
          disabled={upload.isPending}
          busy={upload.isPending ? <CircularProgress size={16} /> : undefined}
          onClick={() => input.current?.click()}
        />
      ) : (
        <Button
          variant="outlined"
          startIcon={upload.isPending ? <CircularProgress size={18} aria-label={INV_LABELS.importButton} /> : <UploadFileIcon />}
          disabled={upload.isPending}
          onClick={() => input.current?.click()}
        >
          {INV_LABELS.importButton}
        </Button>
      )}
      <input
        id={inputId}
        ref={input}
        type="file"
        accept={ACCEPT}
        hidden
        aria-label={label}
        data-testid={`inventory-import-${locationId}`}
        onChange={(e) => chosen(e.target.files?.[0])}
      />
      {!compact && (
        <Tooltip title={INV_LABELS.templateButton}>
          <span>
            <IconButton aria-label={INV_LABELS.templateButton} disabled={template.isPending} onClick={() => template.mutate()}>
              <DownloadIcon />
            </IconButton>
          </span>
        </Tooltip>
      )}
      <ImportReportDialog model="location" errorsHeading={INVENTORY.importErrorsHeading} report={report} onClose={() => setReport(null)} />
    </>
  );
}
