import { existsSync } from 'node:fs';
import type { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { formatQuantity, formatRsd } from '@trasa/domain';
import PDFDocument from 'pdfkit';
import { FastLine } from './pdfText.js';
import type { Cell, SheetColumn } from './xlsxWriter.js';

/** A cell as the PDF shows it: numbers as Serbs write them, money with two decimals and RSD (SheetColumn.format). */
export function pdfCellText(cell: Cell, column: SheetColumn | undefined): string {
  if (cell === null) return '';
  if (typeof cell === 'string') return cell;
  if (!Number.isFinite(cell)) return '';
  const format = column?.format ?? 'quantity';
  if (format === 'money') return formatRsd(cell);
  if (format === 'amount') return formatRsd(cell).replace(/ RSD$/, '');
  return formatQuantity(cell, null, format === 'count' ? 0 : 3);
}

/**
 * Lists written as PDF while their rows arrive (pdfkit streams each finished page): A4, landscape when
 * the list has more than five columns, 7.5 pt DejaVu Sans (embedded, so Cyrillic and Latin both
 * render), the title and the header row repeated on every page, one line per row (a longer text is cut
 * with an ellipsis), a page number in the footer. Numbers are written as Serbs write them (pdfCellText).
 */

const FONT_FILES = { regular: 'DejaVuSans.ttf', bold: 'DejaVuSans-Bold.ttf' } as const;

/**
 * The font beside the code: packages/server/assets from src/platform (tests, tsx) and from dist (the
 * bundle in dist/main.js: ../assets), or dist/assets when the build copies it there.
 */
export function fontPath(file: string): string {
  const candidates = ['../../assets/', '../assets/', './assets/'].map((dir) => fileURLToPath(new URL(dir + file, import.meta.url)));
  const found = candidates.find((p) => existsSync(p));
  if (!found) throw new Error(`font ${file} not found (looked in ${candidates.join(', ')})`);
  return found;
}

/**
 * pdfkit caches the glyph layout of every word it has set, for the document's life (EmbeddedFont
 * layoutCache): on 100,000 rows of distinct names and numbers that is hundreds of megabytes. Emptied
 * after each batch; the glyphs used stay registered for the subset.
 */
function forgetLayouts(doc: PDFKit.PDFDocument): void {
  const families = (doc as unknown as { _fontFamilies?: Record<string, { layoutCache?: unknown }> })._fontFamilies ?? {};
  for (const font of Object.values(families)) if (font.layoutCache) font.layoutCache = Object.create(null);
}

const FONT_SIZE = 7.5;
const MARGIN = 28;
const PAD = 2;
const ROW_HEIGHT = FONT_SIZE + 2 * PAD + 1.5;
/** #f6f6f6, every other row's background. */
const ZEBRA = '0.9647 0.9647 0.9647';

export async function writePdf(
  out: PassThrough,
  title: string,
  columns: readonly SheetColumn[],
  batches: AsyncIterable<Cell[][]>,
): Promise<void> {
  const doc = new PDFDocument({
    size: 'A4',
    layout: columns.length > 5 ? 'landscape' : 'portrait',
    margin: MARGIN,
    autoFirstPage: false,
    info: { Title: title, Producer: 'Trasa', Creator: 'Trasa' },
  });
  doc.registerFont('regular', fontPath(FONT_FILES.regular));
  doc.registerFont('bold', fontPath(FONT_FILES.bold));
  const finished = new Promise<void>((resolve, reject) => {
    out.on('finish', resolve);
    out.on('close', resolve);
    doc.on('error', reject);
  });
  doc.pipe(out);

  const total = columns.reduce((s, c) => s + c.width, 0);
  let widths: number[] = [];
  let xs: number[] = [];
  let y = 0;
  let bottom = 0;
  let page = 0;

  // Per column, how many characters fit (measured once on a wide glyph mix); a longer text is cut with '…'.
  // Cutting here keeps pdfkit's line wrapper out of the loop: it was most of the time on 100,000 rows.
  let fits: number[] = [];
  const shownText = (text: string, i: number) => {
    const max = fits[i] ?? 0;
    return text.length > max ? `${text.slice(0, Math.max(0, max - 1))}…` : text;
  };
  const cellText = (text: string, i: number) => {
    doc.text(shownText(text, i), (xs[i] ?? 0) + PAD, y + PAD, { lineBreak: false });
  };
  // The rows (all but the title, the header and the page number) through the cheap path.
  let rowLine: FastLine | undefined;
  const newPage = () => {
    doc.addPage();
    // The layout is ours: no automatic page break when a line (the footer) lies below the bottom margin.
    doc.page.margins.bottom = 0;
    page += 1;
    const usable = doc.page.width - 2 * MARGIN;
    widths = columns.map((c) => (usable * c.width) / total);
    xs = widths.map((_, i) => MARGIN + widths.slice(0, i).reduce((s, w) => s + w, 0));
    bottom = doc.page.height - MARGIN - ROW_HEIGHT;
    doc.font('regular').fontSize(FONT_SIZE);
    const perChar = doc.widthOfString('НАСЕЉЕ Насеље Šid 2025 ŠМ') / 25;
    fits = widths.map((w) => Math.max(1, Math.floor((w - 2 * PAD) / perChar)));
    y = MARGIN;
    doc
      .font('bold')
      .fontSize(FONT_SIZE + 2)
      .fillColor('#000000');
    doc.text(title, MARGIN, y, { lineBreak: false });
    doc.font('regular').fontSize(FONT_SIZE).fillColor('#555555');
    doc.text(String(page), MARGIN, doc.page.height - MARGIN + 6, { width: usable, align: 'right', lineBreak: false });
    y += FONT_SIZE + 2 + 6;
    doc.rect(MARGIN, y, usable, ROW_HEIGHT).fill('#e8eef5');
    doc.font('bold').fontSize(FONT_SIZE).fillColor('#000000');
    columns.forEach((c, i) => {
      cellText(c.header, i);
    });
    y += ROW_HEIGHT;
    doc.font('regular');
    rowLine ??= new FastLine(doc);
  };

  newPage();
  let n = 0;
  for await (const batch of batches) {
    if (out.destroyed) break;
    for (const cells of batch) {
      if (y > bottom) newPage();
      const texts = cells.map((cell, i) => ({
        text: cell === null || cell === '' ? '' : shownText(pdfCellText(cell, columns[i]), i),
        x: (xs[i] ?? 0) + PAD,
        y: y + PAD,
      }));
      rowLine?.write(
        texts,
        FONT_SIZE,
        n % 2 === 1 ? { rgb: ZEBRA, rect: [MARGIN, y, doc.page.width - 2 * MARGIN, ROW_HEIGHT] } : undefined,
      );
      y += ROW_HEIGHT;
      n += 1;
    }
    forgetLayouts(doc);
    // pdfkit pushes pages whatever the reader's pace; wait while the client is behind.
    while (doc.readableLength + out.readableLength + out.writableLength > 4 * 1024 * 1024 && !out.destroyed) {
      await new Promise((r) => setTimeout(r, 2));
    }
  }
  doc.end();
  await finished;
}
