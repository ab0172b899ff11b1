import AttachFileIcon from '@mui/icons-material/AttachFile';
import CloseIcon from '@mui/icons-material/Close';
import DeleteIcon from '@mui/icons-material/Delete';
import DownloadIcon from '@mui/icons-material/Download';
import PhotoCameraIcon from '@mui/icons-material/PhotoCamera';
import UploadIcon from '@mui/icons-material/Upload';
import { Box, Button, IconButton, LinearProgress, Stack, Tooltip, Typography } from '@mui/material';
import { useMutation } from '@tanstack/react-query';
import { type ChangeEvent, useId, useState } from 'react';
import {
  type ActivityAnswer,
  type ActivityDto,
  type ActivityFileDto,
  deleteActivityFile,
  downloadActivityFile,
  stateOf,
} from '../../api/activities';
import { saveBlob } from '../../api/client';
import { messageOf } from '../../api/errors';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { useSnackbar } from '../../components/SnackbarProvider';
import { ACTIVITIES } from '../../messages';
import { QueueFull, queueLimit } from '../../offline/limits';
import { isNetworkError } from '../../offline/network';
import { shrinkPhoto } from '../../offline/photo';
import { submit } from '../../offline/submit';
import { OFFLINE, QUEUE_TEXTS } from '../../offline/texts';
import { shortName } from '../clusters/format';
import { ACTIVITY_LABELS } from './labels';
import { canDeleteFile } from './model';
import { useApplyAnswer } from './queries';

/** The server's limits (docs/api/activities.md "Upload"): 50 MB a file, 10 files a request. */
export const MAX_FILE_BYTES = 50 * 1024 * 1024;
export const MAX_FILES = 10;

/** File names are shortened to 40 characters in lists, 50 in the old-files list (spec 3 §2.1). */
export const FILE_NAME_MAX = 40;
export const OLD_FILE_NAME_MAX = 50;

/**
 * Downloads one document of an activity; a failure is only logged (spec 3 §8), except without a network:
 * the device keeps the list of documents, not their contents, and says so.
 */
export function useFileDownload(locationId: string) {
  const snackbar = useSnackbar();
  return useMutation({
    mutationFn: ({ activityId, file }: { activityId: string; file: ActivityFileDto }) =>
      downloadActivityFile(locationId, activityId, file._id),
    onSuccess: ({ blob, fileName }, { file }) => saveBlob(blob, fileName || file.originalnoIme),
    onError: (error) => {
      console.error('downloading the document failed', error);
      if (isNetworkError(error)) snackbar.error(OFFLINE.documentOffline);
    },
  });
}

type RowProps = {
  file: ActivityFileDto;
  activityId: string;
  locationId: string;
  nameMax?: number;
  /** A note after the name (what the file is for: settlement, test type, holder). */
  note?: string;
  onDelete?: (file: ActivityFileDto) => void;
};

/** One document: its original name (shortened, the whole name in a tooltip), 'Preuzmi' and maybe a delete icon. */
export function FileRow({ file, activityId, locationId, nameMax = FILE_NAME_MAX, note, onDelete }: RowProps) {
  const fetchFile = useFileDownload(locationId);
  return (
    <Stack component="li" direction="row" columnGap={1} alignItems="center" flexWrap="wrap" useFlexGap sx={{ minWidth: 0 }}>
      <AttachFileIcon fontSize="small" color="action" aria-hidden />
      <Tooltip title={file.originalnoIme}>
        <Typography
          variant="body2"
          title={file.originalnoIme}
          sx={{ minWidth: 0, overflowWrap: 'anywhere', flex: { xs: '1 1 160px', sm: '0 1 auto' } }}
          data-testid="file-name"
        >
          {shortName(file.originalnoIme, nameMax)}
          {note && (
            <Typography component="span" variant="body2" color="text.secondary">
              {` · ${note}`}
            </Typography>
          )}
          {!file.isRequired && (
            <Typography component="span" variant="body2" color="text.secondary">
              {` (${ACTIVITY_LABELS.optional})`}
            </Typography>
          )}
        </Typography>
      </Tooltip>
      <Button
        size="small"
        startIcon={<DownloadIcon />}
        aria-label={`${ACTIVITIES.download}: ${file.originalnoIme}`}
        disabled={fetchFile.isPending}
        onClick={() => fetchFile.mutate({ activityId, file })}
        sx={{ flexShrink: 0 }}
      >
        {ACTIVITIES.download}
      </Button>
      {onDelete && (
        <Tooltip title={ACTIVITY_LABELS.deleteFile}>
          <IconButton
            size="small"
            color="error"
            aria-label={`${ACTIVITY_LABELS.deleteFile}: ${file.originalnoIme}`}
            onClick={() => onDelete(file)}
            sx={{ flexShrink: 0 }}
          >
            <DeleteIcon fontSize="small" />
          </IconButton>
        </Tooltip>
      )}
    </Stack>
  );
}

