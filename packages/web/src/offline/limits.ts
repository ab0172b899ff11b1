/**
 * What the device may keep for changes waiting to be sent (queue.ts), apart from the queue itself so the
 * screens can name the bound and recognise its refusal without loading the queue.
 */

/** The most the device keeps for changes waiting to be sent (files included), unless configured otherwise. */
export const QUEUE_MAX_BYTES = 200 * 1024 * 1024;

let maxBytes = QUEUE_MAX_BYTES;

/** What the device may keep for the queue (bytes); the default is QUEUE_MAX_BYTES. */
export function queueLimit(): number {
  return maxBytes;
}

export function configureQueue(options: { maxBytes?: number }): void {
  maxBytes = options.maxBytes ?? QUEUE_MAX_BYTES;
}

/** A change that does not fit in what the device may keep (queueLimit(), or the browser's quota). */
export class QueueFull extends Error {
  constructor(
    readonly bytes: number,
    readonly free: number,
  ) {
    super('queue full');
    this.name = 'QueueFull';
  }
}
