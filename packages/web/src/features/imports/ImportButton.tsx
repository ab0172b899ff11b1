import DownloadIcon from '@mui/icons-material/Download';
import UploadFileIcon from '@mui/icons-material/UploadFile';
import { Button, CircularProgress, IconButton, Tooltip } from '@mui/material';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ImportDocument, ImportModel } from '@trasa/domain';
import { useRef, useState } from 'react';
import { messageOf } from '../../api/errors';
import { downloadTemplate, type ImportTemplate, importSpreadsheet } from '../../api/imports';
import { useSnackbar } from '../../components/SnackbarProvider';
import { IMPORTS } from '../../messages';
import { ImportReportDialog } from './ImportReportDialog';

/** The types the import takes (spec 2 §9): csv, xlsx, xls. */
const ACCEPT = '.csv,.xlsx,.xls,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet,application/vnd.ms-excel';

export type ImportButtonProps = {
  model: ImportModel;
  /** Template name for user: korisnici; for the others: klasteri (spec 2 §7). */
  template: ImportTemplate;
  /** Query keys whose lists the import changes (refetched after it). */
  invalidates: readonly (readonly unknown[])[];
  /** Notice duration (4 s on the location screens, 3.5 s in codebooks; default 2 s). */
  noticeMs?: number;
};

/**
 * 'Увоз' and the template download beside it (spec 2 §2 "Import UI"): a spinner while the file uploads,
 * then the report dialog when rows carry errors or warnings, or else the success notice.
 */
export function ImportButton({ model, template, invalidates, noticeMs }: ImportButtonProps) {
  const snackbar = useSnackbar();
  const queryClient = useQueryClient();
  const input = useRef<HTMLInputElement>(null);
  const [report, setReport] = useState<ImportDocument | null>(null);

  const upload = useMutation({
    mutationFn: (file: File) => importSpreadsheet(model, file),
    onSuccess: async (data) => {
      const doc = data.document;
      const flagged = doc.importReport.some((r) => r.errors.length > 0 || r.warnings.length > 0);
      // The success notice, followed by the report when rows carry errors or warnings (spec 2 §8 "Import
      // success": 'Успешно додат документ.', then 'Грешка при увозу …:' and the details).
      snackbar.success(data.message || IMPORTS.success, noticeMs);
      if (flagged) setReport(doc);
      await Promise.all(invalidates.map((queryKey) => queryClient.invalidateQueries({ queryKey })));
    },
    onError: (error) => snackbar.error(messageOf(error, IMPORTS.failed), noticeMs),
  });

  const templateDownload = useMutation({
    mutationFn: () => downloadTemplate(template),
    onError: (error) => snackbar.error(messageOf(error, IMPORTS.failed), noticeMs),
  });

  const chosen = (file: File | undefined) => {
    if (input.current) input.current.value = '';
    if (!file) return;
    if (file.size > IMPORTS.maxBytes) {
      snackbar.error(IMPORTS.tooLarge, noticeMs);
      return;
    }
    upload.mutate(file);
  };

  return (
    <>
      <Button
        variant="outlined"
        startIcon={upload.isPending ? <CircularProgress size={18} aria-label={IMPORTS.importButton} /> : <UploadFileIcon />}
        disabled={upload.isPending}
        onClick={() => input.current?.click()}
      >
        {IMPORTS.importButton}
      </Button>
      <input ref={input} type="file" accept={ACCEPT} hidden data-testid={`import-${model}`} onChange={(e) => chosen(e.target.files?.[0])} />
      <Tooltip title={IMPORTS.templateButton}>
        <span>
          <IconButton aria-label={IMPORTS.templateButton} disabled={templateDownload.isPending} onClick={() => templateDownload.mutate()}>
            <DownloadIcon />
          </IconButton>
        </span>
      </Tooltip>
      <ImportReportDialog model={model} report={report} onClose={() => setReport(null)} />
    </>
  );
}
