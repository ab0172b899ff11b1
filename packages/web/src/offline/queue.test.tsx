import { type ActivityDto, DATA_KEYS, type UserDto } from '@trasa/domain';
import { afterAll, beforeAll, beforeEach, expect, inject, test } from 'vitest';
import { getActivity, stateOf } from '../api/activities';
import { IDEMPOTENCY_HEADER, requestOfChange } from '../api/activityChanges';
import { ApiError } from '../api/client';
import { getToken, setToken } from '../api/token';
import { ACTIVITIES } from '../messages';
import { signIn } from '../testing/app';
import { askPages, type PageClient, sendFromWorker } from './backgroundSync';
import {
  clearQueue,
  configureQueue,
  dismiss,
  getQueueState,
  type NewChange,
  onQueueSent,
  type QueuedItem,
  QueueFull,
  setQueueOwner,
  startQueue,
  submitChange,
} from './queue';
import { addItem, deleteItem, FORMER_QUEUE_DB, moveFormerQueue, readItems } from './queueDb';
import { putWorkerSession, readWorkerSession } from './store';

/**
 * The queue of changes made without signal (queue.ts), in Chromium against the real server, as the
 * contractor responsible for the demo's A2 in 'Užice 1 - Kremna': kept on the device in the order made,
 * sent in that order when the network returns, refusals kept with the server's reason, bounded, cleared on
 * sign-out. The network's absence is the browser's (navigator.onLine, the 'online' event) or a failed fetch.
 * The service worker's sender (backgroundSync.ts) runs here in the page: it uses nothing a page has and a
 * worker lacks.
 */

const id = inject('activityA2Id');
const tag = Math.random().toString(36).slice(2, 8);
let user: UserDto;
let activity: ActivityDto;
let online = true;

const goOffline = () => {
  online = false;
  window.dispatchEvent(new Event('offline'));
};
const goOnline = () => {
  online = true;
  window.dispatchEvent(new Event('online'));
};

const base = (): Omit<NewChange, 'change'> => ({
  activityId: id,
  title: `${activity.kratakNaziv} - ${activity.naziv}`,
  cluster: activity.lokacija.naziv,
  stanje: stateOf(activity),
});
const comment = (komentar: string, over: Partial<NewChange> = {}): NewChange => ({
  ...base(),
  change: { kind: 'comment', komentar },
  ...over,
});
const fee = (naziv: string, vrednost: string): NewChange => ({
  ...base(),
  change: { kind: 'data', podaci: [{ key: DATA_KEYS.extraFee, naziv, vrednost }] },
});

async function queued(change: NewChange): Promise<QueuedItem> {
  const result = await submitChange(change);
  if (!('queued' in result)) throw new Error('sent at once, not queued');
  return result.queued;
}

const waitingCount = () => getQueueState().items.filter((i) => !i.refusal).length;

async function server(): Promise<ActivityDto> {
  return (await getActivity(id)).activity;
}

beforeAll(async () => {
  Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => online });
  user = await signIn('contractor');
  activity = await server();
  await clearQueue();
  startQueue();
  await setQueueOwner(user._id);
});

beforeEach(() => {
  online = true;
});

afterAll(async () => {
  configureQueue({});
  await clearQueue();
});

