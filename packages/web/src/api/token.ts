import { useSyncExternalStore } from 'react';

/** The session token lives in local storage (spec 1 §3 "Session"). */
const KEY = 'token';
const listeners = new Set<() => void>();

function read(): string | null {
  try {
    return localStorage.getItem(KEY);
  } catch {
    return null;
  }
}

function emit(): void {
  for (const listener of listeners) listener();
}

export function getToken(): string | null {
  return read();
}

export function setToken(token: string): void {
  localStorage.setItem(KEY, token);
  emit();
}

export function clearToken(): void {
  localStorage.removeItem(KEY);
  emit();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  const onStorage = (e: StorageEvent) => {
    if (e.key === KEY || e.key === null) listener();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

/** The stored token, re-rendering when it is set or removed (also from another tab). */
export function useToken(): string | null {
  return useSyncExternalStore(subscribe, read, () => null);
}
