import { crc32, deflateRawSync } from 'node:zlib';

/**
 * Test helper: an xlsx written by hand, part by part, so a test can make a part lie about its size
 * (`declaredSize` goes into both the local and the central header, whatever the content inflates to).
 */
export type ZipPart = { name: string; content: Buffer; declaredSize?: number };

export function zipParts(parts: readonly ZipPart[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const part of parts) {
    const data = deflateRawSync(part.content, { level: 9 });
    const crc = crc32(part.content);
    const name = Buffer.from(part.name);
    const size = part.declaredSize ?? part.content.length;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x0800, 6); // UTF-8 names
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, data);
    centrals.push(central, name);
    offset += local.length + name.length + data.length;
  }
  const centralDir = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(parts.length, 8);
  end.writeUInt16LE(parts.length, 10);
  end.writeUInt32LE(centralDir.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, centralDir, end]);
}

const MAIN = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const PKG = 'http://schemas.openxmlformats.org/package/2006/relationships';
const xml = (body: string) => Buffer.from(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n${body}`);
const esc = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;');

/**
 * A one-sheet xlsx whose rows are shared strings; `filler` bytes of one repeated string are added to
 * the shared strings (unused by the sheet), and `declaredStringsSize` is what their part claims.
 */
export function craftedXlsx(rows: string[][], opts: { filler?: number; declaredStringsSize?: number } = {}): Buffer {
  const strings: string[] = [];
  const index = (s: string) => {
    const at = strings.indexOf(s);
    if (at >= 0) return at;
    strings.push(s);
    return strings.length - 1;
  };
  const col = (i: number) => String.fromCharCode(65 + i);
  const sheetRows = rows
    .map((cells, r) => `<row r="${r + 1}">${cells.map((c, i) => `<c r="${col(i)}${r + 1}" t="s"><v>${index(c)}</v></c>`).join('')}</row>`)
    .join('');
  const head = `<sst xmlns="${MAIN}">${strings.map((s) => `<si><t>${esc(s)}</t></si>`).join('')}`;
  const unit = `<si><t>${'x'.repeat(1000)}</t></si>`;
  const filler = opts.filler ? unit.repeat(Math.ceil(opts.filler / unit.length)) : '';
  const sharedStrings = Buffer.from(`${head}${filler}</sst>`);
  return zipParts([
    {
      name: '[Content_Types].xml',
      content: xml(
        `<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/><Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/></Types>`,
      ),
    },
    {
      name: '_rels/.rels',
      content: xml(
        `<Relationships xmlns="${PKG}"><Relationship Id="rId1" Type="${REL}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
      ),
    },
    {
      name: 'xl/workbook.xml',
      content: xml(`<workbook xmlns="${MAIN}" xmlns:r="${REL}"><sheets><sheet name="Podaci" sheetId="1" r:id="rId1"/></sheets></workbook>`),
    },
    {
      name: 'xl/_rels/workbook.xml.rels',
      content: xml(
        `<Relationships xmlns="${PKG}"><Relationship Id="rId1" Type="${REL}/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="${REL}/sharedStrings" Target="sharedStrings.xml"/></Relationships>`,
      ),
    },
    { name: 'xl/sharedStrings.xml', content: sharedStrings, declaredSize: opts.declaredStringsSize },
    { name: 'xl/worksheets/sheet1.xml', content: xml(`<worksheet xmlns="${MAIN}"><sheetData>${sheetRows}</sheetData></worksheet>`) },
  ]);
}