test('changes made offline are kept on the device in order, survive a restart, and are sent in that order on reconnect', async () => {
  goOffline();
  const first = await queued(comment(`Prvi na čekanju ${tag}`));
  const second = await queued(fee(`Taksa na čekanju ${tag}`, '100'));
  const third = await queued(comment(`Treći na čekanju ${tag}`));
  expect(getQueueState().items.map((i) => i.id)).toEqual([first.id, second.id, third.id]);

  // What the device keeps, read afresh: the same changes, in the same order, for this user.
  const kept = await readItems();
  expect(kept.map((i) => [i.id, i.change.kind, i.userId])).toEqual([
    [first.id, 'comment', user._id],
    [second.id, 'data', user._id],
    [third.id, 'comment', user._id],
  ]);
  // The app closed and opened again (offline still): the queue is read back from the device.
  await setQueueOwner(null);
  expect(getQueueState().items).toEqual([]);
  await setQueueOwner(user._id);
  expect(getQueueState().items.map((i) => i.id)).toEqual([first.id, second.id, third.id]);

  const sent: number[] = [];
  const off = onQueueSent((item) => sent.push(item.id));
  goOnline();
  await expect.poll(waitingCount).toBe(0);
  off();
  expect(sent).toEqual([first.id, second.id, third.id]);
  expect(await readItems()).toEqual([]);

  const now = await server();
  const mine = now.komentari.filter((k) => k.komentar.endsWith(tag));
  expect(mine.map((k) => k.komentar)).toEqual([`Prvi na čekanju ${tag}`, `Treći na čekanju ${tag}`]);
  expect(now.podaci).toContainEqual(
    expect.objectContaining({ key: DATA_KEYS.extraFee, naziv: `Taksa na čekanju ${tag}`, vrednost: '100' }),
  );
});

test('a request that never reached the server is queued; a refusal with a reason is the screen’s, as before', async () => {
  const original = window.fetch;
  window.fetch = () => Promise.reject(new TypeError('Failed to fetch'));
  let result: Awaited<ReturnType<typeof submitChange>>;
  try {
    result = await submitChange(comment(`Bez signala ${tag}`));
  } finally {
    window.fetch = original;
  }
  expect('queued' in result).toBe(true);
  expect(waitingCount()).toBe(1);
  goOnline();
  await expect.poll(waitingCount).toBe(0);
  expect((await server()).komentari.map((k) => k.komentar)).toContain(`Bez signala ${tag}`);

  // Online and nothing waiting: sent at once; a 400 is thrown to the screen and nothing is kept.
  const refused = await submitChange(comment('   ')).catch((e: unknown) => e);
  expect(refused).toBeInstanceOf(ApiError);
  expect((refused as ApiError).status).toBe(400);
  expect(await readItems()).toEqual([]);
});

test('autosave values of the same item made one after another are kept as the last one', async () => {
  goOffline();
  const a = await queued(fee(`Taksa kuca ${tag}`, '1'));
  const b = await queued(fee(`Taksa kuca ${tag}`, '12'));
  const c = await queued(fee(`Taksa kuca ${tag}`, '125'));
  expect(b.id).toBe(a.id);
  expect(c.id).toBe(a.id);
  const kept = await readItems();
  expect(kept).toHaveLength(1);
  expect(kept[0]?.change).toEqual({ kind: 'data', podaci: [{ key: DATA_KEYS.extraFee, naziv: `Taksa kuca ${tag}`, vrednost: '125' }] });
  goOnline();
  await expect.poll(waitingCount).toBe(0);
  expect((await server()).podaci).toContainEqual(expect.objectContaining({ naziv: `Taksa kuca ${tag}`, vrednost: '125' }));
});

test('a change that meets a newer state is kept with the server’s reason and its text; the later ones are still sent', async () => {
  goOffline();
  // Written on a revision the activity is no longer in (the server refuses it: 409).
  const stale = await queued(
    comment(`Pisano na staroj reviziji ${tag}`, { stanje: { status: activity.status, revizija: activity.revizija + 1 } }),
  );
  await queued(comment(`Posle sukoba ${tag}`));
  goOnline();
  await expect.poll(waitingCount).toBe(0);
  const items = getQueueState().items;
  expect(items.map((i) => i.id)).toEqual([stale.id]);
  // The server's words, in the script the client asked for.
  expect(items[0]?.refusal).toEqual({ status: 409, message: ACTIVITIES.newRevisionMeanwhile });
  expect(items[0]?.change).toEqual({ kind: 'comment', komentar: `Pisano na staroj reviziji ${tag}` });
  const komentari = (await server()).komentari.map((k) => k.komentar);
  expect(komentari).toContain(`Posle sukoba ${tag}`);
  expect(komentari).not.toContain(`Pisano na staroj reviziji ${tag}`);

  // Kept on the device across a restart, until the user dismisses it.
  await setQueueOwner(null);
  await setQueueOwner(user._id);
  expect(getQueueState().items.map((i) => [i.id, i.refusal?.status])).toEqual([[stale.id, 409]]);
  await dismiss(stale.id);
  expect(await readItems()).toEqual([]);
});

