import { Paper, Typography } from '@mui/material';
import { lazy, Suspense } from 'react';
import { useQueue } from './queue';
import { QUEUE_TEXTS } from './texts';

/** The list's code is loaded only when the activity has changes kept on the device. */
const QueueItems = lazy(async () => ({ default: (await import('./QueueItems')).QueueItems }));

/** On an activity's page: its changes kept on the device (waiting, or refused with the reason); nothing when none. */
export function ActivityQueue({ activityId }: { activityId: string }) {
  const queue = useQueue();
  const items = queue.items.filter((i) => i.activityId === activityId);
  if (items.length === 0) return null;
  return (
    <Paper component="section" aria-label={QUEUE_TEXTS.forActivity} sx={{ p: 2 }}>
      <Typography variant="h3" component="h2" gutterBottom>
        {QUEUE_TEXTS.forActivity}
      </Typography>
      <Suspense fallback={null}>
        <QueueItems items={items} sending={queue.sending} withActivity={false} label={QUEUE_TEXTS.forActivity} />
      </Suspense>
    </Paper>
  );
}