/** Deleting a document of the activity, behind a confirmation: the server's notice; a failure is only logged (spec 3 §8). */
export function useFileDelete(activity: ActivityDto) {
  const snackbar = useSnackbar();
  const apply = useApplyAnswer(activity._id);
  const [deleting, setDeleting] = useState<ActivityFileDto | null>(null);
  const remove = useMutation({
    mutationFn: (file: ActivityFileDto) => deleteActivityFile(activity.lokacija._id, activity._id, file._id),
    onSuccess: async (answer) => {
      setDeleting(null);
      if (answer?.message) snackbar.success(answer.message);
      await apply(answer, true);
    },
    onError: async (error) => {
      setDeleting(null);
      console.error('deleting the document failed', error);
      await apply(null, true);
    },
  });
  const dialog = (
    <ConfirmDialog
      open={deleting !== null}
      title={ACTIVITY_LABELS.deleteFileConfirm}
      text={deleting ? `${deleting.originalnoIme}. ${ACTIVITY_LABELS.deleteFileNote}` : undefined}
      busy={remove.isPending}
      onConfirm={() => deleting && remove.mutate(deleting)}
      onClose={() => setDeleting(null)}
    />
  );
  /** The delete handler for a file, or undefined where deleting is not allowed. */
  const onDeleteFor = (file: ActivityFileDto) => (canDeleteFile(activity, file) ? setDeleting : undefined);
  return { dialog, onDeleteFor };
}

/** The files of a slot (A1 settlement, A7 holder, A20 test type) with download and delete. */
export function SlotFiles({ activity, files, emptyText }: { activity: ActivityDto; files: ActivityFileDto[]; emptyText?: string }) {
  const { dialog, onDeleteFor } = useFileDelete(activity);
  if (files.length === 0)
    return emptyText ? (
      <Typography variant="body2" color="text.secondary">
        {emptyText}
      </Typography>
    ) : null;
  return (
    <>
      <Stack component="ul" spacing={0.5} sx={{ m: 0, p: 0, listStyle: 'none' }}>
        {files.map((f) => (
          <FileRow key={f._id} file={f} activityId={activity._id} locationId={activity.lokacija._id} onDelete={onDeleteFor(f)} />
        ))}
      </Stack>
      {dialog}
    </>
  );
}

type UploadProps = {
  activity: ActivityDto;
  /** Required documents count for the finish rule; extra ones do not. */
  isRequired: boolean;
  /** The slot the file is for (A1 settlement id, A20 test type, A7 holder id). */
  userInput?: string;
  label?: string;
  /** One file (a slot) or several. */
  multiple?: boolean;
  /** Disabled until the input the upload needs is given (A1 settlement, A10.1 date, …). */
  disabled?: boolean;
  /** Names the picker for assistive technology when several are on screen (one per row). */
  ariaLabel?: string;
  compact?: boolean;
};

/**
 * Choose files (or take a photo with the phone's camera: shrunk before it goes anywhere, offline/photo.ts),
 * then send them (multipart PATCH, with the state the page shows) with a progress bar: 'Uspešno dodat
 * dokument.' or the server's message ('Pogrešan tip fajla', 'Fajl je prevelik'), else 'Neuspešno dodavanje
 * dokumenta!'. Without a network the files are kept on the device and sent later (offline/queue.ts); what
 * does not fit there is said, and stays chosen.
 */