test('a 401 keeps the queue until the same user signs in again', async () => {
  goOffline();
  await queued(comment(`Posle isteka sesije ${tag}`));
  setToken('istekao');
  goOnline();
  await expect.poll(() => getQueueState().paused).toBe('signedOut');
  expect((await readItems()).map((i) => i.refusal)).toEqual([undefined]);
  expect(waitingCount()).toBe(1);

  user = await signIn('contractor');
  await setQueueOwner(user._id);
  await expect.poll(waitingCount).toBe(0);
  expect((await server()).komentari.map((k) => k.komentar)).toContain(`Posle isteka sesije ${tag}`);
});

test('another user signing in removes the changes of the one before', async () => {
  goOffline();
  await queued(comment(`Tuđe ${tag}`));
  await setQueueOwner('00000000-0000-0000-0000-000000000000');
  expect(await readItems()).toEqual([]);
  await setQueueOwner(user._id);
});

test('the device keeps at most the configured amount: what does not fit is refused, nothing of it kept', async () => {
  configureQueue({ maxBytes: 64 * 1024 });
  try {
    goOffline();
    const photo = new File([new Uint8Array(80 * 1024)], 'rov.jpg', { type: 'image/jpeg' });
    const upload: NewChange = {
      ...base(),
      change: {
        kind: 'upload',
        upload: { kratakNaziv: 'A2', locationId: activity.lokacija._id, kontrolna: false, version: activity.version, isRequired: false },
        files: [{ name: photo.name, type: photo.type, blob: photo }],
      },
    };
    const error = await submitChange(upload).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(QueueFull);
    expect(await readItems()).toEqual([]);
    // A small change still fits; then the room left is what it took less.
    const small = await queued(comment(`Staje ${tag}`));
    expect(small.bytes).toBeLessThan(2048);
    await dismiss(small.id);
  } finally {
    configureQueue({});
  }
});

test('the worker sends the session’s user’s waiting changes with its token, keeps a refusal, and never another user’s', async () => {
  goOffline();
  const first = await queued(comment(`Iz pozadine ${tag}`));
  const stale = await queued(
    comment(`Pozadina, stara revizija ${tag}`, { stanje: { status: activity.status, revizija: activity.revizija + 1 } }),
  );
  const { id: _firstId, ...made } = first;
  const otherUser = await addItem({ ...made, userId: '00000000-0000-0000-0000-000000000000' });
  await putWorkerSession({ userId: user._id, token: getToken() ?? '', script: 'cyr' });

  expect(await sendFromWorker()).toBe('done');
  const kept = await readItems();
  expect(kept.map((i) => [i.id, i.refusal?.status])).toEqual([
    [stale.id, 409],
    [otherUser, undefined],
  ]);
  // The server's words in the session's script, as the page keeps them.
  expect(kept[0]?.refusal?.message).toBe(ACTIVITIES.newRevisionMeanwhile);
  const komentari = (await server()).komentari.map((k) => k.komentar);
  expect(komentari).toContain(`Iz pozadine ${tag}`);
  expect(komentari).not.toContain(`Pozadina, stara revizija ${tag}`);
  // Nothing of the user's waits: the worker forgets the token. The page follows through the channel.
  expect(await readWorkerSession()).toBeUndefined();
  await expect.poll(() => getQueueState().items.map((i) => i.id)).toEqual([stale.id]);
  await deleteItem(otherUser);
  await dismiss(stale.id);
});

