import type { Page, Request, Response } from '@playwright/test';

/**
 * One script at a time, read off the screen: what a page shows (its text, its placeholders, labels and
 * titles, the document's title) split into words, and the words of the other script found among them —
 * leaving out user data (what people typed, as the API answered it), the parts that stay as written in
 * either script (codes with digits, addresses, abbreviations of formats and protocols, words with
 * q/w/x/y) and what is tagged with the other script's language (the script switch's own label).
 */

export type Script = 'cyr' | 'lat';

/** A text the page shows, and where (an element's tag and role, or an attribute's name). */
export type ShownText = { text: string; where: string };

/** A word of the other script on a screen, with the text it stands in. */
export type Stray = { screen: string; word: string; text: string; fromServer: boolean };

const CYRILLIC = /[\u0400-\u04FF]/;
const LATIN = /[A-Za-zČĆŽŠĐčćžšđ]/;
/** Abbreviations shown as written in either script (the web's script.ts keeps the same ones). */
const ABBREVIATIONS = new Set(
  'PDF CSV SMTP TLS SSL URL HTTP HTTPS API ID IP JSON ZIP UUID RSD EUR USD OK pdf doc docx csv xls xlsx zip png jpg jpeg'.split(' '),
);

/**
 * Keys whose string values in the API's answers are user data: names, descriptions, comments, addresses,
 * numbers and file names people typed or uploaded (a value that is a name the product ships is not: see
 * `shipped` in the walk).
 */
const USER_KEYS = new Set([
  'naziv',
  'cirilica',
  'kratakNaziv',
  'nazivKlastera',
  'nazivLokacije',
  'cyr',
  'lat',
  'ime',
  'prezime',
  'email',
  'user',
  'group',
  'komentar',
  'poslednjiKomentar',
  'tekst',
  'opis',
  'naslov',
  'napomena',
  'originalnoIme',
  'fajl',
  'broj',
  'id',
  'sifra',
  'jedinica',
  'adresa',
  'opstina',
  'opstine',
  'naselje',
  'operator',
  'javniPoziv',
  'klaster',
  'ugovor',
  'imaoc',
  'vrednost',
  'imeRole',
  'host',
  'username',
  'from',
  'to',
  'subject',
]);
/** Of these, the keys where a name the product ships may stand (an activity's, a group type's, a role's, an A3 outcome). */
const SHIPPED_KEYS = new Set(['naziv', 'kratakNaziv', 'imeRole', 'vrednost']);
/** Keys whose string values the server composed (its answers' messages, the audit log's sentences, field errors). */
const SERVER_KEYS = new Set(['message']);

function isApi(request: Request): boolean {
  return new URL(request.url()).pathname.startsWith('/api/');
}

/** What the API answered while the walk ran: user data and the server's own sentences; and the calls still unanswered. */
export class Answers {
  readonly userData = new Set<string>();
  readonly serverTexts = new Set<string>();
  private pending: Promise<void>[] = [];
  private readonly asked = new Set<Request>();

  /**
   * `shipped`: names the product ships, which come as data but are shown in the chosen script; `codes`: the
   * product's codes that stay as written in either script wherever they stand as whole words.
   */
  constructor(
    private readonly shipped: ReadonlySet<string>,
    readonly codes: ReadonlySet<string> = new Set(),
  ) {}

  listen(page: Page): void {
    page.on('request', (request) => {
      if (isApi(request)) this.asked.add(request);
    });
    page.on('response', (response) => this.asked.delete(response.request()));
    page.on('requestfailed', (request) => this.asked.delete(request));
    // Only the answers whose body has arrived whole are read: waiting for the body of one still loading
    // may never end (an early answer of src/opening.ts that the page does not take).
    page.on('requestfinished', (request) => {
      if (isApi(request)) this.pending.push(request.response().then((response) => (response ? this.read(response) : undefined)));
    });
  }

  /** The calls of the page to the API whose answer has not come yet. */
  unanswered(): number {
    return this.asked.size;
  }

  /** Every answer that has arrived is read (within `timeout` ms: else it fails, naming the answers unread). */
  async settled(timeout = 15_000): Promise<void> {
    const waiting = this.pending;
    this.pending = [];
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`answers not read within ${timeout} ms: ${[...this.reading].join(', ')}`)), timeout);
    });
    try {
      await Promise.race([Promise.all(waiting), late]);
    } finally {
      clearTimeout(timer);
    }
  }

  private readonly reading = new Set<string>();

  private async read(response: Response): Promise<void> {
    if (!(response.headers()['content-type'] ?? '').includes('json')) return;
    const name = `${response.request().method()} ${response.url()} ${response.status()}`;
    this.reading.add(name);
    const body: unknown = await response.json().catch(() => undefined);
    this.reading.delete(name);
    this.collect(body, '');
  }

  private collect(value: unknown, key: string): void {
    if (typeof value === 'string') {
      const text = value.trim();
      if (!text) return;
      if (SERVER_KEYS.has(key) || key === 'errors') this.serverTexts.add(text);
      else if (USER_KEYS.has(key) && !(SHIPPED_KEYS.has(key) && this.shipped.has(text))) this.userData.add(text);
      return;
    }
    if (Array.isArray(value)) {
      for (const item of value) this.collect(item, key);
      return;
    }
    if (value && typeof value === 'object') {
      // Field errors: { errors: { field: message } } — every value is the server's.
      for (const [k, v] of Object.entries(value)) this.collect(v, key === 'errors' ? 'errors' : k);
    }
  }
}

/**
 * The texts a page shows: visible text nodes, the placeholder, aria-label, title and alt of visible
 * elements, and the document's title — inside `scope` (a CSS selector) when given. What sits under an
 * element whose lang is the other script's is left out (the switch's label of that script).
 */
