import { describe, expect, it } from 'vitest';
import * as domain from './index.js';
import { asTyped, hasTyped, markSpans, plainText, spansInScript, TYPED_CLOSE, TYPED_OPEN, toScript, typedSpans } from './scriptText.js';
import { toCyrillic } from './translit.js';

describe('texts in the reader script', () => {
  it('converts the product words and keeps codes, addresses, file types and placeholders', () => {
    expect(toScript('Aktivnost A5.1 je završena', 'cyr')).toBe('Активност A5.1 је завршена');
    expect(toScript('Izvezi u xlsx ili PDF', 'cyr')).toBe('Извези у xlsx или PDF');
    expect(toScript('Pošaljite na pera@primer.rs', 'cyr')).toBe('Пошаљите на pera@primer.rs');
    expect(toScript('Filtriraj po {column}', 'cyr')).toBe('Филтрирај по {column}');
    expect(toScript('Џеп Љубав ЊЕГОШ', 'lat')).toBe('Džep Ljubav NJEGOŠ');
  });

  it('writes a mixed text wholly in one script', () => {
    expect(toScript('Унесите datum.', 'cyr')).toBe('Унесите датум.');
    expect(toScript('Унесите datum.', 'lat')).toBe('Unesite datum.');
  });

  it('leaves typed values as typed, in both scripts', () => {
    const text = `Tip inventara „${asTyped('Ruter Cisco')}“ ne postoji u šifarniku.`;
    expect(toScript(text, 'cyr')).toBe('Тип инвентара „Ruter Cisco“ не постоји у шифарнику.');
    expect(toScript(text, 'lat')).toBe('Tip inventara „Ruter Cisco“ ne postoji u šifarniku.');
    const cyrillicName = `Korisnik ${asTyped('pera@primer.rs')} je dodao klaster ${asTyped('Ниш исток')}.`;
    expect(toScript(cyrillicName, 'lat')).toBe('Korisnik pera@primer.rs je dodao klaster Ниш исток.');
    expect(toScript(cyrillicName, 'cyr')).toBe('Корисник pera@primer.rs је додао кластер Ниш исток.');
  });

  it('takes a typed value holding the marks without letting it end early', () => {
    const sly = asTyped(`a${TYPED_CLOSE}b${TYPED_OPEN}c`);
    expect(sly).toBe(`${TYPED_OPEN}abc${TYPED_CLOSE}`);
    expect(toScript(`Naziv ${sly}`, 'cyr')).toBe('Назив abc');
  });

  it('stores a composed text as its plain text and the typed spans, and reads it back in either script', () => {
    const marked = `Korisnik ${asTyped('a@b.rs')} je izmenio klaster ${asTyped('Đurđevo')} (${asTyped('')}).`;
    const { text, spans } = typedSpans(marked);
    expect(text).toBe('Korisnik a@b.rs je izmenio klaster Đurđevo ().');
    expect(spans).toEqual([9, 15, 35, 42]);
    expect(plainText(marked)).toBe(text);
    expect(hasTyped(marked)).toBe(true);
    expect(hasTyped(text)).toBe(false);
    expect(spansInScript(text, spans, 'cyr')).toBe('Корисник a@b.rs је изменио кластер Đurđevo ().');
    expect(spansInScript(text, spans, 'cyr')).toBe(toScript(marked, 'cyr'));
    expect(spansInScript(text, [], 'lat')).toBe(text);
    expect(markSpans(text, spans)).toBe(marked.replace(`(${asTyped('')})`, '()'));
    expect(toScript(markSpans(text, spans), 'cyr')).toBe(toScript(marked, 'cyr'));
    // Spans past the text (a damaged row) are cut to it.
    expect(spansInScript('Ime Pera', [4, 99], 'cyr')).toBe('Име Pera');
  });
});

/** KEEP as first written (every position of a word tried): the faster rule must keep exactly the same parts. */
const REFERENCE_KEEP =
  /(https?:\/\/\S+|[\w.+-]+@[\w-]+(?:\.[\w-]+)+|\{[^}]*\}|[\p{L}\d.]*\d[\p{L}\d.]*|[\p{L}]*[qwxyQWXY][\p{L}]*|\.(?:pdf|doc|docx|csv|xls|xlsx|zip|png|jpg|jpeg|PDF|DOC|DOCX|CSV|XLS|XLSX|ZIP)\b|\b(?:PDF|CSV|SMTP|TLS|SSL|URL|HTTP|HTTPS|API|ID|IP|JSON|ZIP|UUID|RSD|EUR|USD|OK)\b)/u;
function referenceCyrillic(text: string): string {
  if (!REFERENCE_KEEP.test(text)) return toCyrillic(text);
  return text
    .split(new RegExp(REFERENCE_KEEP.source, 'gu'))
    .map((part, i) => (i % 2 === 1 ? part : toCyrillic(part)))
    .join('');
}

/** The strings of the domain's plain objects and arrays (texts, catalogues; schemas and other instances left out). */
function strings(value: unknown, out: string[] = [], seen = new Set<unknown>()): string[] {
  if (typeof value === 'string') out.push(value);
  if (value === null || typeof value !== 'object' || seen.has(value)) return out;
  seen.add(value);
  if (Array.isArray(value)) for (const v of value) strings(v, out, seen);
  else if (Object.getPrototypeOf(value) === Object.prototype) for (const v of Object.values(value)) strings(v, out, seen);
  return out;
}

describe('KEEP', () => {
  it('keeps the same parts as the rule first written, over every text of the domain and tricky ones', () => {
    const texts = [
      ...strings(Object.values(domain)),
      'Korisnik pera.peric@primer.rs je dodao klaster Novi Sad A5.1 (xlsx).',
      'Dozvoljeni formati: .pdf, .doc, .docx i fajl.pdf2 ili 3x Wi-Fi',
      'https://trasa.rs/app?x=1 i SMTP port 587, ID 12, OK.',
      'a.b@c.d@e.f {a} {b {c} x1.y2.z qwerty Word Excel',
    ];
    expect(texts.length).toBeGreaterThan(500);
    for (const text of texts.filter((t) => !hasTyped(t))) expect(toScript(text, 'cyr'), text).toBe(referenceCyrillic(text));
  });
});