export function FileUpload({ activity, isRequired, userInput, label, multiple = true, disabled = false, ariaLabel, compact }: UploadProps) {
  const snackbar = useSnackbar();
  const apply = useApplyAnswer(activity._id);
  const inputId = useId();
  const cameraId = useId();
  const [files, setFiles] = useState<File[]>([]);
  const [progress, setProgress] = useState<number | null>(null);
  const [shrinking, setShrinking] = useState(false);
  const upload = useMutation({
    // Offline too: the change is then kept on the device (offline/queue.ts), not paused in memory.
    networkMode: 'always',
    mutationFn: (chosen: File[]) =>
      submit<ActivityAnswer>(
        {
          activityId: activity._id,
          title: `${activity.kratakNaziv} - ${activity.naziv}`,
          cluster: activity.lokacija.naziv,
          stanje: stateOf(activity),
          change: {
            kind: 'upload',
            upload: {
              kratakNaziv: activity.kratakNaziv,
              locationId: activity.lokacija._id,
              kontrolna: activity.kontrolna,
              version: activity.version,
              isRequired,
              ...(userInput !== undefined && { userInput }),
            },
            files: chosen.map((f) => ({ name: f.name, type: f.type, blob: f })),
          },
        },
        setProgress,
      ),
    onSuccess: async (result) => {
      setFiles([]);
      setProgress(null);
      if ('queued' in result) {
        snackbar.notify(QUEUE_TEXTS.filesQueued, 'info', 5000);
        return;
      }
      snackbar.success(result.sent?.message || ACTIVITIES.uploaded);
      await apply(result.sent, true);
    },
    onError: (error, chosen) => {
      setProgress(null);
      console.error('uploading failed', error);
      if (error instanceof QueueFull) {
        // Kept chosen: the user sends them once the network is back.
        if (multiple) setFiles((old) => [...old, ...chosen.filter((f) => !old.includes(f))]);
        snackbar.error(QUEUE_TEXTS.fileFull(chosen.map((f) => f.name).join(', '), queueLimit()), 8000);
        return;
      }
      snackbar.error(messageOf(error, ACTIVITIES.uploadFailed));
    },
  });
  const add = (chosen: File[]) => {
    if (chosen.length === 0) return;
    // Refused here as the server would refuse them, before anything is sent.
    if (chosen.some((f) => f.size > MAX_FILE_BYTES)) {
      snackbar.error(ACTIVITIES.fileTooLarge);
      return;
    }
    if (files.length + chosen.length > MAX_FILES) {
      snackbar.error(ACTIVITIES.tooManyFiles);
      return;
    }
    if (!multiple) {
      upload.mutate(chosen.slice(0, 1));
      return;
    }
    setFiles((old) => [...old, ...chosen.filter((f) => !old.some((o) => o.name === f.name && o.size === f.size))]);
  };
  const choose = (event: ChangeEvent<HTMLInputElement>) => {
    const chosen = [...(event.target.files ?? [])];
    event.target.value = '';
    add(chosen);
  };
  const photograph = async (event: ChangeEvent<HTMLInputElement>) => {
    const taken = [...(event.target.files ?? [])];
    event.target.value = '';
    if (taken.length === 0) return;
    setShrinking(true);
    try {
      add(await Promise.all(taken.map((f) => shrinkPhoto(f))));
    } catch (error) {
      console.error('shrinking the photo failed', error);
      snackbar.error(QUEUE_TEXTS.photoFailed);
    } finally {
      setShrinking(false);
    }
  };
  const busy = upload.isPending || shrinking;
  const pickerLabel = label ?? (multiple ? ACTIVITY_LABELS.chooseFiles : ACTIVITY_LABELS.chooseFile);
  const cameraLabel = ariaLabel ? `${QUEUE_TEXTS.takePhoto}: ${ariaLabel}` : QUEUE_TEXTS.takePhoto;
  // The phone's camera (a picture picker elsewhere); in a table row only its icon.
  const camera = (
    <Button
      component="label"
      htmlFor={cameraId}
      variant="outlined"
      size={compact ? 'small' : 'medium'}
      startIcon={compact ? undefined : <PhotoCameraIcon />}
      disabled={disabled || busy}
      sx={compact ? { minWidth: 0, px: 1 } : undefined}
    >
      {compact ? <PhotoCameraIcon fontSize="small" titleAccess={cameraLabel} /> : QUEUE_TEXTS.takePhoto}
      <input
        id={cameraId}
        type="file"
        hidden
        accept="image/*"
        capture="environment"
        disabled={disabled || busy}
        onChange={(e) => void photograph(e)}
        aria-label={cameraLabel}
      />
    </Button>
  );
  return (
    <Box>
      <Stack direction="row" spacing={1} alignItems="center" flexWrap="wrap" useFlexGap>
        <Button
          component="label"
          htmlFor={inputId}
          variant="outlined"
          size={compact ? 'small' : 'medium'}
          startIcon={multiple ? <AttachFileIcon /> : <UploadIcon />}
          disabled={disabled || busy}
        >
          {pickerLabel}
          <input
            id={inputId}
            type="file"
            hidden
            multiple={multiple}
            disabled={disabled || busy}
            onChange={choose}
            aria-label={ariaLabel ?? pickerLabel}
          />
        </Button>
        {compact && !(disabled || busy) ? <Tooltip title={cameraLabel}>{camera}</Tooltip> : camera}
        {multiple && files.length > 0 && (
          <Button variant="contained" startIcon={<UploadIcon />} disabled={busy} onClick={() => upload.mutate(files)}>
            {busy ? ACTIVITY_LABELS.uploading : ACTIVITY_LABELS.sendFiles}
          </Button>
        )}
      </Stack>
      {multiple && files.length > 0 && (
        <Stack
          component="ul"
          aria-label={ACTIVITY_LABELS.chosen(files.length)}
          spacing={0.25}
          sx={{ m: 0, mt: 1, p: 0, listStyle: 'none' }}
        >
          {files.map((file) => (
            <Stack component="li" key={`${file.name}|${file.size}`} direction="row" spacing={1} alignItems="center">
              <Typography variant="body2" title={file.name} sx={{ overflowWrap: 'anywhere' }}>
                {shortName(file.name, FILE_NAME_MAX)}
              </Typography>
              <IconButton
                size="small"
                aria-label={`${ACTIVITY_LABELS.removeChosen}: ${file.name}`}
                disabled={busy}
                onClick={() => setFiles((old) => old.filter((f) => f !== file))}
              >
                <CloseIcon fontSize="small" />
              </IconButton>
            </Stack>
          ))}
        </Stack>
      )}
      {progress !== null && (
        <Box sx={{ mt: 1, maxWidth: 360 }}>
          <LinearProgress variant="determinate" value={progress} aria-label={ACTIVITY_LABELS.uploadProgress} />
          <Typography variant="caption" color="text.secondary">
            {progress} %
          </Typography>
        </Box>
      )}
    </Box>
  );
}