export async function shownTexts(page: Page, script: Script, scope?: string): Promise<ShownText[]> {
  return page.evaluate(
    ({ otherLang, scope }) => {
      const out: { text: string; where: string }[] = [];
      const roots = scope ? Array.from(document.querySelectorAll(scope)) : [document.body];
      const foreign = (el: Element) => el.closest(`[lang^="${otherLang}"]`) !== null;
      const visible = (el: Element) =>
        el.checkVisibility({ opacityProperty: false, visibilityProperty: true, contentVisibilityAuto: true });
      const placeOf = (el: Element) => `${el.tagName.toLowerCase()}${el.getAttribute('role') ? `[${el.getAttribute('role')}]` : ''}`;
      for (const root of roots) {
        const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
          const text = node.textContent?.trim();
          const parent = node.parentElement;
          if (!text || !parent || ['SCRIPT', 'STYLE', 'NOSCRIPT'].includes(parent.tagName)) continue;
          if (foreign(parent) || !visible(parent)) continue;
          out.push({ text, where: placeOf(parent) });
        }
        for (const el of Array.from(root.querySelectorAll('[placeholder], [aria-label], [title], [alt]'))) {
          if (foreign(el) || !visible(el)) continue;
          for (const name of ['placeholder', 'aria-label', 'title', 'alt']) {
            const value = el.getAttribute(name)?.trim();
            if (value) out.push({ text: value, where: `${placeOf(el)} @${name}` });
          }
        }
      }
      if (!scope) out.push({ text: document.title, where: 'title' });
      return out;
    },
    { otherLang: script === 'cyr' ? 'sr-Latn' : 'sr-Cyrl', scope },
  );
}

/** A run of letters and digits that stays as written in either script (a code, a number, an abbreviation). */
function kept(run: string): boolean {
  return /\d/.test(run) || /[qwxyQWXY]/.test(run) || ABBREVIATIONS.has(run);
}

/** A whitespace-separated chunk that stays as written: an address, an e-mail, a file name, a {placeholder}. */
function keptChunk(chunk: string): boolean {
  return (
    /^[(„"']*https?:\/\//.test(chunk) ||
    /\S@\S+\.\S/.test(chunk) ||
    /\{[^}]*\}/.test(chunk) ||
    /\.(pdf|docx?|csv|xlsx?|zip|png|jpe?g)\b/i.test(chunk)
  );
}

/** The words of the other script in a text: letter runs outside what is kept. */
export function strayWords(text: string, script: Script): string[] {
  const other = script === 'cyr' ? LATIN : CYRILLIC;
  const words: string[] = [];
  for (const chunk of text.split(/\s+/)) {
    if (!other.test(chunk) || keptChunk(chunk)) continue;
    for (const run of chunk.match(/[\p{L}\p{M}\p{N}]+/gu) ?? []) if (other.test(run) && !kept(run)) words.push(run);
  }
  return words;
}

const LETTER = /[\p{L}\p{M}\p{N}]/u;

/**
 * `text` with every user-data phrase taken out where it stands as whole words (the longest first, so a
 * name inside a longer one goes whole), and the file names a sentence quotes. A text the screen cut short ('Uslovi i rešenje o taksi - JP Pu…')
 * goes whole when a phrase begins with what is left of it.
 */
export function withoutUserData(text: string, phrases: readonly string[]): string {
  // A file name in brackets or quotes inside a sentence ('je dodao dokumente (Uslovi - JP Putevi.pdf)'),
  // brackets of its own within it too ('(Projekat za izvođenje (PZI) - Rogačica.pdf)').
  text = text.replace(/([(„“"])(?:[^()„“"]|\([^()„“"]*\))*\.(?:pdf|docx?|xlsx?|csv|zip|png|jpe?g)(?=[)“”",])/giu, '$1');
  if (text.endsWith('…')) {
    const start = text.slice(0, -1).replace(/^\W+/, '');
    if (start.length > 3 && phrases.some((p) => p.startsWith(start) || p.includes(start))) return '';
  }
  let rest = text;
  for (const phrase of phrases) {
    if (!rest.includes(phrase)) continue;
    let out = '';
    let from = 0;
    for (let at = rest.indexOf(phrase); at >= 0; at = rest.indexOf(phrase, at + 1)) {
      const before = rest[at - 1] ?? ' ';
      const after = rest[at + phrase.length] ?? ' ';
      if (at < from || LETTER.test(before) || LETTER.test(after)) continue;
      out += `${rest.slice(from, at)} `;
      from = at + phrase.length;
    }
    rest = out + rest.slice(from);
  }
  return rest;
}

/**
 * The user-data phrases of the answers, longest first: each value whole and its parts around brackets and
 * commas; and the codes kept as written.
 */
export function userPhrases(answers: Answers): string[] {
  const phrases = new Set<string>(answers.codes);
  for (const value of answers.userData) {
    phrases.add(value);
    for (const part of value.split(/[(),;„“"]/)) if (part.trim()) phrases.add(part.trim());
  }
  return [...phrases].sort((a, b) => b.length - a.length);
}

/** The words of the other script on a screen, outside user data; each marked when the server composed its text. */
export function straysOn(screen: string, shown: readonly ShownText[], script: Script, answers: Answers): Stray[] {
  const phrases = userPhrases(answers);
  const server = [...answers.serverTexts];
  const strays: Stray[] = [];
  for (const { text } of shown) {
    if (strayWords(text, script).length === 0) continue;
    const words = strayWords(withoutUserData(text, phrases), script);
    if (words.length === 0) continue;
    const fromServer = server.some((s) => s === text || (s.length > 10 && text.includes(s)) || (text.length > 10 && s.includes(text)));
    for (const word of new Set(words)) strays.push({ screen, word, text, fromServer });
  }
  return strays;
}
