import { describe, expect, it } from 'vitest';
import { foldForSearch, toCyrillic, toLatin, transliterate } from './translit.js';

describe('transliteration', () => {
  it('turns Latin into Cyrillic with the digraphs', () => {
    expect(toCyrillic('Ljubomir Njegoš, Džajić')).toBe('Љубомир Његош, Џајић');
    expect(toCyrillic('Đorđević')).toBe('Ђорђевић');
    expect(toCyrillic('info@primer.rs')).toBe('инфо@пример.рс');
  });

  it('turns Cyrillic into Latin', () => {
    expect(toLatin('Љубомир Његош, Џајић')).toBe('Ljubomir Njegoš, Džajić');
    expect(toLatin('ЉУБА')).toBe('LJUBA');
    expect(toLatin('Ђорђевић')).toBe('Đorđević');
  });

  it('sends the other script', () => {
    expect(transliterate('Петровић')).toBe('Petrović');
    expect(transliterate('Petrović')).toBe('Петровић');
  });

  it('folds every way of writing a name to one text', () => {
    const target = foldForSearch('Đorđević');
    for (const typed of ['djordjevic', 'ђорђевић', 'Djordjevic', 'ĐORĐEVIĆ', 'Ђорђевић']) expect(foldForSearch(typed)).toBe(target);
    expect(foldForSearch('Šćekić Žarko')).toBe('scekic zarko');
  });
});

/** The rules as first written (one letter at a time, every position looked at for a digraph): the fast paths must answer the same. */
const REFERENCE_CYR: Record<string, string> = Object.fromEntries(
  [...'абвгдђежзијклљмнњопрстћуфхцчџш'].map((c) => [c, toLatin(c)]).map(([c, l]) => [l, c]),
);
function referenceToCyrillic(text: string): string {
  let out = '';
  let i = 0;
  while (i < text.length) {
    const two = text.slice(i, i + 2);
    const digraph = ['lj', 'nj', 'dž'].find((d) => d === two.toLowerCase());
    if (digraph) {
      const cyr = REFERENCE_CYR[digraph] as string;
      out += two[0] === two[0]?.toUpperCase() && two[0] !== two[0]?.toLowerCase() ? cyr.toUpperCase() : cyr;
      i += 2;
      continue;
    }
    const ch = text[i] as string;
    const cyr = REFERENCE_CYR[ch.toLowerCase()];
    out += cyr === undefined ? ch : ch === ch.toLowerCase() ? cyr : cyr.toUpperCase();
    i++;
  }
  return out;
}

describe('transliteration fast paths (lists transliterate every row)', () => {
  it('answers what the letter-by-letter rules answer, for any mix of scripts, cases and odd characters', () => {
    const alphabet = [...'aAbBcCčČćĆdDđĐeEfFgGhHiIjJkKlLmMnNoOpPrRsSšŠtTuUvVzZžŽxXqQwWyY 0123456789.,-/@'];
    const odd = ['\u212A', 'İ', 'ß', 'ǅ', 'ǈ', 'ǋ', 'Ǉ', 'Ǌ', 'Ǆ', '😀', 'Љ', 'љ', 'Ђ', 'ш', 'Ӂ', 'ѐ'];
    let seed = 7;
    const next = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed;
    };
    for (let n = 0; n < 5000; n++) {
      let text = '';
      const length = next() % 14;
      for (let k = 0; k < length; k++) text += next() % 6 === 0 ? odd[next() % odd.length] : alphabet[next() % alphabet.length];
      expect(toCyrillic(text), text).toBe(referenceToCyrillic(text));
      expect(toLatin(text), text).toBe(toLatin(`${text}ж`).slice(0, -1));
    }
  });
});
