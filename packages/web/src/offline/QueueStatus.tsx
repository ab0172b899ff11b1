import CloudOffIcon from '@mui/icons-material/CloudOff';
import CloudUploadIcon from '@mui/icons-material/CloudUpload';
import ErrorIcon from '@mui/icons-material/Error';
import { Button, Stack } from '@mui/material';
import { lazy, Suspense, useEffect, useState } from 'react';
import { isWaiting, useQueue } from './queue';
import { QUEUE_TEXTS } from './texts';
import { useQueueRunner } from './useQueueRunner';

const QueueDialog = lazy(async () => ({ default: (await import('./QueueDialog')).QueueDialog }));

/**
 * The top bar's 'На чекању: N' (changes kept on the device) and 'Није примењено: M' (refused ones, until
 * dismissed); nothing while there are none. It opens the list: progress, the reasons, copying the text
 * back, downloading a kept file, removing a change.
 */
export function QueueStatus() {
  const queue = useQueue();
  const [open, setOpen] = useState(false);
  const waiting = queue.items.filter(isWaiting).length;
  const refused = queue.items.length - waiting;
  if (queue.items.length === 0 && !open) return null;
  return (
    <>
      {/* On a phone a row of its own under the bar's first (the title has no room to spare beside it). */}
      <Stack
        direction="row"
        spacing={0.5}
        sx={{ flexShrink: 0, order: { xs: 1, sm: 0 }, flexBasis: { xs: '100%', sm: 'auto' }, justifyContent: 'flex-end' }}
      >
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
      {open && (
        <Suspense fallback={null}>
          <QueueDialog open={open} onClose={() => setOpen(false)} />
        </Suspense>
      )}
    </>
  );
}

/**
 * The queue in the signed-in app: it runs (useQueueRunner) and shows itself in the top bar. Loaded by the
 * shell after its first paint, apart from the shell's own code.
 */
export function QueueBar({ userId }: { userId: string }) {
  useQueueRunner(userId);
  // The list's code is fetched now, while there is a network: the list is most needed when there is none.
  useEffect(() => {
    for (const load of [() => import('./QueueDialog'), () => import('./QueueItems'), () => import('./ActivityQueue')])
      load().catch((error) => console.error('loading the queue list failed', error));
  }, []);
  return <QueueStatus />;
}
