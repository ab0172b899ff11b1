import type { UserDto } from '@trasa/domain';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, inject, test } from 'vitest';
import { getMyProfile } from '../api/account';
import { getActivity } from '../api/activities';
import { ApiError, observeCalls, request } from '../api/client';
import { getToken } from '../api/token';
import { signIn } from '../testing/app';
import { deviceCopy } from './deviceCopy';
import { activityPath, forgetServed, PROFILE_PATH, servedFromDevice, userIdOfToken } from './kept';
import { isOnline } from './network';
import type { QueuedItem } from './queueDb';
import { onSignedOut, signedOut } from './session';
import { clearStore, countRecords, KEEP_MS, keepAnswer, openStore, pruneAnswers, putWorkerSession, readAnswer } from './store';

/**
 * The device's copy (IndexedDB 'trasa-offline', in Chromium) and the API client's use of it against the
 * real server: what is kept, for whom and how long, the answer from the device when the network is gone,
 * and what a sign-out and a refused token clear.
 */

/** A waiting change as the queue keeps it (queueDb.ts). */
const change = (userId: string, komentar: string): QueuedItem =>
  ({
    userId,
    activityId: 'a',
    title: 'A2',
    cluster: 'K',
    stanje: { status: 'U toku', revizija: 0 },
    change: { kind: 'comment', komentar },
    bytes: 600,
    madeAt: Date.now(),
  }) as QueuedItem;

/** The network gone: every fetch of the page fails as the browser's does without one (a TypeError). */
function networkDown(): () => void {
  const original = window.fetch;
  window.fetch = () => Promise.reject(new TypeError('Failed to fetch'));
  return () => {
    window.fetch = original;
  };
}

beforeEach(async () => {
  forgetServed();
  await clearStore();
});
afterAll(async () => {
  await clearStore();
});

describe('the store', () => {
  test('keeps answers per user and path, and reads back only the same user’s for seven days', async () => {
    const now = Date.now();
    await keepAnswer('a', '/activity/1', { n: 1 }, () => true, now);
    await keepAnswer('b', '/activity/1', { n: 2 }, () => true, now);
    expect((await readAnswer('a', '/activity/1', now))?.data).toEqual({ n: 1 });
    expect((await readAnswer('b', '/activity/1', now))?.data).toEqual({ n: 2 });
    expect(await readAnswer('a', '/activity/2', now)).toBeUndefined();
    // Seven days after it was saved it is still shown; a moment later not.
    expect(await readAnswer('a', '/activity/1', now + KEEP_MS)).toBeDefined();
    expect(await readAnswer('a', '/activity/1', now + KEEP_MS + 1)).toBeUndefined();
  });

  test('does not keep an answer whose session ended before the write', async () => {
    await keepAnswer('a', '/activity/1', { n: 1 }, () => false);
    expect(await countRecords()).toEqual({ answers: 0, changes: 0, session: 0 });
  });

  test('pruning removes other users’ and week-old answers, never the queue', async () => {
    const now = Date.now();
    await keepAnswer('a', '/activity/1', 1, () => true, now);
    await keepAnswer('a', '/activity/old', 2, () => true, now - KEEP_MS - 1);
    await keepAnswer('b', '/activity/1', 3, () => true, now);
    const db = await openStore();
    await db.add('changes', change('b', 'x'));
    expect(await pruneAnswers('a', now)).toBe(2);
    expect(await countRecords()).toEqual({ answers: 1, changes: 1, session: 0 });
    expect((await readAnswer('a', '/activity/1', now))?.data).toBe(1);
  });

  test('the waiting changes are numbered in the order they are added', async () => {
    const db = await openStore();
    const first = await db.add('changes', change('a', 'prvi'));
    const second = await db.add('changes', change('a', 'drugi'));
    expect(second).toBeGreaterThan(first);
    expect((await db.getAll('changes')).map((e) => e.change)).toEqual([
      { kind: 'comment', komentar: 'prvi' },
      { kind: 'comment', komentar: 'drugi' },
    ]);
  });
});

describe('the API client with the device’s copy', () => {
  let user: UserDto;
  let restore: (() => void) | null = null;
  beforeAll(async () => {
    user = await signIn('contractor');
    observeCalls(deviceCopy);
  });
  afterEach(() => {
    restore?.();
    restore = null;
  });

  test('reads the signed-in user from the token', () => {
    expect(userIdOfToken(getToken())).toBe(user._id);
    expect(userIdOfToken('not-a-token')).toBeNull();
  });

  test('keeps an opened activity and answers it from the device, with its time, when the network is gone', async () => {
    const id = inject('activityA2Id');
    const online = await getActivity(id);
    await expect.poll(async () => (await readAnswer(user._id, activityPath(id)))?.data).toEqual(online);
    expect(servedFromDevice(activityPath(id))).toBeNull();

    restore = networkDown();
    const offline = await request<unknown>(activityPath(id));
    expect(offline.data).toEqual(online);
    expect(offline.keptAt).toBeGreaterThan(Date.now() - 60_000);
    expect(servedFromDevice(activityPath(id))).toBe(offline.keptAt);
    expect(isOnline()).toBe(false);

    // The network back: its answer replaces the device's, the screen's mark goes.
    restore();
    restore = null;
    await getActivity(id);
    expect(isOnline()).toBe(true);
    expect(servedFromDevice(activityPath(id))).toBeNull();
  });

  test('an activity never opened, and a kind it does not keep, fail as a network error', async () => {
    await getMyProfile();
    await expect.poll(async () => (await countRecords()).answers).toBe(1);
    restore = networkDown();
    const notOpened = await getActivity('00000000-0000-4000-8000-000000000000').catch((e: unknown) => e);
    expect(notOpened).toBeInstanceOf(ApiError);
    expect((notOpened as ApiError).status).toBe(0);
    const users = await request('/user').catch((e: unknown) => e);
    expect((users as ApiError).status).toBe(0);
    // The profile is kept: an offline start signs no one out.
    expect((await getMyProfile())._id).toBe(user._id);
    expect(servedFromDevice(PROFILE_PATH)).not.toBeNull();
  });

  test('a refused token clears the kept answers and the worker’s session and keeps the queue; signing out clears everything', async () => {
    await getMyProfile();
    await expect.poll(async () => (await countRecords()).answers).toBe(1);
    const db = await openStore();
    await db.add('changes', change(user._id, 'na terenu'));
    await putWorkerSession({ userId: user._id, token: getToken() ?? '', script: 'cyr' });
    const heard: string[] = [];
    const stop = onSignedOut((reason, userId) => {
      heard.push(`${reason}:${userId === user._id}`);
    });
    await signedOut('rejected', user._id);
    expect(await countRecords()).toEqual({ answers: 0, changes: 1, session: 0 });
    await putWorkerSession({ userId: user._id, token: getToken() ?? '', script: 'cyr' });
    await signedOut('signOut', user._id);
    expect(await countRecords()).toEqual({ answers: 0, changes: 0, session: 0 });
    stop();
    expect(heard).toEqual(['rejected:true', 'signOut:true']);
  });
});
