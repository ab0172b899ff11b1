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
