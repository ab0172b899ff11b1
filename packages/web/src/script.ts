/**
 * The script the web shows its own texts in (issue 13 item 10): Ћирилица (default) or Latinica.
 * Labels, messages and notices are written once (in the spec's words) and shown in the user's script
 * through the domain's transliteration; the server's answers and user data are shown as they are.
 *
 * This module is deliberately tiny and free of React, MUI and zod: the light login page uses it too.
 */
import { toCyrillic, toLatin } from '@trasa/domain/translit';

export type Script = 'cyr' | 'lat';

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

/**
 * Parts of a text that stay as written in either script: addresses and e-mail addresses, {placeholders},
 * words with a digit (activity codes A1, A5.1, ports), words with a letter Serbian does not use (xlsx,
 * Excel, Word), file extensions ('.pdf, .doc') and the Latin abbreviations of file formats and protocols.
 */
const KEEP =
  /(https?:\/\/\S+|[\w.+-]+@[\w-]+(?:\.[\w-]+)+|\{[^}]*\}|[\p{L}\d.]*\d[\p{L}\d.]*|[\p{L}]*[qwxyQWXY][\p{L}]*|\.(?:pdf|doc|docx|csv|xls|xlsx|zip|png|jpg|jpeg|PDF|DOC|DOCX|CSV|XLS|XLSX|ZIP)\b|\b(?:PDF|CSV|SMTP|TLS|SSL|URL|HTTP|HTTPS|API|ID|IP|JSON|ZIP|UUID|RSD|EUR|USD|OK)\b)/u;

function convertOutsideKept(text: string, convert: (part: string) => string): string {
  if (!KEEP.test(text)) return convert(text);
  // split with a capturing group: odd indexes are the kept parts.
  return text
    .split(new RegExp(KEEP.source, 'gu'))
    .map((part, i) => (i % 2 === 1 ? part : convert(part)))
    .join('');
}

/** A text in the given script (the spec's words, only the letters change; see KEEP for what stays). */
export function toScript(text: string, script: Script): string {
  if (script === 'lat') return toLatin(text);
  return convertOutsideKept(text, toCyrillic);
}

/** A text of the web's own in the current script. */
export function inScript(text: string): string {
  return toScript(text, current);
}
