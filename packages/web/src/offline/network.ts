/**
 * Whether the app reaches its server: the browser's own flag (navigator.onLine, its 'online' / 'offline'
 * events) and the calls themselves — a fetch that fails with a TypeError (no route, the signal gone while
 * the browser still says online) marks the network down until an answer arrives or the browser reports
 * being online again. Small and free of the store: the API client imports it on the login page too.
 */
import { useSyncExternalStore } from 'react';

export type NetworkState = { online: boolean };

const listeners = new Set<() => void>();
/** The last call failed on the network (no answer at all); cleared by the next answer or the 'online' event. */
let callsFailing = false;
let state: NetworkState = { online: computeOnline() };

function browserOnline(): boolean {
  return typeof navigator === 'undefined' || navigator.onLine !== false;
}

function computeOnline(): boolean {
  return browserOnline() && !callsFailing;
}

function update(): void {
  const online = computeOnline();
  if (online === state.online) return;
  state = { online };
  for (const listener of [...listeners]) listener();
}

if (typeof window !== 'undefined') {
  window.addEventListener('online', () => {
    callsFailing = false;
    update();
  });
  window.addEventListener('offline', update);
}

/** Whether the app is online now (the browser says so and the last call got an answer). */
export function isOnline(): boolean {
  return state.online;
}

/** The client: a call got no answer (fetch threw a TypeError). */
export function reportNetworkFailure(): void {
  callsFailing = true;
  update();
}

/** The client: a call got an answer (any status). */
export function reportNetworkAnswer(): void {
  if (!callsFailing) return;
  callsFailing = false;
  update();
}

/** Calls `listener` whenever the app goes offline or comes back; returns the unsubscribe. */
export function subscribeNetwork(listener: () => void): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

/** The network state, re-rendering when it changes. */
export function useNetworkState(): NetworkState {
  return useSyncExternalStore(
    subscribeNetwork,
    () => state,
    () => state,
  );
}

/** Whether an error is a call that never reached the server (the client's ApiError with status 0). */
export function isNetworkError(error: unknown): boolean {
  return typeof error === 'object' && error !== null && 'status' in error && (error as { status: unknown }).status === 0;
}
