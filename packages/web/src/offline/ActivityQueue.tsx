import { Paper, Typography } from '@mui/material';
import { QueueItems } from './QueueItems';
import { useQueue } from './queue';
import { QUEUE_TEXTS } from './texts';

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
      <QueueItems items={items} sending={queue.sending} withActivity={false} label={QUEUE_TEXTS.forActivity} />
    </Paper>
  );
}
