/**
 * What the API client keeps on the device and answers from it when the network fails (docs/decisions.md
 * "Offline"): the signed-in user's profile, notifications, the activities they opened (detail, data, file
 * list and comments are one answer, GET /api/activity/{id}) and the public-authority holders the activity
 * forms name. The store itself (store.ts, with `idb`) loads only when an answer is kept or needed, so this
 * module stays small enough for the login page's entry.
 */
import { useSyncExternalStore } from 'react';
import type { KeptAnswer } from './store';

export type KeptKind = 'profile' | 'notices' | 'activity' | 'holders';

/** The profile's path: the route guard keeps the profile a sign-in answered with under it too. */
export const PROFILE_PATH = '/user/my-profile';
export const NOTICES_PATH = '/activity/notifications';
const HOLDERS_PATH = '/ijo';
const ACTIVITY = /^\/activity\/([^/]+)$/;
/** GET paths under /activity/ that are lists, not an activity. */
const ACTIVITY_LISTS = new Set(['notifications', 'in-progress']);

/** The kind of a GET path (without /api and query) the device keeps, or null. */
export function keptKindOf(path: string): KeptKind | null {
  if (path === PROFILE_PATH) return 'profile';
  if (path === NOTICES_PATH) return 'notices';
  if (path === HOLDERS_PATH) return 'holders';
  const activity = ACTIVITY.exec(path)?.[1];
  return activity && !ACTIVITY_LISTS.has(activity) ? 'activity' : null;
}

/** The path of an activity's kept answer. */
export function activityPath(id: string): string {
  return `/activity/${encodeURIComponent(id)}`;
}

/**
 * The user a bearer token was issued to (its `sub`), read without verifying it: it only chooses which of
 * the device's copies may be shown, and the device keeps one user's copies at a time. Null for anything
 * that is not a JWT with a subject.
 */
export function userIdOfToken(token: string | null): string | null {
  const part = token?.split('.')[1];
  if (!part) return null;
  try {
    const base64 = part.replace(/-/g, '+').replace(/_/g, '/');
    const claims: unknown = JSON.parse(atob(base64.padEnd(Math.ceil(base64.length / 4) * 4, '=')));
    const sub = typeof claims === 'object' && claims !== null && 'sub' in claims ? claims.sub : null;
    return typeof sub === 'string' && sub ? sub : null;
  } catch {
    return null;
  }
}

// ---- answers shown from the device in this page's life (the screens' 'Ван мреже — подаци од …') ----

/** Path with query → when the shown copy was saved; removed when the network answers the same path. */
const served = new Map<string, number>();
const listeners = new Set<() => void>();
let version = 0;

function changed(): void {
  version++;
  for (const listener of [...listeners]) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

/** When the copy shown for `prefix` (a path, or a path and the start of its query) was saved; null when the network answered it. */
export function servedFromDevice(prefix: string): number | null {
  let latest: number | null = null;
  for (const [path, savedAt] of served) {
    if (path === prefix || path.startsWith(`${prefix}?`)) latest = latest === null ? savedAt : Math.max(latest, savedAt);
  }
  return latest;
}

/** servedFromDevice, re-rendering when an answer comes from the device or the network. */
export function useServedFromDevice(prefix: string): number | null {
  useSyncExternalStore(
    subscribe,
    () => version,
    () => version,
  );
  return servedFromDevice(prefix);
}

// ---- the client's side: keep an answer, read one back ----

type Store = typeof import('./store');
let storeModule: Promise<Store> | null = null;
function store(): Promise<Store> {
  storeModule ??= import('./store');
  return storeModule;
}

/** Users whose older copies (and every other user's) were removed in this page's life. */
const pruned = new Set<string>();

/**
 * Keeps a network answer for the token's user while `stillSignedIn()` (quietly does nothing where the
 * browser cannot store it).
 */
export async function keepCopy(token: string | null, path: string, data: unknown, stillSignedIn: () => boolean): Promise<void> {
  const userId = userIdOfToken(token);
  if (served.delete(path)) changed();
  if (!userId) return;
  try {
    const s = await store();
    if (!pruned.has(userId)) {
      pruned.add(userId);
      await s.pruneAnswers(userId);
    }
    await s.keepAnswer(userId, path, data, stillSignedIn);
  } catch {
    // No IndexedDB (a private window's limits, storage full): the app works as before, without a copy.
  }
}

/**
 * Keeps the signed-in user's profile as GET /api/user/my-profile answers it (`{ user }`): the route guard
 * keeps the one a sign-in answered with, which no profile call fetched.
 */
export function keepProfile(token: string | null, user: unknown, stillSignedIn: () => boolean): Promise<void> {
  return keepCopy(token, PROFILE_PATH, { user }, stillSignedIn);
}

/** The token's user's kept answer for `path` (not older than seven days), marked as shown from the device; null when none. */
export async function readCopy(token: string | null, path: string): Promise<KeptAnswer | null> {
  const userId = userIdOfToken(token);
  if (!userId) return null;
  try {
    const kept = await (await store()).readAnswer(userId, path);
    if (!kept) return null;
    served.set(path, kept.savedAt);
    changed();
    return kept;
  } catch {
    return null;
  }
}

/** Forgets what this page showed from the device and which users it pruned (sign-out, a new sign-in). */
export function forgetServed(): void {
  pruned.clear();
  if (served.size === 0) return;
  served.clear();
  changed();
}
