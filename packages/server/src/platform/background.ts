import type { Logger } from 'pino';

const pending = new Set<Promise<void>>();

/**
 * Work done after the answer (mail of the public account forms): the answer takes the same time
 * whatever the work finds, so its timing tells nothing. A failure is logged, never answered.
 */
export function afterReply(log: Logger, what: string, work: () => Promise<void>): void {
  const p: Promise<void> = work()
    .catch((err) => log.error({ err }, `${what} failed`))
    .finally(() => pending.delete(p));
  pending.add(p);
}

/** Resolves when all work started by `afterReply` has finished (tests; a graceful stop). */
export async function backgroundSettled(): Promise<void> {
  while (pending.size > 0) await Promise.allSettled([...pending]);
}
