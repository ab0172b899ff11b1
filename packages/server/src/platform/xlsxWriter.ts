import { PassThrough } from 'node:stream';
import { spreadsheetSafe } from '@trasa/domain';
import archiver from 'archiver';

/**
 * Lists written as .xlsx while their rows arrive (writeXlsx below: a batch of rows leaves memory once
 * written). Text cells go through the domain's spreadsheetSafe, so a cell starting with =, +, -, @ is
 * never read as a formula.
 */

export type Cell = string | number | null;
/**
 * How a column's numbers are written: 'money' in dinars with two decimals ('#,##0.00' in the sheet,
 * '58.320,00 RSD' in a PDF), 'amount' two decimals of a currency another column names ('#,##0.00',
 * '58.320,00'), 'quantity' with up to three ('#,##0.###', '1.250,5'), 'count' whole ('#,##0', '1.250').
 * A number in a column without one is written as a quantity.
 */
export type NumberFormat = 'money' | 'amount' | 'quantity' | 'count';
export type SheetColumn = { header: string /** width in characters */; width: number; format?: NumberFormat };

/** The cell style (styles.xml cellXfs index) of each number format. */
const NUMBER_STYLE: Record<NumberFormat, string> = { money: ' s="2"', amount: ' s="2"', quantity: ' s="3"', count: ' s="4"' };

/** Waits while the consumer (the HTTP response) is behind, so a slow client doesn't make the server buffer. */
export async function drained(out: PassThrough, limit = 4 * 1024 * 1024): Promise<void> {
  while (out.readableLength > limit && !out.destroyed) await new Promise((r) => setTimeout(r, 2));
}

/**
 * A sheet name Excel opens (the one place names are made safe): the characters it forbids
 * (`: \ / ? * [ ]` and control characters) become spaces, an apostrophe may not start or end it, at
 * most 31 UTF-16 units (a surrogate pair is never cut), and an empty or reserved ('History') name
 * becomes 'Podaci'.
 */
