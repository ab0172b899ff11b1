/**
 * One line of text in a pdfkit document without pdfkit's text path. `doc.text` handles its options,
 * measures, and shapes every word with fontkit (GSUB/GPOS) per call: on 100,000 rows × 10 cells that
 * was most of a PDF export's time. Here a code point's glyph is looked up once, the kerning of a pair of
 * code points once (a two-letter layout by the same fontkit, so pairs kern as pdfkit sets them), and a
 * row's cells go into the page's content stream as one write of `Tm` + `TJ` operators.
 *
 * It reaches into pdfkit's EmbeddedFont (its fontkit font, subset, widths, unicode map) and the page's
 * content stream: pinned to pdfkit 0.20 by pdf.test.ts, which reads the text back out of the file.
 */

type FontkitGlyph = { id: number; advanceWidth: number };
type FontkitFont = {
  glyphForCodePoint(cp: number): FontkitGlyph;
  layout(text: string): { glyphs: FontkitGlyph[]; positions: { xAdvance: number }[] };
};
type EmbeddedFont = {
  id: string;
  font: FontkitFont;
  subset: { includeGlyph(id: number): number };
  widths: number[];
  unicode: number[][];
  scale: number;
  ascender: number;
  ref(): unknown;
};
type DocInternals = {
  _font: EmbeddedFont;
  page: { height: number; fonts: Record<string, unknown>; write(chunk: Uint8Array): void };
};

/** A number as PDF content wants it: at most two decimals, never an exponent. */
export function pdfNumber(n: number): string {
  const r = Math.round(n * 100) / 100;
  return Object.is(r, -0) ? '0' : String(r);
}

type Glyph = { hex: string; width: number };

/** Pairs kept at most (characters² of the text seen; a text of many scripts would grow it without end). */
const MAX_PAIRS = 50_000;

export class FastLine {
  private readonly glyphs = new Map<number, Glyph>();
  private readonly kerns = new Map<number, number>();

  constructor(
    private readonly doc: PDFKit.PDFDocument,
    /** The document's current font when this is made (an embedded TrueType font). */
    private readonly font: EmbeddedFont = (doc as unknown as DocInternals)._font,
  ) {}

  private glyph(cp: number): Glyph {
    let g = this.glyphs.get(cp);
    if (!g) {
      const glyph = this.font.font.glyphForCodePoint(cp);
      const gid = this.font.subset.includeGlyph(glyph.id);
      const width = glyph.advanceWidth * this.font.scale;
      if (this.font.widths[gid] == null) this.font.widths[gid] = width;
      if (this.font.unicode[gid] == null) this.font.unicode[gid] = [cp];
      g = { hex: gid.toString(16).padStart(4, '0'), width };
      this.glyphs.set(cp, g);
    }
    return g;
  }

  /** The adjustment after `a` when `b` follows, in thousandths of the font size (as a TJ number, negated). */
  private kern(a: number, b: number): number {
    const key = a * 0x110000 + b;
    let k = this.kerns.get(key);
    if (k === undefined) {
      const run = this.font.font.layout(String.fromCodePoint(a, b));
      const first = run.glyphs[0];
      const pos = run.positions[0];
      k = run.glyphs.length === 2 && first && pos ? (pos.xAdvance - first.advanceWidth) * this.font.scale : 0;
      if (Math.abs(k) < 0.005) k = 0;
      if (this.kerns.size >= MAX_PAIRS) this.kerns.clear();
      this.kerns.set(key, k);
    }
    return k;
  }

  /** The TJ operand of `text`: glyph runs split where a pair kerns (no kerning across a space, as pdfkit). */
  private tj(text: string): string {
    let out = '[<';
    let prev = -1;
    for (const ch of text) {
      const cp = ch.codePointAt(0) ?? 0;
      if (cp === 10 || cp === 13) continue;
      if (prev >= 0 && prev !== 32 && prev !== 9) {
        const k = this.kern(prev, cp);
        if (k !== 0) out += `> ${pdfNumber(-k)} <`;
      }
      out += this.glyph(cp).hex;
      prev = cp;
    }
    return `${out}>] TJ`;
  }

  /**
   * Writes texts at their top-left corners (pdfkit's coordinates, y downwards, as `doc.text` places
   * them) in the current font size and black, and, first, a filled rectangle behind them when given.
   */
  write(cells: readonly { text: string; x: number; y: number }[], size: number, fill?: { rgb: string; rect: readonly number[] }): void {
    const internals = this.doc as unknown as DocInternals;
    const page = internals.page;
    if (page.fonts[this.font.id] == null) page.fonts[this.font.id] = this.font.ref();
    let s = '';
    if (fill) s += `q ${fill.rgb} rg ${fill.rect.map(pdfNumber).join(' ')} re f Q\n`;
    const dy = (this.font.ascender / 1000) * size;
    s += `q 1 0 0 -1 0 ${pdfNumber(page.height)} cm BT 0 0 0 rg /${this.font.id} ${pdfNumber(size)} Tf\n`;
    for (const c of cells) {
      if (c.text === '') continue;
      s += `1 0 0 1 ${pdfNumber(c.x)} ${pdfNumber(page.height - c.y - dy)} Tm ${this.tj(c.text)}\n`;
    }
    s += 'ET Q\n';
    page.write(Buffer.from(s, 'latin1'));
  }
}
