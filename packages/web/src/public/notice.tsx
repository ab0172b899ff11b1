import { useEffect, useSyncExternalStore } from 'react';
import { inScript } from '../script';
import { UI } from '../texts';

/**
 * The public pages' notice (spec 1 §8, §9): one at a time, top centre, hidden after 2 s unless a call asks
 * otherwise; the application's snackbar without MUI.
 */
export const NOTICE_DEFAULT_MS = 2000;

type Notice = { id: number; message: string; severity: 'success' | 'error'; duration: number };

let current: Notice | null = null;
let nextId = 1;
const listeners = new Set<() => void>();

function emit(): void {
  for (const listener of listeners) listener();
}

export function showNotice(message: string, severity: Notice['severity'] = 'success', duration = NOTICE_DEFAULT_MS): void {
  current = { id: nextId++, message, severity, duration };
  emit();
}

export const notice = {
  success: (message: string, duration?: number) => showNotice(message, 'success', duration),
  error: (message: string, duration?: number) => showNotice(message, 'error', duration),
};

function hide(id: number): void {
  if (current?.id !== id) return;
  current = null;
  emit();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function Notices() {
  const shown = useSyncExternalStore(
    subscribe,
    () => current,
    () => null,
  );
  useEffect(() => {
    if (!shown) return;
    const timer = setTimeout(() => hide(shown.id), shown.duration);
    return () => clearTimeout(timer);
  }, [shown]);
  if (!shown) return null;
  return (
    <div className="tp-notice-anchor">
      <div key={shown.id} role="alert" className={`tp-notice tp-notice-${shown.severity}`}>
        <span className="tp-notice-text">{shown.message}</span>
        <button type="button" className="tp-notice-close" aria-label={inScript(UI.close)} onClick={() => hide(shown.id)}>
          ×
        </button>
      </div>
    </div>
  );
}
