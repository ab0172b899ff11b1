/**
 * Serbian Latin ⇄ Cyrillic transliteration (one letter each way, with the digraphs lj, nj, dž) and the
 * folding used by search: both scripts, any case, with or without diacritics ('Đorđević', 'djordjevic',
 * 'ђорђевић' fold to the same text).
 */
const CYR_TO_LAT: Record<string, string> = {
  а: 'a',
  б: 'b',
  в: 'v',
  г: 'g',
  д: 'd',
  ђ: 'đ',
  е: 'e',
  ж: 'ž',
  з: 'z',
  и: 'i',
  ј: 'j',
  к: 'k',
  л: 'l',
  љ: 'lj',
  м: 'm',
  н: 'n',
  њ: 'nj',
  о: 'o',
  п: 'p',
  р: 'r',
  с: 's',
  т: 't',
  ћ: 'ć',
  у: 'u',
  ф: 'f',
  х: 'h',
  ц: 'c',
  ч: 'č',
  џ: 'dž',
  ш: 'š',
};

const LAT_TO_CYR: Record<string, string> = Object.fromEntries(Object.entries(CYR_TO_LAT).map(([c, l]) => [l, c]));
const LAT_DIGRAPHS = ['lj', 'nj', 'dž'];
/** The letters a digraph starts with: only there is the next letter looked at (lists transliterate every row). */
const DIGRAPH_FIRST = new Set(['l', 'L', 'n', 'N', 'd', 'D']);
/**
 * toCyrillic's answer for one letter, precomputed for the table's letters in both cases (what the rule
 * below gives them); any other character takes the rule itself.
 */
const ONE_TO_CYR = new Map<string, string>(
  Object.entries(LAT_TO_CYR)
    .filter(([lat]) => lat.length === 1)
    .flatMap(([lat, cyr]) => [
      [lat, cyr],
      [lat.toUpperCase(), cyr.toUpperCase()],
    ]),
);
/** Any Cyrillic letter: a text without one is its own Latin (no lower-casing of another letter gives one). */
const CYRILLIC = /[\u0400-\u04FF]/;

export function toLatin(text: string): string {
  if (!CYRILLIC.test(text)) return text;
  const chars = [...text];
  return chars
    .map((ch, i) => {
      const lower = ch.toLowerCase();
      const lat = CYR_TO_LAT[lower];
      if (lat === undefined) return ch;
      if (ch === lower) return lat;
      // An upper-case Љ, Њ, Џ is 'LJ' inside an upper-case word and 'Lj' otherwise.
      const next = chars[i + 1];
      const allCaps = next !== undefined && next !== next.toLowerCase();
      return allCaps ? lat.toUpperCase() : lat.charAt(0).toUpperCase() + lat.slice(1);
    })
    .join('');
}

export function toCyrillic(text: string): string {
  let out = '';
  let i = 0;
  while (i < text.length) {
    const two = DIGRAPH_FIRST.has(text[i] as string) ? text.slice(i, i + 2) : '';
    const digraph = two && LAT_DIGRAPHS.find((d) => d === two.toLowerCase());
    if (digraph) {
      const cyr = LAT_TO_CYR[digraph] as string;
      out += two[0] === two[0]?.toUpperCase() && two[0] !== two[0]?.toLowerCase() ? cyr.toUpperCase() : cyr;
      i += 2;
      continue;
    }
    const ch = text[i] as string;
    const known = ONE_TO_CYR.get(ch);
    if (known !== undefined) out += known;
    else {
      const cyr = LAT_TO_CYR[ch.toLowerCase()];
      out += cyr === undefined ? ch : ch === ch.toLowerCase() ? cyr : cyr.toUpperCase();
    }
    i++;
  }
  return out;
}

/** Whether the text has Cyrillic letters. */
export function isCyrillic(text: string): boolean {
  return /[\u0400-\u04FF]/.test(text);
}

/** The other script: what the search box sends as `srb` next to the typed text (`eng`). */
export function transliterate(text: string): string {
  return isCyrillic(text) ? toLatin(text) : toCyrillic(text);
}

/**
 * Search folding: lower case, Latin script, no diacritics, đ → dj. The database applies the same
 * folding (SQL function trasa_fold) to the indexed columns, so both sides meet.
 */
export function foldForSearch(text: string): string {
  return toLatin(text.toLowerCase()).replace(/đ/g, 'dj').replace(/[čć]/g, 'c').replace(/š/g, 's').replace(/ž/g, 'z');
}
