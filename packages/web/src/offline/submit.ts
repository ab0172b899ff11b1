import type { NewChange, Submitted } from './queue';

export type { Submitted } from './queue';

/**
 * A change made on a screen, through the queue (queue.ts submitChange: sent at once, or kept on the device
 * without a network). The queue's code loads with the first change, if the shell has not loaded it yet.
 */
export async function submit<T>(change: NewChange, onProgress?: (percent: number) => void): Promise<Submitted<T>> {
  return (await import('./queue')).submitChange<T>(change, onProgress);
}
