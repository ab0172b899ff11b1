/**
 * The script the web shows its own texts in (issue 13 item 10): Ћирилица (default) or Latinica.
 * Labels, messages and notices are written once (in the spec's words) and shown in the user's script
 * through the domain's `toScript` (scriptText.ts: KEEP, typed values); user data is shown as it is.
 *
 * This module is deliberately tiny and free of React, MUI and zod: the light login page uses it too.
 */
import { type Script, toScript } from '@trasa/domain/scriptText';

/** The two scripts and the conversion live in the domain (the server answers in the same script by the same rule). */
export type { Script };
export { toScript };

const STORAGE_KEY = 'trasa.script';

function stored(): Script {
  try {
    return globalThis.localStorage?.getItem(STORAGE_KEY) === 'lat' ? 'lat' : 'cyr';
  } catch {
    return 'cyr';
  }
}

let current: Script = stored();
const listeners = new Set<(script: Script) => void>();

/** The two names, each in its own script whatever the current one (as language switches are written). */
export const SCRIPT_NAMES: Record<Script, string> = { cyr: 'Ћирилица', lat: 'Latinica' };

export function getScript(): Script {
  return current;
}

/** Changes the script for this browser (kept in localStorage, so the sign-in page follows it too). */
export function setScript(script: Script): void {
  if (script === current) return;
  current = script;
  try {
    globalThis.localStorage?.setItem(STORAGE_KEY, script);
  } catch {
    // A browser without storage keeps the choice for this page only.
  }
  for (const listener of listeners) listener(script);
}

export function onScriptChange(listener: (script: Script) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** A text of the web's own in the current script. */
export function inScript(text: string): string {
  return toScript(text, current);
}
