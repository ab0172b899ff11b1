/**
 * The service worker's side of the queue (docs/decisions.md "Offline", Background Sync): on the sync the
 * page registered when it kept a change (queueSync.ts registerBackgroundSync), an open page of the app is asked to
 * send — it shows the progress and reads its screens again — and, with none open (or none answering), the
 * worker sends the waiting changes itself: the same requests (api/activityChanges.ts, each with its change's
 * Idempotency-Key: a change the worker sent but could not remove, sent again, is not applied twice), oldest first, only
 * the changes of the user whose session the page wrote (store.ts `session`), under the same Web Lock as
 * the pages, so nothing is sent twice. A refusal is kept with the server's message, as the page keeps it.
 *
 * Runs in the worker (src/sw.ts): no `window`, no local storage, no XMLHttpRequest.
 */
import { requestOfChange } from '../api/activityChanges';
import { deleteItem, putItem, type QueuedItem, readItems } from './queueDb';
import { pauseOfStatus, QUEUE_CHANNEL, SEND_LOCK, SYNC_REQUEST, type SyncReply } from './sendRules';
import { clearWorkerSession, readWorkerSession, type WorkerSession } from './store';

/** The header naming the user's script (api/client.ts SCRIPT_HEADER): the server words its refusals in it. */
const SCRIPT_HEADER = 'X-Trasa-Pismo';
/** How long an open page has to take the sync before the worker sends itself (a page without the queue running does not answer). */
const PAGE_ANSWER_MS = 10_000;

/** 'done': nothing left the worker may send; 'retry': changes wait and the browser should try again later. */
export type SyncOutcome = 'done' | 'retry';

/** A page of the app that can be messaged (the worker's Client). */
export type PageClient = { postMessage(message: unknown, transfer: Transferable[]): void };

/**
 * Asks the open pages, one at a time, to send; answers null when none took it within PAGE_ANSWER_MS,
 * else what the page said once its sending ended.
 */
export async function askPages(pages: readonly PageClient[], answerMs = PAGE_ANSWER_MS): Promise<SyncOutcome | null> {
  for (const page of pages) {
    const channel = new MessageChannel();
    const outcome = await new Promise<SyncOutcome | null>((resolve) => {
      const timer = setTimeout(() => resolve(null), answerMs);
      channel.port1.onmessage = (event: MessageEvent<SyncReply>) => {
        if (event.data === 'taken') clearTimeout(timer);
        else resolve(event.data);
      };
      page.postMessage(SYNC_REQUEST, [channel.port2]);
    });
    channel.port1.close();
    if (outcome) return outcome;
  }
  return null;
}

async function refusalMessage(response: Response): Promise<string> {
  const body: unknown = await response.json().catch(() => undefined);
  const message = typeof body === 'object' && body !== null && 'message' in body ? body.message : undefined;
  return typeof message === 'string' && message.trim() ? message : `HTTP ${response.status}`;
}

async function sendOne(item: QueuedItem, session: WorkerSession): Promise<Response> {
  const request = requestOfChange(item);
  const headers = new Headers({
    ...request.headers,
    Accept: 'application/json',
    Authorization: `Bearer ${session.token}`,
    [SCRIPT_HEADER]: session.script,
  });
  let body: string | FormData;
  if ('form' in request) body = request.form;
  else {
    headers.set('Content-Type', 'application/json');
    body = JSON.stringify(request.json);
  }
  return fetch(`/api${request.path}`, { method: request.method, headers, body, credentials: 'include' });
}

/** Sends the session's user's waiting changes, oldest first; stops at the first that must wait. */
async function sendWaiting(tell: () => void): Promise<SyncOutcome> {
  const session = await readWorkerSession();
  if (!session) return 'done';
  for (;;) {
    const next = (await readItems()).find((i) => i.userId === session.userId && !i.refusal);
    if (!next) {
      await clearWorkerSession();
      return 'done';
    }
    let response: Response;
    try {
      response = await sendOne(next, session);
    } catch {
      return 'retry';
    }
    if (response.ok) {
      await deleteItem(next.id);
      tell();
      continue;
    }
    const pause = pauseOfStatus(response.status);
    if (pause === 'signedOut') {
      // The token was refused: the changes wait for the same user's next sign-in, in a page.
      await clearWorkerSession();
      return 'done';
    }
    if (pause !== 'refused') return 'retry';
    await putItem({ ...next, refusal: { status: response.status, message: await refusalMessage(response) } });
    tell();
  }
}

/**
 * The worker's own sending, when no page took the sync: under the pages' Web Lock (a page already sending
 * finishes it; the browser's next sync finds the rest), telling the pages through their channel.
 */
export async function sendFromWorker(): Promise<SyncOutcome> {
  const channel = new BroadcastChannel(QUEUE_CHANNEL);
  const tell = () => channel.postMessage('changed');
  try {
    const locks = (globalThis.navigator as Navigator | undefined)?.locks;
    if (!locks) return await sendWaiting(tell);
    return await locks.request(SEND_LOCK, { ifAvailable: true }, async (lock) => (lock ? sendWaiting(tell) : 'retry'));
  } finally {
    channel.close();
  }
}

/** The sync event's work: the pages first, else the worker itself. Rejects when changes still wait (the browser tries again). */
export async function syncQueue(pages: readonly PageClient[]): Promise<void> {
  const outcome = (await askPages(pages)) ?? (await sendFromWorker());
  if (outcome === 'retry') throw new Error('changes still wait for the network');
}
