// Writes the web's font files (packages/web/src/fonts/*.woff2) and their @font-face rules (fonts.css): one
// file per family and weight the app uses — Roboto 400, 500, 700 for text, Bitter 500 and 700 for headings —
// each with the characters of Serbian in both scripts (Latin with č ć đ š ž, Cyrillic with ђ ј љ њ ћ џ),
// digits and the punctuation the app writes, without hinting and with only the OpenType features the app
// uses. The sources are Google's full fonts as @expo-google-fonts ships them (TrueType, every script);
// harfbuzz's subsetter (subset-font, WebAssembly) cuts them. A character outside the set (a name with ö)
// is drawn by the next font of the stack.
//
//   node packages/web/scripts/subset-fonts.mjs      # after changing the set, a weight or the font packages
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import subsetFont from 'subset-font';

const require = createRequire(import.meta.url);
const OUT = path.resolve(import.meta.dirname, '../src/fonts');

/** Code point ranges of the subset, as CSS unicode-range writes them. */
const RANGES = [
  [0x20, 0x7e], // Basic Latin
  [0xa0, 0xa0], // no-break space
  [0xa7, 0xa7], // §
  [0xa9, 0xa9], // ©
  [0xab, 0xab], // «
  [0xb0, 0xb0], // °
  [0xb7, 0xb7], // ·
  [0xbb, 0xbb], // »
  [0xd7, 0xd7], // ×
  [0x106, 0x107], // Ć ć
  [0x10c, 0x10d], // Č č
  [0x110, 0x111], // Đ đ
  [0x160, 0x161], // Š š
  [0x17d, 0x17e], // Ž ž
  [0x402, 0x402], // Ђ
  [0x408, 0x40b], // Ј Љ Њ Ћ
  [0x40f, 0x44f], // Џ and А–я
  [0x452, 0x452], // ђ
  [0x458, 0x45b], // ј љ њ ћ
  [0x45f, 0x45f], // џ
  [0x2013, 0x2014], // – —
  [0x2018, 0x201a], // ‘ ’ ‚
  [0x201c, 0x201e], // “ ” „
  [0x2022, 0x2022], // •
  [0x2026, 0x2026], // …
  [0x20ac, 0x20ac], // €
  [0x2116, 0x2116], // №
  [0x2190, 0x2193], // ← ↑ → ↓
  [0x2264, 0x2265], // ≤ ≥
];

const TEXT = RANGES.flatMap(([from, to]) => Array.from({ length: to - from + 1 }, (_, i) => String.fromCodePoint(from + i))).join('');
const hex = (n) => n.toString(16).toUpperCase().padStart(4, '0');
const UNICODE_RANGE = RANGES.map(([from, to]) => (from === to ? `U+${hex(from)}` : `U+${hex(from)}-${hex(to)}`)).join(', ');

/**
 * The families and weights the app uses (theme.ts: Roboto for text, Bitter for h1–h6; public.css). Bitter's
 * Serbian `locl` forms are switched off wherever Bitter is used, so its files keep none.
 */
const FONTS = [
  { family: 'Roboto', weight: 400, source: '@expo-google-fonts/roboto/400Regular/Roboto_400Regular.ttf', locl: true },
  { family: 'Roboto', weight: 500, source: '@expo-google-fonts/roboto/500Medium/Roboto_500Medium.ttf', locl: true },
  { family: 'Roboto', weight: 700, source: '@expo-google-fonts/roboto/700Bold/Roboto_700Bold.ttf', locl: true },
  { family: 'Bitter', weight: 500, source: '@expo-google-fonts/bitter/500Medium/Bitter_500Medium.ttf', locl: false },
  { family: 'Bitter', weight: 700, source: '@expo-google-fonts/bitter/700Bold/Bitter_700Bold.ttf', locl: false },
];

const faces = [];
for (const font of FONTS) {
  const file = `${font.family.toLowerCase()}-${font.weight}.woff2`;
  const subset = await subsetFont(readFileSync(require.resolve(font.source)), TEXT, {
    targetFormat: 'woff2',
    noHinting: true,
    // Kerning, marks and the composed forms; Roboto keeps its Serbian and Macedonian letter forms (html lang="sr").
    keepFeatures: ['kern', 'mark', 'mkmk', 'ccmp', ...(font.locl ? ['locl'] : [])],
  });
  writeFileSync(path.join(OUT, file), subset);
  console.log(`${file}: ${subset.length} bytes`);
  faces.push(
    [
      '@font-face {',
      `  font-family: "${font.family}";`,
      '  font-style: normal;',
      '  font-display: swap;',
      `  font-weight: ${font.weight};`,
      `  src: url(./${file}) format("woff2");`,
      `  unicode-range: ${UNICODE_RANGE};`,
      '}',
    ].join('\n'),
  );
}
writeFileSync(
  path.join(OUT, 'fonts.css'),
  `/* Written by packages/web/scripts/subset-fonts.mjs: one file per family and weight, Serbian in both scripts. */\n${faces.join('\n')}\n`,
);
