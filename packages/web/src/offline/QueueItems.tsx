import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutline';
import DownloadIcon from '@mui/icons-material/Download';
import { Alert, Box, Button, LinearProgress, Link, Stack, TextField, Typography } from '@mui/material';
import { appPath, formatDate, formatQuantity } from '@trasa/domain';
import { useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { saveBlob } from '../api/client';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { useSnackbar } from '../components/SnackbarProvider';
import { catalogueText } from '../shipped';
import { QUEUE_LIST_TEXTS } from './listTexts';
import { dismiss, type QueuedItem, type QueueState } from './queue';

const pad = (n: number) => String(n).padStart(2, '0');

function madeAt(ms: number): string {
  const d = new Date(ms);
  return `${formatDate(d)} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

const kb = (bytes: number) => formatQuantity(Math.max(1, Math.round(bytes / 1024)), 'KB');

/** The text a change carries, as the user can copy it back: each data item on a line, or the comment. */
export function changeText(item: QueuedItem): string {
  const { change } = item;
  if (change.kind === 'comment') return change.komentar;
  if (change.kind === 'data') return change.podaci.map((d) => `${d.naziv || d.key}: ${d.vrednost ?? ''}`).join('\n');
  return change.files.map((f) => f.name).join('\n');
}

function kindLabel(item: QueuedItem): string {
  if (item.change.kind === 'data') return QUEUE_LIST_TEXTS.kindData;
  if (item.change.kind === 'comment') return QUEUE_LIST_TEXTS.kindComment;
  return QUEUE_LIST_TEXTS.kindUpload;
}

async function copy(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * The activity as kept with the change ('A2 - Usaglašavanje trase …', the catalogue's name as the server
 * gave it) in the user's script, as headings show it (shipped.ts activityTitle): the code as it is.
 */
function shownTitle(title: string): string {
  const at = title.indexOf(' - ');
  return at < 0 ? catalogueText(title) : `${title.slice(0, at)} - ${catalogueText(title.slice(at + 3))}`;
}

/** One kept change: what it is, for which activity, its state (waiting, being sent, refused and why) and what the user may do. */
function QueueItem({ item, sending, withActivity }: { item: QueuedItem; sending: QueueState['sending']; withActivity: boolean }) {
  const snackbar = useSnackbar();
  const [confirming, setConfirming] = useState(false);
  const beingSent = sending?.id === item.id;
  const text = changeText(item);
  const { change } = item;
  return (
    <Box
      component="li"
      aria-label={`${kindLabel(item)}: ${shownTitle(item.title)}`}
      sx={{ border: 1, borderColor: item.refusal ? 'error.main' : 'divider', borderRadius: 1, p: 1.5, listStyle: 'none' }}
    >
      <Stack spacing={1}>
        <Stack direction="row" spacing={1} flexWrap="wrap" useFlexGap alignItems="baseline">
          <Typography component="span" sx={{ fontWeight: 700 }}>
            {kindLabel(item)}
          </Typography>
          {withActivity && (
            <Link component={RouterLink} to={appPath('activity', { id: item.activityId })} sx={{ overflowWrap: 'anywhere' }}>
              {shownTitle(item.title)}
            </Link>
          )}
          {withActivity && item.cluster && (
            <Typography component="span" variant="body2" color="text.secondary">
              {item.cluster}
            </Typography>
          )}
          <Typography component="span" variant="body2" color="text.secondary">
            {`${QUEUE_LIST_TEXTS.madeAt} ${madeAt(item.madeAt)}`}
          </Typography>
        </Stack>
        {item.refusal ? (
          <Alert severity="error" role="alert">
            {QUEUE_LIST_TEXTS.refusedWhy(item.refusal.message)}
          </Alert>
        ) : (
          <Typography variant="body2" color="text.secondary" role="status">
            {beingSent ? QUEUE_LIST_TEXTS.beingSent : QUEUE_LIST_TEXTS.waiting}
          </Typography>
        )}
        {beingSent && (
          <LinearProgress
            aria-label={QUEUE_LIST_TEXTS.sending(sending.done, sending.total)}
            variant={sending.percent === null ? 'indeterminate' : 'determinate'}
            value={sending.percent ?? 0}
          />
        )}
        {change.kind === 'upload' ? (
          <Stack component="ul" spacing={0.5} sx={{ m: 0, p: 0, listStyle: 'none' }}>
            {change.files.map((f) => (
              <Stack
                component="li"
                key={`${f.name}|${f.blob.size}`}
                direction="row"
                spacing={1}
                alignItems="center"
                flexWrap="wrap"
                useFlexGap
              >
                <Typography variant="body2" sx={{ overflowWrap: 'anywhere' }}>
                  {`${f.name} (${kb(f.blob.size)})`}
                </Typography>
                <Button
                  size="small"
                  startIcon={<DownloadIcon />}
                  onClick={() => saveBlob(f.blob, f.name)}
                  aria-label={`${QUEUE_LIST_TEXTS.downloadFile}: ${f.name}`}
                >
                  {QUEUE_LIST_TEXTS.downloadFile}
                </Button>
              </Stack>
            ))}
          </Stack>
        ) : (
          <TextField value={text} multiline size="small" label={kindLabel(item)} slotProps={{ htmlInput: { readOnly: true } }} fullWidth />
        )}
        <Stack direction="row" spacing={1} flexWrap="wrap" useFlexGap>
          {change.kind !== 'upload' && (
            <Button
              size="small"
              startIcon={<ContentCopyIcon />}
              onClick={async () =>
                (await copy(text)) ? snackbar.success(QUEUE_LIST_TEXTS.copied) : snackbar.error(QUEUE_LIST_TEXTS.copyFailed, 5000)
              }
            >
              {QUEUE_LIST_TEXTS.copyText}
            </Button>
          )}
          <Button size="small" color="error" startIcon={<DeleteOutlineIcon />} disabled={beingSent} onClick={() => setConfirming(true)}>
            {QUEUE_LIST_TEXTS.dismiss}
          </Button>
        </Stack>
      </Stack>
      <ConfirmDialog
        open={confirming}
        title={QUEUE_LIST_TEXTS.dismissConfirm}
        text={QUEUE_LIST_TEXTS.dismissNote}
        onConfirm={() => {
          setConfirming(false);
          void dismiss(item.id);
        }}
        onClose={() => setConfirming(false)}
      />
    </Box>
  );
}

/** Kept changes, oldest first (refused ones first of all: they wait for the user). */
export function QueueItems({
  items,
  sending,
  withActivity = true,
  label,
}: {
  items: readonly QueuedItem[];
  sending: QueueState['sending'];
  withActivity?: boolean;
  label: string;
}) {
  const ordered = [...items.filter((i) => i.refusal), ...items.filter((i) => !i.refusal)];
  return (
    <Stack component="ul" aria-label={label} spacing={1.5} sx={{ m: 0, p: 0 }}>
      {ordered.map((item) => (
        <QueueItem key={item.id} item={item} sending={sending} withActivity={withActivity} />
      ))}
    </Stack>
  );
}
