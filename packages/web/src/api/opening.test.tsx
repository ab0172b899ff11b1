import { afterEach, beforeAll, expect, test } from 'vitest';
import { getScript } from '../script';
import { signIn, watchApiCalls } from '../testing/app';
import { getMyProfile } from './account';
import { getToken } from './token';

/**
 * The answers src/opening.ts asks for before the application loads: the api client takes one for a GET of
 * the same address with the same token and script, once, instead of asking again; any other call goes to the server.
 */

type Opening = { token: string; script: string; answers: Map<string, Promise<Response>> };
const holder = window as { __trasaOpening?: Opening };

let token = '';
beforeAll(async () => {
  await signIn('admin');
  token = getToken() ?? '';
});

afterEach(() => {
  delete holder.__trasaOpening;
});

function early(body: unknown, forToken = token, script: string = getScript()): Opening {
  const answer = Promise.resolve(new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } }));
  const opening = { token: forToken, script, answers: new Map([['/api/user/my-profile', answer]]) };
  holder.__trasaOpening = opening;
  return opening;
}

test('a GET takes the early answer of its address once, then asks the server', async () => {
  const opening = early({ user: { _id: 'early', ime: 'Рани' } });
  const calls = watchApiCalls();
  try {
    expect((await getMyProfile())._id).toBe('early');
    expect(calls.calls('/api/user/my-profile')).toHaveLength(0);
    expect(opening.answers.size).toBe(0);
    const again = await getMyProfile();
    expect(again._id).not.toBe('early');
    expect(calls.calls('/api/user/my-profile')).toHaveLength(1);
  } finally {
    calls.stop();
  }
});

test('an early answer asked for in the other script is not taken', async () => {
  early({ user: { _id: 'early' } }, token, getScript() === 'cyr' ? 'lat' : 'cyr');
  const calls = watchApiCalls();
  try {
    expect((await getMyProfile())._id).not.toBe('early');
    expect(calls.calls('/api/user/my-profile')).toHaveLength(1);
  } finally {
    calls.stop();
  }
});

test('an early answer asked for with another token is not taken', async () => {
  early({ user: { _id: 'early' } }, 'another-token');
  const calls = watchApiCalls();
  try {
    expect((await getMyProfile())._id).not.toBe('early');
    expect(calls.calls('/api/user/my-profile')).toHaveLength(1);
  } finally {
    calls.stop();
  }
});
