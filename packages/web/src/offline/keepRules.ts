/**
 * What the queue (queue.ts) decides about a change before it keeps it: the bytes it takes on the device,
 * whether it replaces the last waiting change, and whether a failed write means the device is full.
 */
import type { ActivityState, DataItem } from '@trasa/domain';
import type { NewItem, QueuedChange, QueuedItem } from './queueDb';

/** The bytes a change takes on the device. */
export function bytesOf(change: QueuedChange): number {
  if (change.kind === 'upload') return change.files.reduce((sum, f) => sum + f.blob.size, 0) + 512;
  return new Blob([JSON.stringify(change)]).size + 512;
}

const dataKeys = (podaci: readonly DataItem[]) =>
  podaci
    .map((d) => `${d.key}|${d.ref ?? ''}|${d.key === 'DodatnaTaksa' ? d.naziv : ''}`)
    .sort()
    .join('\n');

const sameState = (a: ActivityState, b: ActivityState) => a.status === b.status && a.revizija === b.revizija;

/**
 * Whether `change` replaces `last`, the last kept change (not being sent): both set the same data items of
 * the same activity on the same state, and `last` still waits — autosave writes each pause of typing; only
 * the last value matters, and nothing else stands between them.
 */
export function replaces(
  last: QueuedItem | undefined,
  change: Pick<NewItem, 'activityId' | 'stanje' | 'change'>,
  sendingId: number | undefined,
): last is QueuedItem {
  return (
    change.change.kind === 'data' &&
    last !== undefined &&
    !last.refusal &&
    last.change.kind === 'data' &&
    last.activityId === change.activityId &&
    sendingId !== last.id &&
    sameState(last.stanje, change.stanje) &&
    dataKeys(last.change.podaci) === dataKeys(change.change.podaci)
  );
}

/** A write the browser refused for want of room. */
export function isQuotaError(error: unknown): boolean {
  return error instanceof DOMException && (error.name === 'QuotaExceededError' || error.name === 'UnknownError');
}
