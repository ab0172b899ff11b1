import AttachFileIcon from '@mui/icons-material/AttachFile';
import CloseIcon from '@mui/icons-material/Close';
import DeleteIcon from '@mui/icons-material/Delete';
import DownloadIcon from '@mui/icons-material/Download';
import { Box, Button, IconButton, Stack, Tooltip, Typography } from '@mui/material';
import { useMutation } from '@tanstack/react-query';
import type { ContractKind, RefusedDocument } from '@trasa/domain';
import { type ChangeEvent, useId } from 'react';
import { saveBlob } from '../../api/client';
import { type ContractFileDto, downloadContractFile } from '../../api/contracts';
import { messageOf } from '../../api/errors';
import { useSnackbar } from '../../components/SnackbarProvider';
import { CONTRACTS } from '../../messages';
import { UI } from '../../texts';
import { shortName } from '../clusters/format';
import { CONTRACT_LABELS } from './labels';

/** Contract documents: .doc, .docx and .pdf, several at once (spec 2 §5). */
export const DOCUMENT_ACCEPT = '.doc,.docx,.pdf';
/** Contract-document errors stay 4 s (spec 2 §8, §9). */
export const DOCUMENT_NOTICE_MS = 4000;
/** File names are shortened to 40 characters in lists, 50 in the edit list (spec 2 §9). */
export const LIST_NAME_MAX = 40;
export const EDIT_NAME_MAX = 50;

/**
 * The notice after a save whose upload refused some documents: what was saved, then each refused
 * document with its reason ('Ови документи нису сачувани: lazni.pdf — Pogrešan tip fajla').
 */
/**
 * The notice after a new contract's documents were sent: the creation's message, that no document was
 * saved when every one was refused, and each refused one with its reason.
 */
export function createdWithRefusals(created: string, sent: number, refused: readonly RefusedDocument[]): string {
  return refusedNotice(refused.length >= sent ? `${created} ${CONTRACTS.noDocumentSaved}` : created, refused);
}

export function refusedNotice(saved: string, refused: readonly RefusedDocument[]): string {
  const listed = refused.map((d) => CONTRACTS.documentRefused(d.originalnoIme, d.razlog)).join('; ');
  return `${saved} ${CONTRACTS.documentsRefused} ${listed}`;
}

/** Identifies a chosen file: the same file chosen twice is listed once. */
function fileKey(file: File): string {
  return `${file.name}|${file.size}|${file.lastModified}`;
}

function accepted(file: File): boolean {
  return /\.(docx?|pdf)$/i.test(file.name);
}

type PickerProps = {
  files: readonly File[];
  onChange: (files: File[]) => void;
  disabled?: boolean;
};

