import CloudOffIcon from '@mui/icons-material/CloudOff';
import CloudUploadIcon from '@mui/icons-material/CloudUpload';
import ErrorIcon from '@mui/icons-material/Error';
import { Alert, Button, Dialog, DialogActions, DialogContent, DialogTitle, Stack, Typography, useMediaQuery } from '@mui/material';
import { useId, useState } from 'react';
import { UI } from '../texts';
import { QueueItems } from './QueueItems';
import { flushQueue, isWaiting, queuedBytes, queueLimit, useQueue } from './queue';
import { QUEUE_TEXTS } from './texts';

/** Why sending stopped, in words. */
function PauseNote() {
  const { paused, sending } = useQueue();
  if (sending)
    return (
      <Alert severity="info" role="status">
        {QUEUE_TEXTS.sending(sending.done, sending.total)}
      </Alert>
    );
  if (!paused) return null;
  const text =
    paused === 'offline' ? QUEUE_TEXTS.pausedOffline : paused === 'signedOut' ? QUEUE_TEXTS.pausedSignedOut : QUEUE_TEXTS.pausedServer;
  return (
    <Alert severity="warning" role="status">
      {text}
    </Alert>
  );
}

/**
 * The top bar's 'На чекању: N' (changes kept on the device) and 'Није примењено: M' (refused ones, until
 * dismissed); nothing while there are none. It opens the list: progress, the reasons, copying the text
 * back, downloading a kept file, removing a change.
 */
export function QueueStatus() {
  const queue = useQueue();
  const [open, setOpen] = useState(false);
  const titleId = useId();
  const phone = useMediaQuery('(max-width:549.95px)', { noSsr: true });
  const waiting = queue.items.filter(isWaiting).length;
  const refused = queue.items.length - waiting;
  if (queue.items.length === 0 && !open) return null;
  return (
    <>
      <Stack direction="row" spacing={0.5} sx={{ flexShrink: 0 }}>
        {waiting > 0 && (
          <Button
            size="small"
            variant="outlined"
            color="inherit"
            startIcon={queue.paused === 'offline' ? <CloudOffIcon /> : <CloudUploadIcon />}
            onClick={() => setOpen(true)}
            aria-haspopup="dialog"
            sx={{ whiteSpace: 'nowrap', borderColor: 'rgba(255,255,255,0.7)' }}
          >
            {QUEUE_TEXTS.pendingCount(waiting)}
          </Button>
        )}
        {refused > 0 && (
          <Button
            size="small"
            variant="contained"
            color="error"
            startIcon={<ErrorIcon />}
            onClick={() => setOpen(true)}
            aria-haspopup="dialog"
            sx={{ whiteSpace: 'nowrap' }}
          >
            {QUEUE_TEXTS.refusedCount(refused)}
          </Button>
        )}
      </Stack>
      <Dialog open={open} onClose={() => setOpen(false)} aria-labelledby={titleId} fullScreen={phone} maxWidth="md" fullWidth>
        <DialogTitle id={titleId}>{QUEUE_TEXTS.title}</DialogTitle>
        <DialogContent>
          <Stack spacing={2}>
            <Typography variant="body2">{QUEUE_TEXTS.intro}</Typography>
            <PauseNote />
            {queue.items.length === 0 ? (
              <Typography color="text.secondary">{QUEUE_TEXTS.empty}</Typography>
            ) : (
              <QueueItems items={queue.items} sending={queue.sending} label={QUEUE_TEXTS.title} />
            )}
            <Typography variant="caption" color="text.secondary">
              {QUEUE_TEXTS.used(queuedBytes(), queueLimit())}
            </Typography>
          </Stack>
        </DialogContent>
        <DialogActions>
          {waiting > 0 && (
            <Button onClick={() => void flushQueue()} disabled={queue.sending !== null}>
              {QUEUE_TEXTS.sendNow}
            </Button>
          )}
          <Button onClick={() => setOpen(false)}>{UI.close}</Button>
        </DialogActions>
      </Dialog>
    </>
  );
}
