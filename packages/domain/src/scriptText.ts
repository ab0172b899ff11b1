/**
 * Texts in the reader's script (Ћирилица or Latinica), the same rule for the web and the server.
 *
 * What the product words or composes is shown in the chosen script; what a person typed (names,
 * descriptions, comments, file names, typed values) stays as typed. A composed text keeps the two apart
 * by marking every typed value inside it with `asTyped(value)`: `toScript` converts the text around the
 * marks, leaves what they enclose as it is and drops the marks. The marks are Unicode noncharacters
 * (U+FDD0, U+FDD1: never interchanged text), so no typed value or shipped text holds them.
 *
 * This module is free of I/O and of any library: the web's light login page imports it too.
 */
import { toCyrillic, toLatin } from './translit.js';

export type Script = 'cyr' | 'lat';
export const SCRIPTS: readonly Script[] = ['cyr', 'lat'];

export function isScript(value: unknown): value is Script {
  return value === 'cyr' || value === 'lat';
}

/** The marks around a typed value inside a composed text. */
export const TYPED_OPEN = '\uFDD0';
export const TYPED_CLOSE = '\uFDD1';
const MARKS = /[\uFDD0\uFDD1]/g;
const HAS_MARK = /[\uFDD0\uFDD1]/;

/**
 * Parts of a text that stay as written in either script: addresses and e-mail addresses, {placeholders},
 * words with a digit (activity codes A1, A5.1, ports), words with a letter Serbian does not use (xlsx,
 * Excel, Word), file extensions ('.pdf, .doc') and the Latin abbreviations of file formats and protocols.
 * The word rules look at a word from its first letter only (the lookbehinds): every position of a long
 * word tried again made a sentence cost tens of microseconds.
 */
export const KEEP =
  /(https?:\/\/\S+|(?<![\w.+-])[\w.+-]+@[\w-]+(?:\.[\w-]+)+|\{[^}]*\}|(?<![\p{L}\d.])[\p{L}\d.]*\d[\p{L}\d.]*|(?<!\p{L})\p{L}*[qwxyQWXY]\p{L}*|\.(?:pdf|doc|docx|csv|xls|xlsx|zip|png|jpg|jpeg|PDF|DOC|DOCX|CSV|XLS|XLSX|ZIP)\b|\b(?:PDF|CSV|SMTP|TLS|SSL|URL|HTTP|HTTPS|API|ID|IP|JSON|ZIP|UUID|RSD|EUR|USD|OK)\b)/u;
const KEEP_ALL = new RegExp(KEEP.source, 'gu');
/**
 * What every part KEEP matches holds (':' of an address, '@', '{', a digit, q/w/x/y, a dot before a
 * letter, two capitals): a text without any is converted whole without running KEEP (most are).
 */
const MAY_KEEP = /[\d@{:qwxyQWXY]|\.[A-Za-z]|[A-Z]{2}/;

/** A typed value (a name, a file name, what a person entered) to put inside a composed text: kept as typed by toScript. */
export function asTyped(value: string | number): string {
  const text = String(value);
  return TYPED_OPEN + (HAS_MARK.test(text) ? text.replace(MARKS, '') : text) + TYPED_CLOSE;
}

/** Whether the text holds a typed value's marks. */
export function hasTyped(text: string): boolean {
  return HAS_MARK.test(text);
}

/** The text as written, the marks dropped (a stored or compared text: no script applied). */
export function plainText(text: string): string {
  return HAS_MARK.test(text) ? text.replace(MARKS, '') : text;
}

function convertOutsideKept(text: string, convert: (part: string) => string): string {
  if (!MAY_KEEP.test(text) || !KEEP.test(text)) return convert(text);
  // split with a capturing group: odd indexes are the kept parts.
  return text
    .split(KEEP_ALL)
    .map((part, i) => (i % 2 === 1 ? part : convert(part)))
    .join('');
}

/** A text the product words (no typed value inside) in the given script: only the letters change; see KEEP. */
function wordsInScript(text: string, script: Script): string {
  if (script === 'lat') return toLatin(text);
  return convertOutsideKept(text, toCyrillic);
}

/**
 * A text in the given script: the product's words converted (KEEP aside), the typed values marked with
 * asTyped as they were typed, the marks dropped.
 */
export function toScript(text: string, script: Script): string {
  if (!HAS_MARK.test(text)) return wordsInScript(text, script);
  const { text: plain, spans } = typedSpans(text);
  return spansInScript(plain, spans, script);
}

/**
 * A composed text taken apart for storing: the text without marks and the typed values' places in it,
 * as [start, end, start, end, …] (UTF-16 offsets, end exclusive; an empty value takes no span).
 */
export function typedSpans(text: string): { text: string; spans: number[] } {
  if (!HAS_MARK.test(text)) return { text, spans: [] };
  let plain = '';
  const spans: number[] = [];
  let open = -1;
  for (const ch of text) {
    if (ch === TYPED_OPEN) {
      if (open < 0) open = plain.length;
    } else if (ch === TYPED_CLOSE) {
      if (open >= 0 && plain.length > open) spans.push(open, plain.length);
      open = -1;
    } else plain += ch;
  }
  // An unclosed mark runs to the end.
  if (open >= 0 && plain.length > open) spans.push(open, plain.length);
  return { text: plain, spans };
}

/** A stored text (typedSpans) as a composed text again: its typed values marked (the inverse of typedSpans). */
export function markSpans(text: string, spans: readonly number[]): string {
  if (spans.length === 0) return text;
  let out = '';
  let at = 0;
  for (let i = 0; i + 1 < spans.length; i += 2) {
    const start = Math.max(at, Math.min(text.length, spans[i] as number));
    const end = Math.max(start, Math.min(text.length, spans[i + 1] as number));
    out += text.slice(at, start) + TYPED_OPEN + text.slice(start, end) + TYPED_CLOSE;
    at = end;
  }
  return out + text.slice(at);
}

/** A stored text (typedSpans) in the given script: converted outside the spans, the spans as typed. */
export function spansInScript(text: string, spans: readonly number[], script: Script): string {
  if (spans.length === 0) return wordsInScript(text, script);
  let out = '';
  let at = 0;
  for (let i = 0; i + 1 < spans.length; i += 2) {
    const start = Math.max(at, Math.min(text.length, spans[i] as number));
    const end = Math.max(start, Math.min(text.length, spans[i + 1] as number));
    if (start > at) out += wordsInScript(text.slice(at, start), script);
    out += text.slice(start, end);
    at = end;
  }
  if (at < text.length) out += wordsInScript(text.slice(at), script);
  return out;
}
