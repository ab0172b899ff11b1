import { messageOf } from '../api/errors';
import { QueueFull, queueLimit } from './limits';
import { QUEUE_TEXTS } from './texts';

/** A change's failure in words: no room on the device for it, else the server's message or the screen's default. */
export function changeFailedMessage(error: unknown, fallback: string): string {
  if (error instanceof QueueFull) return QUEUE_TEXTS.full(queueLimit());
  return messageOf(error, fallback);
}
