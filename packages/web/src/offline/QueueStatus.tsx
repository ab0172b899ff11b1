import CloudOffIcon from '@mui/icons-material/CloudOff';
import CloudUploadIcon from '@mui/icons-material/CloudUpload';
import ErrorIcon from '@mui/icons-material/Error';
import { Box, Button, IconButton, Stack, useMediaQuery } from '@mui/material';
import { lazy, Suspense, useEffect, useState } from 'react';
import { isWaiting, useQueue } from './queue';
import { QUEUE_TEXTS } from './texts';
import { useQueueRunner } from './useQueueRunner';

const QueueDialog = lazy(async () => ({ default: (await import('./QueueDialog')).QueueDialog }));

/** The count beside an icon of the phone's bar (the button's name says it in words). */
function Count({ n, error = false }: { n: number; error?: boolean }) {
  return (
    <Box
      component="span"
      aria-hidden
      sx={{
        ml: 0.25,
        px: 0.5,
        minWidth: 18,
        borderRadius: 9,
        fontSize: '0.75rem',
        fontWeight: 700,
        lineHeight: '18px',
        bgcolor: error ? 'error.main' : 'common.white',
        color: error ? 'common.white' : 'text.primary',
      }}
    >
      {n > 99 ? '99+' : n}
    </Box>
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
  const phone = useMediaQuery('(max-width:549.95px)', { noSsr: true });
  const waiting = queue.items.filter(isWaiting).length;
  const refused = queue.items.length - waiting;
  if (queue.items.length === 0 && !open) return null;
  return (
    <>
      <Stack direction="row" spacing={0.5} sx={{ flexShrink: 0 }}>
        {waiting > 0 &&
          (phone ? (
            // On a phone the bar has no room for the words: the icon and the count, the words its name.
            <IconButton
              size="small"
              color="inherit"
              aria-label={QUEUE_TEXTS.pendingCount(waiting)}
              aria-haspopup="dialog"
              onClick={() => setOpen(true)}
            >
              {queue.paused === 'offline' ? <CloudOffIcon /> : <CloudUploadIcon />}
              <Count n={waiting} />
            </IconButton>
          ) : (
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
          ))}
        {refused > 0 &&
          (phone ? (
            <IconButton
              size="small"
              color="inherit"
              aria-label={QUEUE_TEXTS.refusedCount(refused)}
              aria-haspopup="dialog"
              onClick={() => setOpen(true)}
            >
              <ErrorIcon />
              <Count n={refused} error />
            </IconButton>
          ) : (
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
          ))}
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