/** A file input for new documents and the list of the chosen ones, each removable before saving. */
export function DocumentPicker({ files, onChange, disabled }: PickerProps) {
  const snackbar = useSnackbar();
  const inputId = useId();
  const choose = (event: ChangeEvent<HTMLInputElement>) => {
    const chosen = [...(event.target.files ?? [])];
    // The same file can be chosen again after it was taken off the list.
    event.target.value = '';
    const ok = chosen.filter(accepted);
    if (ok.length < chosen.length) snackbar.notify(CONTRACT_LABELS.wrongDocumentType, 'warning', DOCUMENT_NOTICE_MS);
    const known = new Set(files.map(fileKey));
    const added: File[] = [];
    for (const file of ok) {
      if (known.has(fileKey(file))) continue;
      known.add(fileKey(file));
      added.push(file);
    }
    if (added.length > 0) onChange([...files, ...added]);
  };
  return (
    <Box>
      <Stack direction="row" spacing={1} alignItems="center" flexWrap="wrap" useFlexGap>
        <Button component="label" htmlFor={inputId} variant="outlined" startIcon={<AttachFileIcon />} disabled={disabled}>
          {CONTRACT_LABELS.addDocuments}
          <input
            id={inputId}
            type="file"
            name="fajlovi"
            multiple
            accept={DOCUMENT_ACCEPT}
            hidden
            disabled={disabled}
            onChange={choose}
            aria-label={CONTRACT_LABELS.addDocuments}
          />
        </Button>
        <Typography variant="body2" color="text.secondary">
          {CONTRACT_LABELS.allowedDocuments}
        </Typography>
      </Stack>
      {files.length > 0 && (
        <Stack component="ul" aria-label={CONTRACT_LABELS.newDocuments} spacing={0.5} sx={{ m: 0, mt: 1, p: 0, listStyle: 'none' }}>
          {files.map((file) => (
            <Stack component="li" key={fileKey(file)} direction="row" spacing={1} alignItems="center">
              <AttachFileIcon fontSize="small" color="action" />
              <Tooltip title={file.name}>
                <Typography variant="body2">{shortName(file.name, EDIT_NAME_MAX)}</Typography>
              </Tooltip>
              <IconButton
                size="small"
                aria-label={`${CONTRACT_LABELS.removeChosenDocument}: ${file.name}`}
                disabled={disabled}
                onClick={() => onChange(files.filter((f) => f !== file))}
              >
                <CloseIcon fontSize="small" />
              </IconButton>
            </Stack>
          ))}
        </Stack>
      )}
    </Box>
  );
}

/** Downloads a contract document (GET /api/files/{route}/{contractId}/{fileId}) and hands it to the browser. */
export function useDocumentDownload(kind: ContractKind, contractId: string) {
  const snackbar = useSnackbar();
  return useMutation({
    mutationFn: (file: ContractFileDto) => downloadContractFile(kind, contractId, file._id),
    onSuccess: ({ blob, fileName }, file) => saveBlob(blob, fileName || file.originalnoIme),
    onError: (error) => snackbar.error(messageOf(error, UI.downloadFailed), DOCUMENT_NOTICE_MS),
  });
}

type ListProps = {
  kind: ContractKind;
  contractId: string;
  files: readonly ContractFileDto[];
  /** Names are shortened to this many characters. */
  nameMax: number;
  /** Offers removal of each document (the edit dialog). */
  onRemove?: (file: ContractFileDto) => void;
  removeDisabled?: boolean;
};

/** A contract's documents, each downloadable (and removable in the edit dialog). */
export function DocumentList({ kind, contractId, files, nameMax, onRemove, removeDisabled }: ListProps) {
  const fetchFile = useDocumentDownload(kind, contractId);
  if (files.length === 0) return <Typography color="text.secondary">{UI.noDocuments}</Typography>;
  return (
    <Stack component="ul" aria-label={UI.documents} spacing={0.5} sx={{ m: 0, p: 0, listStyle: 'none' }}>
      {files.map((file) => (
        <Stack component="li" key={file._id} direction="row" spacing={0.5} alignItems="center">
          <Tooltip title={file.originalnoIme}>
            <Button
              size="small"
              startIcon={<DownloadIcon />}
              aria-label={`${UI.download}: ${file.originalnoIme}`}
              disabled={fetchFile.isPending && fetchFile.variables?._id === file._id}
              onClick={() => fetchFile.mutate(file)}
              sx={{ textAlign: 'left', justifyContent: 'flex-start', textTransform: 'none' }}
            >
              {shortName(file.originalnoIme, nameMax)}
            </Button>
          </Tooltip>
          {onRemove && (
            <Tooltip title={CONTRACT_LABELS.removeDocument}>
              <span>
                <IconButton
                  size="small"
                  color="error"
                  aria-label={`${CONTRACT_LABELS.removeDocument}: ${file.originalnoIme}`}
                  disabled={removeDisabled}
                  onClick={() => onRemove(file)}
                >
                  <DeleteIcon fontSize="small" />
                </IconButton>
              </span>
            </Tooltip>
          )}
        </Stack>
      ))}
    </Stack>
  );
}