export function sheetNameOf(name: string): string {
  let s = name
    .replace(/[:\\/?*[\]\p{Cc}]/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  s = s.replace(/^'+/, '').trim();
  if (s.length > 31) {
    const end = /[\ud800-\udbff]/.test(s.charAt(30)) ? 30 : 31;
    s = s.slice(0, end);
  }
  s = s.replace(/'+$/, '').trim();
  return s === '' || s.toLowerCase() === 'history' ? 'Podaci' : s;
}

/** XML text: the characters XML 1.0 does not allow (control characters but tab, LF and CR; U+FFFE, U+FFFF) dropped, markup escaped. */
export function xmlText(text: string): string {
  let s = text;
  if (INVALID_XML.test(s)) s = s.replace(INVALID_XML_ALL, '');
  if (/[&<>"]/.test(s)) s = s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
  return s;
}
// biome-ignore lint/suspicious/noControlCharactersInRegex: these are the characters being removed
const INVALID_XML = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: these are the characters being removed
const INVALID_XML_ALL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g;

/** Column letters of the 0-based index: 0 → A, 25 → Z, 26 → AA. */
export function columnLetters(index: number): string {
  let n = index + 1;
  let s = '';
  while (n > 0) {
    const r = (n - 1) % 26;
    s = String.fromCharCode(65 + r) + s;
    n = Math.floor((n - 1) / 26);
  }
  return s;
}

const XML_HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
const NS_MAIN = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const NS_REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const NS_PKG_REL = 'http://schemas.openxmlformats.org/package/2006/relationships';

const CONTENT_TYPES = `${XML_HEAD}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/><Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/></Types>`;
const ROOT_RELS = `${XML_HEAD}<Relationships xmlns="${NS_PKG_REL}"><Relationship Id="rId1" Type="${NS_REL}/officeDocument" Target="xl/workbook.xml"/></Relationships>`;
const WORKBOOK_RELS = `${XML_HEAD}<Relationships xmlns="${NS_PKG_REL}"><Relationship Id="rId1" Type="${NS_REL}/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="${NS_REL}/styles" Target="styles.xml"/></Relationships>`;
/**
 * Style 0 the default, style 1 bold (the header row), styles 2–4 the number formats (NUMBER_STYLE):
 * money '#,##0.00' (164), quantity '#,##0.###' (165), count '#,##0' (built-in 3).
 */
const STYLES = `${XML_HEAD}<styleSheet xmlns="${NS_MAIN}"><numFmts count="2"><numFmt numFmtId="164" formatCode="#,##0.00"/><numFmt numFmtId="165" formatCode="#,##0.###"/></numFmts><fonts count="2"><font><sz val="11"/><name val="Calibri"/><family val="2"/></font><font><b/><sz val="11"/><name val="Calibri"/><family val="2"/></font></fonts><fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills><borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders><cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs><cellXfs count="5"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/><xf numFmtId="0" fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1"/><xf numFmtId="164" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/><xf numFmtId="165" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/><xf numFmtId="3" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/></cellXfs><cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles></styleSheet>`;

const workbookXml = (sheetName: string) =>
  `${XML_HEAD}<workbook xmlns="${NS_MAIN}" xmlns:r="${NS_REL}"><bookViews><workbookView/></bookViews><sheets><sheet name="${xmlText(sheetName).replace(/'/g, '&apos;')}" sheetId="1" r:id="rId1"/></sheets></workbook>`;

/**
 * One row's XML; `refs` are the column letters, `style` ' s="1"' for the header, `numberStyles` each
 * column's style for a number (NUMBER_STYLE).
 */
function rowXml(cells: readonly Cell[], r: number, refs: readonly string[], style = '', numberStyles: readonly string[] = []): string {
  let s = `<row r="${r}">`;
  for (let i = 0; i < cells.length; i++) {
    const value = cells[i];
    const ref = `${refs[i] ?? columnLetters(i)}${r}`;
    if (typeof value === 'number') {
      if (Number.isFinite(value)) s += `<c r="${ref}"${style || (numberStyles[i] ?? NUMBER_STYLE.quantity)}><v>${value}</v></c>`;
    } else if (typeof value === 'string' && value !== '') {
      const text = xmlText(value);
      if (text === '') continue;
      // Formula-safe after the invalid characters are gone ('\u0001=1' must not become '=1').
      const safe = spreadsheetSafe(text);
      const space = /^\s|\s$/.test(safe) ? ' xml:space="preserve"' : '';
      s += `<c r="${ref}"${style} t="inlineStr"><is><t${space}>${safe}</t></is></c>`;
    }
  }
  return `${s}</row>`;
}

/** Deflate level of the zip: 6 is zlib's default; the sheet is repetitive XML and packs well at less. */
const ZIP_LEVEL = 4;

/**
 * The workbook is written here, not by exceljs (its streaming writer cost ~50 µs a row): a zip
 * (archiver, deflating off the main thread) of the five parts Excel, LibreOffice, exceljs and SheetJS
 * need, the sheet streamed a batch of rows at a time with inline strings (`t="inlineStr"`, no shared
 * strings table to keep), the header row bold and frozen, the columns' widths.
 */
export async function writeXlsx(
  out: PassThrough,
  sheetName: string,
  columns: readonly SheetColumn[],
  batches: AsyncIterable<Cell[][]>,
): Promise<void> {
  const archive = archiver('zip', { zlib: { level: ZIP_LEVEL } });
  const failed = new Promise<never>((_, reject) => archive.on('error', reject));
  failed.catch(() => {});
  const ended = new Promise<void>((resolve) => archive.on('end', resolve));
  archive.pipe(out);
  archive.append(CONTENT_TYPES, { name: '[Content_Types].xml' });
  archive.append(ROOT_RELS, { name: '_rels/.rels' });
  archive.append(workbookXml(sheetNameOf(sheetName)), { name: 'xl/workbook.xml' });
  archive.append(WORKBOOK_RELS, { name: 'xl/_rels/workbook.xml.rels' });
  archive.append(STYLES, { name: 'xl/styles.xml' });
  const sheet = new PassThrough();
  archive.append(sheet, { name: 'xl/worksheets/sheet1.xml' });

  const refs = columns.map((_, i) => columnLetters(i));
  const numberStyles = columns.map((c) => NUMBER_STYLE[c.format ?? 'quantity']);
  const cols = columns.length
    ? `<cols>${columns.map((c, i) => `<col min="${i + 1}" max="${i + 1}" width="${Number.isFinite(c.width) && c.width > 0 ? c.width : 10}" customWidth="1"/>`).join('')}</cols>`
    : '';
  // Never left waiting on the sheet once the client is gone (the loop below then stops).
  const closed = new Promise<void>((resolve) => (out.destroyed ? resolve() : out.once('close', resolve)));
  const write = async (xml: string) => {
    if (!sheet.write(xml)) await Promise.race([new Promise((r) => sheet.once('drain', r)), closed, failed]);
  };
  await write(
    `${XML_HEAD}<worksheet xmlns="${NS_MAIN}" xmlns:r="${NS_REL}"><sheetViews><sheetView workbookViewId="0"><pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen"/><selection pane="bottomLeft" activeCell="A2" sqref="A2"/></sheetView></sheetViews><sheetFormatPr defaultRowHeight="15"/>${cols}<sheetData>${rowXml(
      columns.map((c) => c.header),
      1,
      refs,
      ' s="1"',
    )}`,
  );
  let r = 1;
  for await (const batch of batches) {
    if (out.destroyed) {
      archive.abort();
      return;
    }
    let xml = '';
    for (const cells of batch) {
      r += 1;
      xml += rowXml(cells, r, refs, '', numberStyles);
    }
    await write(xml);
    await Promise.race([drained(out), failed]);
  }
  sheet.end('</sheetData></worksheet>');
  await Promise.race([archive.finalize(), failed]);
  await Promise.race([ended, failed]);
}