test('the worker stops on a refused token (forgetting it) and on a network failure (to try again)', async () => {
  goOffline();
  const item = await queued(comment(`Pozadina bez mreže ${tag}`));
  await putWorkerSession({ userId: user._id, token: getToken() ?? '', script: 'cyr' });
  const original = window.fetch;
  window.fetch = () => Promise.reject(new TypeError('Failed to fetch'));
  try {
    expect(await sendFromWorker()).toBe('retry');
  } finally {
    window.fetch = original;
  }
  expect((await readItems()).map((i) => [i.id, i.refusal])).toEqual([[item.id, undefined]]);
  expect(await readWorkerSession()).toBeDefined();

  await putWorkerSession({ userId: user._id, token: 'istekao', script: 'cyr' });
  expect(await sendFromWorker()).toBe('done');
  expect((await readItems()).map((i) => [i.id, i.refusal])).toEqual([[item.id, undefined]]);
  expect(await readWorkerSession()).toBeUndefined();
  await dismiss(item.id);
});

test('the worker hands the sync to an open page that takes it, and sends itself when none answers', async () => {
  const page = (replies: string[]): PageClient => ({
    postMessage: (_message, [port]) => {
      for (const reply of replies) (port as MessagePort).postMessage(reply);
    },
  });
  expect(await askPages([page(['taken', 'done'])])).toBe('done');
  expect(await askPages([page(['taken', 'retry'])])).toBe('retry');
  expect(await askPages([page([]), page(['taken', 'done'])], 200)).toBe('done');
  expect(await askPages([page([])], 200)).toBeNull();
  // This page runs the queue: it answers the worker's request itself.
  const answers: string[] = [];
  const channel = new MessageChannel();
  const replied = new Promise<void>((resolve) => {
    channel.port1.onmessage = (event) => {
      answers.push(String(event.data));
      if (event.data !== 'taken') resolve();
    };
  });
  navigator.serviceWorker.dispatchEvent(new MessageEvent('message', { data: 'QUEUE_SYNC', ports: [channel.port2] }));
  await replied;
  expect(answers).toEqual(['taken', 'done']);
});

test('changes kept in the former database move into the device’s one, in their order, and it is deleted', async () => {
  const other = '00000000-0000-0000-0000-000000000000';
  const former = await new Promise<IDBDatabase>((resolve, reject) => {
    const open = indexedDB.open(FORMER_QUEUE_DB, 1);
    open.onupgradeneeded = () => open.result.createObjectStore('changes', { keyPath: 'id', autoIncrement: true });
    open.onsuccess = () => resolve(open.result);
    open.onerror = () => reject(open.error);
  });
  const base = { ...comment(`Stara baza ${tag}`), userId: other, bytes: 600, madeAt: Date.now() };
  await new Promise<void>((resolve, reject) => {
    const tx = former.transaction('changes', 'readwrite');
    tx.objectStore('changes').put({ ...base, id: 9001 });
    tx.objectStore('changes').put({ ...base, id: 9002, change: { kind: 'comment', komentar: 'drugi' } });
    tx.oncomplete = () => resolve();
    tx.onerror = () => reject(tx.error);
  });
  former.close();
  await moveFormerQueue();
  const moved = (await readItems()).filter((i) => i.userId === other);
  expect(moved.map((i) => i.id)).toEqual([9001, 9002]);
  expect((await indexedDB.databases()).map((d) => d.name)).not.toContain(FORMER_QUEUE_DB);
  for (const item of moved) await deleteItem(item.id);
});

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/**
 * The comments' requests go to the server, but the first `lose` answers never reach the sender (the
 * signal dropped after the server applied the change); `keys` gets each request's Idempotency-Key.
 */
function losingAnswers(lose: number, keys: (string | null)[]): () => void {
  const original = window.fetch;
  let left = lose;
  window.fetch = async (input, init) => {
    const response = await original(input, init);
    if (!String(input instanceof Request ? input.url : input).includes('/api/comment/')) return response;
    keys.push(new Headers(init?.headers).get(IDEMPOTENCY_HEADER));
    if (left > 0) {
      left--;
      throw new TypeError('Failed to fetch');
    }
    return response;
  };
  return () => {
    window.fetch = original;
  };
}

const onServer = async (text: string) => (await server()).komentari.filter((k) => k.komentar === text).length;

