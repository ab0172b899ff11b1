import { Alert, Button, Dialog, DialogActions, DialogContent, DialogTitle, Stack, Typography, useMediaQuery } from '@mui/material';
import { useId } from 'react';
import { UI } from '../texts';
import { QUEUE_LIST_TEXTS } from './listTexts';
import { QueueItems } from './QueueItems';
import { flushQueue, isWaiting, queuedBytes, queueLimit, useQueue } from './queue';

/** Why sending stopped, in words. */
function PauseNote() {
  const { paused, sending } = useQueue();
  if (sending)
    return (
      <Alert severity="info" role="status">
        {QUEUE_LIST_TEXTS.sending(sending.done, sending.total)}
      </Alert>
    );
  if (!paused) return null;
  const text =
    paused === 'offline'
      ? QUEUE_LIST_TEXTS.pausedOffline
      : paused === 'signedOut'
        ? QUEUE_LIST_TEXTS.pausedSignedOut
        : QUEUE_LIST_TEXTS.pausedServer;
  return (
    <Alert severity="warning" role="status">
      {text}
    </Alert>
  );
}

/** The list of the changes kept on the device (opened from the top bar; its own chunk, loaded when opened). */
export function QueueDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const queue = useQueue();
  const titleId = useId();
  const phone = useMediaQuery('(max-width:549.95px)', { noSsr: true });
  const waiting = queue.items.filter(isWaiting).length;
  return (
    <Dialog open={open} onClose={onClose} aria-labelledby={titleId} fullScreen={phone} maxWidth="md" fullWidth>
      <DialogTitle id={titleId}>{QUEUE_LIST_TEXTS.title}</DialogTitle>
      <DialogContent>
        <Stack spacing={2}>
          <Typography variant="body2">{QUEUE_LIST_TEXTS.intro}</Typography>
          <PauseNote />
          {queue.items.length === 0 ? (
            <Typography color="text.secondary">{QUEUE_LIST_TEXTS.empty}</Typography>
          ) : (
            <QueueItems items={queue.items} sending={queue.sending} label={QUEUE_LIST_TEXTS.title} />
          )}
          <Typography variant="caption" color="text.secondary">
            {QUEUE_LIST_TEXTS.used(queuedBytes(), queueLimit())}
          </Typography>
        </Stack>
      </DialogContent>
      <DialogActions>
        {waiting > 0 && (
          <Button onClick={() => void flushQueue()} disabled={queue.sending !== null}>
            {QUEUE_LIST_TEXTS.sendNow}
          </Button>
        )}
        <Button onClick={onClose}>{UI.close}</Button>
      </DialogActions>
    </Dialog>
  );
}
