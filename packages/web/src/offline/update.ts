/**
 * A new version of the application waiting to take over (the service worker's update, registered by
 * offline/serviceWorker.ts). Small and free of Workbox: the application's update notice reads it.
 */
import { useSyncExternalStore } from 'react';

let apply: (() => Promise<void>) | null = null;
const listeners = new Set<() => void>();

/** The registration: a new version is installed and waits; `activate` lets it take over and reloads the page. */
export function updateWaiting(activate: () => Promise<void>): void {
  apply = activate;
  for (const listener of [...listeners]) listener();
}

/** Lets the waiting version take over (the page reloads); nothing when none waits. */
export async function applyUpdate(): Promise<void> {
  await apply?.();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

/** Whether a new version waits for the user's confirmation. */
export function useUpdateWaiting(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => apply !== null,
    () => false,
  );
}