test('a kept change has its own key, kept on the device; an autosave that replaces the last one gets a new one', async () => {
  goOffline();
  const kept = await queued(comment(`Sa ključem ${tag}`));
  expect(kept.key).toMatch(UUID);
  const a = await queued(fee(`Taksa ključ ${tag}`, '1'));
  const b = await queued(fee(`Taksa ključ ${tag}`, '12'));
  expect(b.id).toBe(a.id);
  expect(b.key).toMatch(UUID);
  expect(b.key).not.toBe(a.key);
  expect(new Set([kept.key, a.key]).size).toBe(2);
  expect((await readItems()).map((i) => [i.id, i.key])).toEqual([
    [kept.id, kept.key],
    [b.id, b.key],
  ]);
  // Every request of a kept change carries its key, the upload's too (the page's and the worker's sender build them here).
  expect(requestOfChange(kept).headers).toEqual({ [IDEMPOTENCY_HEADER]: kept.key });
  const upload = requestOfChange({
    ...kept,
    change: {
      kind: 'upload',
      upload: { kratakNaziv: 'A2', locationId: activity.lokacija._id, kontrolna: false, version: 0, isRequired: false },
      files: [],
    },
  });
  expect(upload.headers).toEqual({ [IDEMPOTENCY_HEADER]: kept.key });
  // One kept before the keys: sent without one.
  const { key: _key, ...before } = kept;
  expect(requestOfChange(before).headers).toEqual({});
  await dismiss(kept.id);
  await dismiss(b.id);
});

test('a change whose answer was lost is sent again with the same key and applied once — by the page, the worker, and a direct send', async () => {
  // The page's sender.
  goOffline();
  const text = `Jednom sa stranice ${tag}`;
  const item = await queued(comment(text));
  const keys: (string | null)[] = [];
  let restore = losingAnswers(1, keys);
  try {
    goOnline();
    await expect.poll(() => keys.length).toBe(1);
    await expect.poll(() => getQueueState().paused).toBe('offline');
    goOnline();
    await expect.poll(waitingCount).toBe(0);
  } finally {
    restore();
  }
  expect(keys).toEqual([item.key, item.key]);
  expect(await onServer(text)).toBe(1);

  // The worker's sender: its answer lost, the change stays; the next sync sends it again.
  goOffline();
  const fromWorker = `Jednom iz pozadine ${tag}`;
  const kept = await queued(comment(fromWorker));
  await putWorkerSession({ userId: user._id, token: getToken() ?? '', script: 'cyr' });
  keys.length = 0;
  restore = losingAnswers(1, keys);
  try {
    expect(await sendFromWorker()).toBe('retry');
    expect((await readItems()).map((i) => i.id)).toEqual([kept.id]);
    expect(await sendFromWorker()).toBe('done');
  } finally {
    restore();
  }
  expect(keys).toEqual([kept.key, kept.key]);
  expect(await readItems()).toEqual([]);
  expect(await onServer(fromWorker)).toBe(1);
  await expect.poll(waitingCount).toBe(0);

  // Sent at once online, its answer lost: kept with the key it was sent with, then sent again.
  online = true;
  const direct = `Jednom odmah ${tag}`;
  keys.length = 0;
  restore = losingAnswers(1, keys);
  try {
    const result = await submitChange(comment(direct));
    if (!('queued' in result)) throw new Error('the lost answer should have kept the change');
    expect(result.queued.key).toBe(keys[0]);
    goOnline();
    await expect.poll(waitingCount).toBe(0);
  } finally {
    restore();
  }
  expect(keys).toHaveLength(2);
  expect(keys[1]).toBe(keys[0]);
  expect(keys[0]).toMatch(UUID);
  expect(await onServer(direct)).toBe(1);
});

test('signing out clears the device: the waiting changes and the worker’s session are gone', async () => {
  goOffline();
  await queued(comment(`Pre odjave ${tag}`));
  await putWorkerSession({ userId: user._id, token: getToken() ?? '', script: 'cyr' });
  await clearQueue();
  expect(getQueueState().items).toEqual([]);
  expect(await readItems()).toEqual([]);
  expect(await readWorkerSession()).toBeUndefined();
  expect((await indexedDB.databases()).map((d) => d.name)).not.toContain(FORMER_QUEUE_DB);
});
