import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useSnackbar } from '../components/SnackbarProvider';
import { onQueueRefused, onQueueSent, setQueueOwner, startQueue } from './queue';
import { QUEUE_TEXTS } from './texts';

/**
 * The signed-in part of the app runs the queue: the user owns it (their changes are sent, another user's
 * removed), sending starts on open and on reconnect, the screens read the server again after changes were
 * sent, and a refused change is announced (it stays in the list with its reason).
 */
export function useQueueRunner(userId: string): void {
  const queryClient = useQueryClient();
  const snackbar = useSnackbar();
  useEffect(() => {
    startQueue();
    void setQueueOwner(userId);
    return () => void setQueueOwner(null);
  }, [userId]);
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const refresh = () => {
      clearTimeout(timer);
      timer = setTimeout(() => void queryClient.invalidateQueries(), 300);
    };
    const offSent = onQueueSent(refresh);
    const offRefused = onQueueRefused((item) => {
      snackbar.error(QUEUE_TEXTS.refusedNotice(item.refusal?.message ?? ''), 8000);
      refresh();
    });
    return () => {
      clearTimeout(timer);
      offSent();
      offRefused();
    };
  }, [queryClient, snackbar]);
}
